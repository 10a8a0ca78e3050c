//! The vignette: light darkened towards the corners, before the curve,
//! round on any aspect ratio (`vignette.*`).

use crate::effect::{Builtin, Context, Place};
use crate::options::schema::{doc_line, number, Effect, Kind, Literal, OptionSpec};
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

const FRACTION: Kind = Kind::Number {
    min: 0.0,
    max: 1.0,
    above_min: false,
};

pub const EFFECT: Builtin = Builtin {
    name: "vignette",
    place: Place::Scene,
    wgsl: wgsl!("effect_vignette.wgsl"),
    params: Some(("VignetteParams", std::mem::size_of::<VignetteParams>())),
    textures: &[],
    options: &[
        OptionSpec {
            path: "vignette.intensity",
            kind: FRACTION,
            default: Literal::Num(0.0),
            effect: Effect::Rebuild,
            doc: doc_line!(
                "How much light the corners lose, before the curve (0: no vignette). Round on any \
                  aspect ratio."
            ),
            access: number!(vignette.intensity),
        },
        OptionSpec {
            path: "vignette.radius",
            kind: FRACTION,
            default: Literal::Num(0.5),
            effect: Effect::Uniforms,
            doc: doc_line!("Where the darkening starts, as a fraction of the distance from the centre to a corner."),
            access: number!(vignette.radius),
        },
        OptionSpec {
            path: "vignette.smoothness",
            kind: FRACTION,
            default: Literal::Num(0.5),
            effect: Effect::Uniforms,
            doc: doc_line!("Over how much of that distance the darkening reaches its full strength."),
            access: number!(vignette.smoothness),
        },
    ],
    on: |o, _| o.vignette.intensity > 0.0,
    write,
    #[cfg(test)]
    layout: crate::effect::params_layout::<VignetteParams>,
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
