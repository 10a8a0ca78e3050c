//! What the composite pass reads besides the frame: the 3D lookup table
//! (`setLut`, [`crate::PostChain::set_lut`]) and the lens dirt texture
//! (`setLensDirt`, [`crate::PostChain::set_lens_dirt`]). The chain holds
//! them across rebuilds; the composite binds them and is specialised for
//! them only while they are set and their intensity is above 0.

use crate::effect::{LookInfo, LookViews, LutDomain};
use crate::error::Error;
use crate::gpu::Gpu;
use crate::lut::Lut;

/// The table on the GPU.
struct LutTexture {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    info: LutDomain,
}

/// A dirt texture given to the chain.
pub struct DirtTexture {
    pub view: wgpu::TextureView,
    pub size: (u32, u32),
    /// Made by afterglow (an uploaded image): released when replaced.
    pub own: Option<wgpu::Texture>,
}

#[derive(Default)]
pub struct Look {
    lut: Option<LutTexture>,
    dirt: Option<DirtTexture>,
}

impl Look {
    pub fn info(&self) -> LookInfo {
        LookInfo {
            lut: self.lut.as_ref().map(|l| l.info),
            dirt: self.dirt.as_ref().map(|d| d.size),
        }
    }

    pub fn views(&self) -> LookViews {
        LookViews {
            lut: self.lut.as_ref().map(|l| l.view.clone()),
            dirt: self.dirt.as_ref().map(|d| d.view.clone()),
        }
    }

    /// Bytes of the textures afterglow made for the look.
    pub fn bytes(&self) -> u64 {
        let lut = self
            .lut
            .as_ref()
            .map_or(0, |l| u64::from(l.info.size).pow(3) * LUT_TEXEL_BYTES);
        let dirt = self.dirt.as_ref().filter(|d| d.own.is_some());
        lut + dirt.map_or(0, |d| u64::from(d.size.0) * u64::from(d.size.1) * 4)
    }

    /// Uploads `lut` (or removes the table), releasing the one it replaces.
    pub fn set_lut(&mut self, gpu: &Gpu, lut: Option<&Lut>) -> Result<(), Error> {
        let new = lut.map(|l| upload(gpu, l)).transpose()?;
        if let Some(old) = std::mem::replace(&mut self.lut, new) {
            release(gpu, &old.texture);
        }
        Ok(())
    }

    /// Uses `dirt` (or none), releasing a texture of afterglow's it
    /// replaces.
    pub fn set_dirt(&mut self, gpu: &Gpu, dirt: Option<DirtTexture>) {
        if let Some(DirtTexture { own: Some(t), .. }) = std::mem::replace(&mut self.dirt, dirt) {
            release(gpu, &t);
        }
    }

    /// The chain's own dirt texture, to upload a new image of the same
    /// size into.
    pub fn own_dirt(&self) -> Option<&wgpu::Texture> {
        self.dirt.as_ref().and_then(|d| d.own.as_ref())
    }
}

/// A texture of the look that is being replaced: destroyed at once where
/// the chain submits its own frames, dropped where the caller submits
/// (wgpu keeps it until the recorded work has run).
fn release(gpu: &Gpu, texture: &wgpu::Texture) {
    if !gpu.caller_submits {
        texture.destroy();
    }
}

/// rgba32float: exact values, read with `textureLoad` (no filtering needed:
/// the shader interpolates).
const LUT_TEXEL_BYTES: u64 = 16;

fn upload(gpu: &Gpu, lut: &Lut) -> Result<LutTexture, Error> {
    let n = lut.size();
    let max = gpu.device.limits().max_texture_dimension_3d;
    if n > max {
        return Err(Error::argument(
            "lut",
            format!("has {n} entries per side; this device's 3D textures allow {max}"),
        ));
    }
    let extent = wgpu::Extent3d {
        width: n,
        height: n,
        depth_or_array_layers: n,
    };
    let texture = gpu.create_texture(&wgpu::TextureDescriptor {
        label: Some("lut"),
        size: extent,
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D3,
        format: wgpu::TextureFormat::Rgba32Float,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    })?;
    let texels: Vec<[f32; 4]> = lut.data().iter().map(|c| [c[0], c[1], c[2], 1.0]).collect();
    gpu.queue.write_texture(
        wgpu::TexelCopyTextureInfo {
            texture: &texture,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        bytemuck::cast_slice(&texels),
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(n * LUT_TEXEL_BYTES as u32),
            rows_per_image: Some(n),
        },
        extent,
    );
    let view = gpu.create_view(&texture, &wgpu::TextureViewDescriptor::default());
    let (min, max) = lut.domain();
    Ok(LutTexture {
        texture,
        view,
        info: LutDomain { size: n, min, max },
    })
}
