//! Chromatic aberration: lateral lens fringing that grows towards the
//! edges. Red and blue are shifted radially, in opposite directions, by
//! `lens.chromaticAberration` output pixels at the corners, less in
//! proportion to the distance from the centre, where there is none. The
//! shift is in pixels of the output whatever its size or the render
//! scale.

use crate::effect::{Builtin, Context, Params, Place};
use crate::options::types::Options;
use crate::uniform::uniform;

uniform! {
    /// `ChromaticAberrationParams` in effect_chromatic_aberration.wgsl.
    struct ChromaticAberrationParams {
        // Where red and blue are read, as scales about the centre.
        red: f32,
        blue: f32,
        _pad: [f32; 2],
    }
}

pub const EFFECT: Builtin = Builtin {
    name: "chromatic_aberration",
    place: Place::Scene,
    wgsl: wgsl!("effect_chromatic_aberration.wgsl"),
    params: Some(Params::of::<ChromaticAberrationParams>()),
    textures: &[],
    on: |o, _| o.lens.chromatic_aberration > 0.0,
    write,
    neighbours: None,
};

fn write(o: &Options, c: &Context) -> Vec<u8> {
    let (red, blue) = read_scales(o.lens.chromatic_aberration, c.output_size);
    bytemuck::bytes_of(&ChromaticAberrationParams {
        red,
        blue,
        _pad: [0.0; 2],
    })
    .to_vec()
}

/// The scales about the centre at which red and blue are read so that
/// their images grow and shrink by `pixels` output pixels at a corner
/// (half the diagonal away): an image scaled by k is read at 1 / k. At
/// most half the distance to a corner, on a tiny output.
fn read_scales(pixels: f64, output: (u32, u32)) -> (f32, f32) {
    let (w, h) = (output.0.max(1) as f64, output.1.max(1) as f64);
    let s = (pixels / (0.5 * (w * w + h * h).sqrt())).min(0.5);
    ((1.0 / (1.0 + s)) as f32, (1.0 / (1.0 - s)) as f32)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_corner_moves_by_the_option_in_pixels_at_any_size() {
        for size in [(64, 48), (1920, 1080), (300, 900)] {
            let half_diagonal = 0.5 * (size.0 as f64).hypot(size.1 as f64);
            let (red, blue) = super::read_scales(5.0, size);
            // Where the corner's colour lands: read at the corner.
            let grown = half_diagonal / red as f64 - half_diagonal;
            let shrunk = half_diagonal - half_diagonal / blue as f64;
            assert!((grown - 5.0).abs() < 1e-3, "{size:?}: red {grown}");
            assert!((shrunk - 5.0).abs() < 1e-3, "{size:?}: blue {shrunk}");
        }
    }
}
