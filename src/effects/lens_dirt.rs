//! Lens dirt: the bloom multiplied by 1 + `bloom.dirtIntensity` × the dirt
//! texture (`setLensDirt`, [`crate::PostChain::set_lens_dirt`]), only
//! where there is bloom.

use crate::effect::{Builtin, Context, LookTexture, Params, Place};
use crate::options::types::Options;
use crate::uniform::uniform;

uniform! {
    /// `LensDirtParams` in effect_lens_dirt.wgsl.
    struct LensDirtParams {
        intensity: f32,
        _pad: f32,
        // Frame to dirt coordinates around the centre (see `dirt_scale`).
        scale: [f32; 2],
    }
}

pub const EFFECT: Builtin = Builtin {
    name: "lens_dirt",
    place: Place::Bloom,
    wgsl: wgsl!("effect_lens_dirt.wgsl"),
    params: Some(Params::of::<LensDirtParams>()),
    textures: &[("fx_lens_dirt_texture", LookTexture::Dirt)],
    on: |o, c| c.bloom && c.dirt.is_some() && o.bloom.dirt_intensity > 0.0,
    write,
    neighbours: None,
};

fn write(o: &Options, c: &Context) -> Vec<u8> {
    bytemuck::bytes_of(&LensDirtParams {
        intensity: o.bloom.dirt_intensity as f32,
        _pad: 0.0,
        scale: dirt_scale(c.output_size, c.dirt),
    })
    .to_vec()
}

/// Frame to dirt texture coordinates around the centre, so that a dirt
/// texture of `dirt` texels covers an output of `output` pixels (scaled
/// to fill it, keeping its aspect ratio, the overflow cropped evenly).
fn dirt_scale(output: (u32, u32), dirt: Option<(u32, u32)>) -> [f32; 2] {
    let Some(dirt) = dirt else { return [1.0; 2] };
    let (ow, oh) = (output.0.max(1) as f64, output.1.max(1) as f64);
    let (dw, dh) = (dirt.0.max(1) as f64, dirt.1.max(1) as f64);
    let k = (ow / dw).max(oh / dh);
    [(ow / (k * dw)) as f32, (oh / (k * dh)) as f32]
}
