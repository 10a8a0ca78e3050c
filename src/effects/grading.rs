//! Grading in scene-linear light, before the curve: white balance
//! (`grading.temperature`, `grading.tint`), contrast and saturation.

use crate::effect::{Builtin, Context, Params, Place};
use crate::options::types::{GradingOptions, Options};
use crate::uniform::uniform;

uniform! {
    /// `GradingParams` in effect_grading.wgsl.
    struct GradingParams {
        // The white balance as a linear-sRGB matrix (three columns).
        white_balance: [[f32; 4]; 3],
        saturation: f32,
        contrast: f32,
        _pad: [f32; 2],
    }
}

pub const EFFECT: Builtin = Builtin {
    name: "grading",
    place: Place::Scene,
    wgsl: wgsl!("effect_grading.wgsl"),
    params: Some(Params::of::<GradingParams>()),
    textures: &[],
    on: |o, _| graded(&o.grading),
    write,
    neighbours: None,
};

fn write(o: &Options, _: &Context) -> Vec<u8> {
    bytemuck::bytes_of(&GradingParams {
        white_balance: white_balance(o.grading.temperature, o.grading.tint),
        saturation: o.grading.saturation as f32,
        contrast: o.grading.contrast as f32,
        _pad: [0.0; 2],
    })
    .to_vec()
}

/// Whether the white balance, saturation or contrast is away from its
/// default (the table's mix is the lookup table's business).
fn graded(g: &GradingOptions) -> bool {
    let identity = GradingOptions::default();
    (g.temperature, g.tint, g.saturation, g.contrast)
        != (
            identity.temperature,
            identity.tint,
            identity.saturation,
            identity.contrast,
        )
}

/// The white balance of `grading.temperature` and `grading.tint` as a
/// matrix on linear sRGB (three columns, padded for WGSL): a von Kries
/// adaptation in the CAT02 cone space from a white on the CIE daylight
/// locus (temperature 0: 6504 K, D65; 1: 1.5 times the colour temperature,
/// a bluer white adapted to D65, so the picture warms; -1: two thirds of
/// it), moved across the locus by `tint` (positive: a greener white, so
/// the picture turns magenta). Both at 0 give the identity.
pub fn white_balance(temperature: f64, tint: f64) -> [[f32; 4]; 3] {
    // Linear sRGB (D65) to CIE XYZ, and CAT02.
    const SRGB_TO_XYZ: [[f64; 3]; 3] = [
        [0.4124564, 0.3575761, 0.1804375],
        [0.2126729, 0.7151522, 0.0721750],
        [0.0193339, 0.1191920, 0.9503041],
    ];
    const CAT02: [[f64; 3]; 3] = [
        [0.7328, 0.4296, -0.1624],
        [-0.7036, 1.6975, 0.0061],
        [0.0030, 0.0136, 0.9834],
    ];
    let lms_of_white = |t: f64, tint: f64| {
        let (x, y) = daylight_xy(6504.0 * 1.5f64.powf(t));
        let y = y + 0.02 * tint;
        mul(CAT02, [x / y, 1.0, (1.0 - x - y) / y])
    };
    let reference = lms_of_white(0.0, 0.0);
    let white = lms_of_white(temperature, tint);
    let gain: [[f64; 3]; 3] = std::array::from_fn(|i| {
        std::array::from_fn(|j| if i == j { reference[i] / white[i] } else { 0.0 })
    });
    let to_lms = matmul(CAT02, SRGB_TO_XYZ);
    let m = matmul(inverse(to_lms), matmul(gain, to_lms));
    // Column-major, each column padded to four floats.
    std::array::from_fn(|c| [m[0][c] as f32, m[1][c] as f32, m[2][c] as f32, 0.0])
}

/// The CIE daylight locus: chromaticity (x, y) of daylight at `kelvin`
/// (4000 to 25000 K).
fn daylight_xy(kelvin: f64) -> (f64, f64) {
    let t = kelvin.clamp(4000.0, 25000.0);
    let (t1, t2, t3) = (1e3 / t, 1e6 / (t * t), 1e9 / (t * t * t));
    let x = if t <= 7000.0 {
        -4.6070 * t3 + 2.9678 * t2 + 0.09911 * t1 + 0.244063
    } else {
        -2.0064 * t3 + 1.9018 * t2 + 0.24748 * t1 + 0.237040
    };
    (x, -3.0 * x * x + 2.87 * x - 0.275)
}

fn mul(m: [[f64; 3]; 3], v: [f64; 3]) -> [f64; 3] {
    std::array::from_fn(|i| m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2])
}

fn matmul(a: [[f64; 3]; 3], b: [[f64; 3]; 3]) -> [[f64; 3]; 3] {
    std::array::from_fn(|i| std::array::from_fn(|j| (0..3).map(|k| a[i][k] * b[k][j]).sum()))
}

/// The inverse of an invertible 3×3 matrix (by cofactors).
fn inverse(m: [[f64; 3]; 3]) -> [[f64; 3]; 3] {
    let c = |i: usize, j: usize| {
        let (r0, r1) = ((i + 1) % 3, (i + 2) % 3);
        let (c0, c1) = ((j + 1) % 3, (j + 2) % 3);
        m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]
    };
    let det = m[0][0] * c(0, 0) + m[0][1] * c(0, 1) + m[0][2] * c(0, 2);
    std::array::from_fn(|i| std::array::from_fn(|j| c(j, i) / det))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(m: [[f32; 4]; 3], rgb: [f64; 3]) -> [f64; 3] {
        std::array::from_fn(|i| (0..3).map(|c| m[c][i] as f64 * rgb[c]).sum())
    }

    #[test]
    fn white_balance_is_the_identity_at_zero() {
        let m = white_balance(0.0, 0.0);
        for (c, column) in m.iter().enumerate() {
            for (r, v) in column.iter().take(3).enumerate() {
                let want = if r == c { 1.0 } else { 0.0 };
                assert!((v - want).abs() < 1e-6, "({r}, {c}): {v}");
            }
        }
    }

    #[test]
    fn warmer_is_redder_and_magenta_is_less_green() {
        let grey = [0.5, 0.5, 0.5];
        let warm = apply(white_balance(1.0, 0.0), grey);
        assert!(warm[0] > 0.55 && warm[2] < 0.45, "{warm:?}");
        let cool = apply(white_balance(-1.0, 0.0), grey);
        assert!(cool[0] < 0.47 && cool[2] > 0.53, "{cool:?}");
        let magenta = apply(white_balance(0.0, 1.0), grey);
        assert!(
            magenta[1] < magenta[0] && magenta[1] < magenta[2],
            "{magenta:?}"
        );
        // Any grey stays a grey of the same hue family: the matrix is linear.
        let bright = apply(white_balance(1.0, 0.0), [5.0, 5.0, 5.0]);
        assert!((bright[0] / warm[0] - 10.0).abs() < 1e-9);
    }
}
