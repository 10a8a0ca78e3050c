//! Sharpening (`sharpen.amount`): contrast-adaptive, on the displayed
//! picture after the curve and anti-aliasing. Each pixel moves away from
//! the mean of its four neighbours on a perceptual scale, by as much as
//! `amount` asks but never beyond the least and greatest of that
//! neighbourhood: a flat area has nothing to move, an edge already as
//! sharp as it can be is held where it is, and a soft edge steepens
//! without a halo. It reads the display image around its pixel, so the
//! frame is split for it (`crate::effect::Neighbours`, as a hook: after
//! FXAA or SMAA where one runs).

use crate::effect::{Builtin, Context, Neighbours, Params, Place};
use crate::options::types::Options;
use crate::uniform::uniform;

uniform! {
    /// `SharpenParams` in effect_sharpen.wgsl.
    struct SharpenParams {
        // How far a pixel moves from its neighbours' mean, per unit of
        // its difference from it.
        strength: f32,
        _pad: f32,
        _pad2: [f32; 2],
    }
}

/// The strength at `amount: 1`: a pixel moves away from its neighbours'
/// mean by this many times its difference from it (before the limit).
const STRENGTH: f64 = 16.0;

pub const EFFECT: Builtin = Builtin {
    name: "sharpen",
    place: Place::Display,
    wgsl: wgsl!("effect_sharpen.wgsl"),
    params: Some(Params::of::<SharpenParams>()),
    textures: &[],
    on: |o, _| o.sharpen.amount > 0.0,
    write,
    neighbours: Some(&Neighbours {
        passes: &[],
        reads: &[],
        hook: true,
    }),
};

fn write(o: &Options, _: &Context) -> Vec<u8> {
    bytemuck::bytes_of(&SharpenParams {
        strength: (o.sharpen.amount * STRENGTH) as f32,
        _pad: 0.0,
        _pad2: [0.0; 2],
    })
    .to_vec()
}
