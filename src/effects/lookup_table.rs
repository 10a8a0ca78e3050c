//! The 3D lookup table (`setLut`, [`crate::PostChain::set_lut`]), mixed in
//! by `grading.lutIntensity` after the curve, on encoded display values.

use crate::effect::{Builtin, Context, LookTexture, LutDomain, Params, Place};
use crate::options::types::Options;
use crate::uniform::uniform;

uniform! {
    /// `LutParams` in effect_lut.wgsl.
    struct LutParams {
        // The table's domain as a scale and offset to [0, 1], and its last
        // index (see `lut_mapping`).
        scale: [f32; 3],
        last: f32,
        offset: [f32; 3],
        intensity: f32,
    }
}

pub const EFFECT: Builtin = Builtin {
    name: "lut",
    place: Place::Encoded,
    wgsl: wgsl!("effect_lut.wgsl"),
    params: Some(Params::of::<LutParams>()),
    textures: &[("fx_lut_table", LookTexture::Lut)],
    on: |o, c| c.lut.is_some() && o.grading.lut_intensity > 0.0,
    write,
    neighbours: None,
};

fn write(o: &Options, c: &Context) -> Vec<u8> {
    let (scale, offset, last) = lut_mapping(c.lut);
    bytemuck::bytes_of(&LutParams {
        scale,
        last,
        offset,
        intensity: o.grading.lut_intensity as f32,
    })
    .to_vec()
}

/// A table's domain as the scale and offset that take a display value to
/// [0, 1] across it, and its last index; zeros without a table.
fn lut_mapping(lut: Option<LutDomain>) -> ([f32; 3], [f32; 3], f32) {
    match lut {
        Some(l) => {
            let scale: [f32; 3] = std::array::from_fn(|i| 1.0 / (l.max[i] - l.min[i]));
            let offset = std::array::from_fn(|i| -l.min[i] * scale[i]);
            (scale, offset, (l.size - 1) as f32)
        }
        None => ([0.0; 3], [0.0; 3], 0.0),
    }
}
