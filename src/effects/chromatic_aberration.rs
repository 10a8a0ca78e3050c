//! Chromatic aberration: lateral lens fringing that grows towards the
//! edges. Red and blue are shifted radially, in opposite directions, by
//! `lens.chromaticAberration` output pixels at the corners, less in
//! proportion to the distance from the centre, where there is none. The
//! shift is in pixels of the output whatever its size or the render
//! scale.

use crate::effect::{Builtin, Context, Place};
use crate::options::schema::{doc_line, number, Effect, Kind, Literal, OptionSpec};
use crate::options::types::Options;
use crate::uniform::uniform;

uniform! {
    /// `ChromaticAberrationParams` in effect_chromatic_aberration.wgsl.
    struct ChromaticAberrationParams {
        // The shift in uv per uv away from the centre.
        scale: f32,
        _pad0: f32,
        _pad1: [f32; 2],
    }
}

pub const EFFECT: Builtin = Builtin {
    name: "chromatic_aberration",
    place: Place::Scene,
    wgsl: wgsl!("effect_chromatic_aberration.wgsl"),
    params: Some((
        "ChromaticAberrationParams",
        std::mem::size_of::<ChromaticAberrationParams>(),
    )),
    textures: &[],
    options: &[OptionSpec {
        path: "lens.chromaticAberration",
        kind: Kind::Number {
            min: 0.0,
            max: 64.0,
            above_min: false,
        },
        default: Literal::Num(0.0),
        effect: Effect::Rebuild,
        doc: doc_line!(
            "Lens fringing, in output pixels at the corners: red is shifted outwards and blue \
              inwards by this much there, less towards the centre. 0: none, and no cost."
        ),
        access: number!(lens.chromatic_aberration),
    }],
    on: |o, _| o.lens.chromatic_aberration > 0.0,
    write,
    #[cfg(feature = "fixtures")]
    layout: crate::effect::params_layout::<ChromaticAberrationParams>,
};

fn write(o: &Options, c: &Context) -> Vec<u8> {
    bytemuck::bytes_of(&ChromaticAberrationParams {
        scale: shift_scale(o.lens.chromatic_aberration, c.output_size),
        _pad0: 0.0,
        _pad1: [0.0; 2],
    })
    .to_vec()
}

/// The shift in uv per uv from the centre that moves a colour `pixels`
/// output pixels at a corner: a corner is half the diagonal away.
fn shift_scale(pixels: f64, output: (u32, u32)) -> f32 {
    let (w, h) = (output.0.max(1) as f64, output.1.max(1) as f64);
    (pixels / (0.5 * w.hypot(h))) as f32
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_corner_moves_by_the_option_in_pixels_at_any_size() {
        for size in [(64, 48), (1920, 1080), (300, 900)] {
            let s = super::shift_scale(5.0, size) as f64;
            // The corner's uv is (1, 1): 0.5 from the centre on each axis.
            let moved = (0.5 * s * size.0 as f64).hypot(0.5 * s * size.1 as f64);
            assert!((moved - 5.0).abs() < 1e-4, "{size:?}: {moved}");
        }
    }
}
