//! Film grain: value noise on the encoded display values, last, with
//! cells of `grain.size` output pixels (one per pixel at 1, at any
//! resolution), strongest in the mid-tones and fading to none at black and
//! white, and a new pattern for every frame time (the same time gives the
//! same pattern).

use crate::effect::{Builtin, Context, Place};
use crate::options::schema::{doc_line, number, Effect, Kind, Literal, OptionSpec};
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
    params: Some(("FilmGrainParams", std::mem::size_of::<FilmGrainParams>())),
    textures: &[],
    options: &[
        OptionSpec {
            path: "grain.intensity",
            kind: Kind::Number {
                min: 0.0,
                max: 1.0,
                above_min: false,
            },
            default: Literal::Num(0.0),
            effect: Effect::Rebuild,
            doc: doc_line!(
                "Film grain, animated by time and strongest in the mid-tones: at 1 a mid grey moves \
                  by up to ±0.2 of the encoded range. 0: none, and no cost."
            ),
            access: number!(grain.intensity),
        },
        OptionSpec {
            path: "grain.size",
            kind: Kind::Number {
                min: 1.0,
                max: 8.0,
                above_min: false,
            },
            default: Literal::Num(1.0),
            effect: Effect::Uniforms,
            doc: doc_line!("Size of a grain in output pixels: 1 is a grain per pixel at any resolution."),
            access: number!(grain.size),
        },
    ],
    on: |o, _| o.grain.intensity > 0.0,
    write,
    #[cfg(test)]
    layout: crate::effect::params_layout::<FilmGrainParams>,
};

fn write(o: &Options, _: &Context) -> Vec<u8> {
    bytemuck::bytes_of(&FilmGrainParams {
        intensity: o.grain.intensity as f32,
        size: o.grain.size as f32,
        _pad: [0.0; 2],
    })
    .to_vec()
}
