//! Film grain: value noise on the encoded display values, last, with
//! cells of `grain.size` output pixels (one per pixel at 1, at any
//! resolution), strongest in the mid-tones and fading to none at black and
//! white, and a new pattern for every frame time (the same time gives the
//! same pattern).

use crate::effect::{Builtin, Context, Params, Place};
use crate::options::types::Options;
use crate::uniform::uniform;

uniform! {
    /// `FilmGrainParams` in effect_film_grain.wgsl.
    struct FilmGrainParams {
        intensity: f32,
        size: f32,
        _pad: [f32; 2],
    }
}

pub const EFFECT: Builtin = Builtin {
    name: "film_grain",
    place: Place::Encoded,
    wgsl: wgsl!("effect_film_grain.wgsl"),
    params: Some(Params::of::<FilmGrainParams>()),
    textures: &[],
    on: |o, _| o.grain.intensity > 0.0,
    write,
    neighbours: None,
};

fn write(o: &Options, _: &Context) -> Vec<u8> {
    bytemuck::bytes_of(&FilmGrainParams {
        intensity: o.grain.intensity as f32,
        size: o.grain.size as f32,
        _pad: [0.0; 2],
    })
    .to_vec()
}
