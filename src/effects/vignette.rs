//! The vignette: light darkened towards the corners, before the curve,
//! round on any aspect ratio (`vignette.*`).

use crate::effect::{Builtin, Context, Params, Place};
use crate::options::types::Options;
use crate::uniform::uniform;

uniform! {
    /// `VignetteParams` in effect_vignette.wgsl.
    struct VignetteParams {
        intensity: f32,
        radius: f32,
        smoothness: f32,
        aspect: f32,
    }
}

pub const EFFECT: Builtin = Builtin {
    name: "vignette",
    place: Place::Scene,
    wgsl: wgsl!("effect_vignette.wgsl"),
    params: Some(Params::of::<VignetteParams>()),
    textures: &[],
    on: |o, _| o.vignette.intensity > 0.0,
    write,
    neighbours: None,
};

fn write(o: &Options, c: &Context) -> Vec<u8> {
    bytemuck::bytes_of(&VignetteParams {
        intensity: o.vignette.intensity as f32,
        radius: o.vignette.radius as f32,
        // Never 0: the shader divides by it.
        smoothness: o.vignette.smoothness.max(1e-3) as f32,
        aspect: c.output_size.0.max(1) as f32 / c.output_size.1.max(1) as f32,
    })
    .to_vec()
}
