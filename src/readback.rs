//! Copying a rendered texture to a buffer and reading it on the CPU: the
//! ground truth for image tests, and the basis of screenshots.

use std::sync::{Arc, Mutex};

use crate::error::Error;
use crate::gpu::Gpu;

/// Pixels read back from the GPU, rows tightly packed, in the texture's own
/// format and channel order.
#[derive(Clone, Debug)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    pub format: wgpu::TextureFormat,
    pub data: Vec<u8>,
}

impl Image {
    fn bytes_per_pixel(&self) -> usize {
        self.format.block_copy_size(None).unwrap_or(4) as usize
    }

    fn texel(&self, x: u32, y: u32) -> &[u8] {
        let bpp = self.bytes_per_pixel();
        let i = (y as usize * self.width as usize + x as usize) * bpp;
        &self.data[i..i + bpp]
    }

    /// An 8-bit pixel as RGBA, whatever the channel order of the format.
    /// Float formats are converted with rounding after clamping to [0, 1].
    pub fn rgba8(&self, x: u32, y: u32) -> [u8; 4] {
        let t = self.texel(x, y);
        match self.format {
            wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb => {
                [t[2], t[1], t[0], t[3]]
            }
            wgpu::TextureFormat::Rgba16Float => self
                .rgba_f32(x, y)
                .map(|v| (v.clamp(0.0, 1.0) * 255.0 + 0.5) as u8),
            _ => [t[0], t[1], t[2], t[3]],
        }
    }

    /// The image as straight-alpha RGBA8 (what a PNG holds): channels in
    /// RGBA order, floats clamped, and premultiplied colour divided by alpha
    /// when `premultiplied`.
    pub fn to_straight_rgba8(&self, premultiplied: bool) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.width as usize * self.height as usize * 4);
        for y in 0..self.height {
            for x in 0..self.width {
                let mut p = self.rgba8(x, y);
                if premultiplied && p[3] > 0 && p[3] < 255 {
                    for c in 0..3 {
                        p[c] = ((p[c] as u32 * 255 + p[3] as u32 / 2) / p[3] as u32).min(255) as u8;
                    }
                }
                out.extend_from_slice(&p);
            }
        }
        out
    }

    /// A pixel as floats: exact for `rgba16float`, `/255` for 8-bit formats.
    pub fn rgba_f32(&self, x: u32, y: u32) -> [f32; 4] {
        if self.format == wgpu::TextureFormat::Rgba16Float {
            let t = self.texel(x, y);
            let h = |i: usize| f16_to_f32(u16::from_le_bytes([t[2 * i], t[2 * i + 1]]));
            [h(0), h(1), h(2), h(3)]
        } else {
            self.rgba8(x, y).map(|v| v as f32 / 255.0)
        }
    }
}

/// IEEE 754 half to single precision.
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = ((h >> 10) & 0x1f) as i32;
    let mant = (h & 0x3ff) as f32;
    match exp {
        0 => sign * mant * 2f32.powi(-24),
        31 => {
            if mant == 0.0 {
                sign * f32::INFINITY
            } else {
                f32::NAN
            }
        }
        _ => sign * (1.0 + mant / 1024.0) * 2f32.powi(exp - 15),
    }
}

/// A copy recorded into a frame's encoder, to be read after submission.
pub struct Readback {
    buffer: wgpu::Buffer,
    width: u32,
    height: u32,
    padded_row: u32,
    format: wgpu::TextureFormat,
}

impl Readback {
    /// Records a copy of mip 0 of `texture` (which needs `COPY_SRC`).
    pub fn record(
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        texture: &wgpu::Texture,
    ) -> Result<Readback, Error> {
        let format = texture.format();
        let (width, height) = (texture.width(), texture.height());
        let bpp = format.block_copy_size(None).unwrap_or(4);
        let padded_row = (width * bpp).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
            * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let bytes = padded_row as u64 * height as u64;
        if bytes > gpu.limits.max_buffer_size {
            return Err(Error::Readback(format!(
                "a {width}×{height} frame needs a {bytes}-byte buffer; this device allows {}",
                gpu.limits.max_buffer_size
            )));
        }
        let buffer = gpu.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback buffer"),
            size: padded_row as u64 * height as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        encoder.copy_texture_to_buffer(
            texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded_row),
                    rows_per_image: Some(height),
                },
            },
            wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
        );
        Ok(Readback {
            buffer,
            width,
            height,
            padded_row,
            format,
        })
    }

    /// Waits for the copy (submitted by now) and returns the pixels.
    pub async fn read(self, device: &wgpu::Device) -> Result<Image, Error> {
        let result: Arc<Mutex<Option<Result<(), wgpu::BufferAsyncError>>>> = Arc::default();
        let slice = self.buffer.slice(..);
        #[cfg(not(target_arch = "wasm32"))]
        {
            let slot = result.clone();
            slice.map_async(wgpu::MapMode::Read, move |r| {
                if let Ok(mut s) = slot.lock() {
                    *s = Some(r);
                }
            });
            device
                .poll(wgpu::PollType::wait_indefinitely())
                .map_err(|e| Error::Readback(e.to_string()))?;
        }
        #[cfg(target_arch = "wasm32")]
        {
            let _ = device;
            let mut resolve_fn: Option<js_sys::Function> = None;
            let promise = js_sys::Promise::new(&mut |resolve, _reject| resolve_fn = Some(resolve));
            let slot = result.clone();
            slice.map_async(wgpu::MapMode::Read, move |r| {
                if let Ok(mut s) = slot.lock() {
                    *s = Some(r);
                }
                if let Some(resolve) = resolve_fn {
                    let _ = resolve.call0(&wasm_bindgen::JsValue::UNDEFINED);
                }
            });
            let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
        }
        let outcome = result.lock().ok().and_then(|mut s| s.take());
        match outcome {
            Some(Ok(())) => {}
            Some(Err(e)) => return Err(Error::Readback(e.to_string())),
            None => return Err(Error::Readback("the buffer was never mapped".into())),
        }
        let bpp = self.format.block_copy_size(None).unwrap_or(4) as usize;
        let row = self.width as usize * bpp;
        let mut data = Vec::with_capacity(row * self.height as usize);
        {
            let mapped = slice
                .get_mapped_range()
                .map_err(|e| Error::Readback(e.to_string()))?;
            for y in 0..self.height as usize {
                let start = y * self.padded_row as usize;
                data.extend_from_slice(&mapped[start..start + row]);
            }
        }
        self.buffer.unmap();
        self.buffer.destroy();
        Ok(Image {
            width: self.width,
            height: self.height,
            format: self.format,
            data,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::f16_to_f32;

    #[test]
    fn straight_alpha_conversion() {
        let img = super::Image {
            width: 2,
            height: 1,
            format: wgpu::TextureFormat::Bgra8Unorm,
            data: vec![10, 20, 30, 255, 32, 64, 64, 128],
        };
        assert_eq!(
            img.to_straight_rgba8(false),
            vec![30, 20, 10, 255, 64, 64, 32, 128]
        );
        assert_eq!(
            img.to_straight_rgba8(true),
            vec![30, 20, 10, 255, 128, 128, 64, 128]
        );
    }

    #[test]
    fn half_floats() {
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0x3800), 0.5);
        assert_eq!(f16_to_f32(0xc000), -2.0);
        assert_eq!(f16_to_f32(0x0000), 0.0);
        assert!(f16_to_f32(0x7e00).is_nan());
        assert_eq!(f16_to_f32(0x7c00), f32::INFINITY);
        assert_eq!(f16_to_f32(0x0001), 2f32.powi(-24));
    }
}

/// Results read back every frame without ever stalling one: a frame copies
/// into a mappable buffer when it is free and asks wgpu to map it once the
/// encoder is submitted (by the chain, or by the program under
/// `PostChain`), and a later frame takes the bytes. While a mapping is
/// pending, frames copy nothing. Per-pass GPU timing and auto exposure's EV
/// both read back this way.
pub struct StagedReadback {
    buffer: wgpu::Buffer,
    shared: Arc<Mutex<Staged>>,
}

#[derive(Default)]
struct Staged {
    /// The buffer is mapped or being mapped: do not copy into it.
    busy: bool,
    /// Set by the map callback.
    mapped: bool,
    failed: bool,
}

/// The map callback's hold on the shared state. An encoder dropped
/// without a submit drops its pending mapping, callback and all: the
/// buffer is then free again for the next frame's copy.
struct Pending(Option<Arc<Mutex<Staged>>>);

impl Pending {
    fn finish(mut self, ok: bool) {
        if let Some(shared) = self.0.take() {
            if let Ok(mut s) = shared.lock() {
                s.mapped = ok;
                s.failed = !ok;
            }
        }
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if let Some(shared) = self.0.take() {
            if let Ok(mut s) = shared.lock() {
                s.busy = false;
            }
        }
    }
}

impl StagedReadback {
    pub fn new(gpu: &Gpu, label: &str, size: u64) -> StagedReadback {
        StagedReadback {
            buffer: gpu.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
                mapped_at_creation: false,
            }),
            shared: Arc::default(),
        }
    }

    /// Records a copy of the buffer's size from `source` if it is free,
    /// and its mapping after `encoder` is submitted.
    pub fn copy(&self, encoder: &mut wgpu::CommandEncoder, source: &wgpu::Buffer) {
        let Ok(mut s) = self.shared.lock() else {
            return;
        };
        if s.busy {
            return;
        }
        s.busy = true;
        drop(s);
        encoder.copy_buffer_to_buffer(source, 0, &self.buffer, 0, self.buffer.size());
        let pending = Pending(Some(self.shared.clone()));
        encoder.map_buffer_on_submit(&self.buffer, wgpu::MapMode::Read, .., move |r| {
            pending.finish(r.is_ok())
        });
    }

    /// The bytes of a finished mapping, if one has arrived, freeing the
    /// buffer for the next copy.
    pub fn take(&self) -> Option<Vec<u8>> {
        let (mapped, failed) = match self.shared.lock() {
            Ok(s) => (s.mapped, s.failed),
            Err(_) => return None,
        };
        if !mapped && !failed {
            return None;
        }
        // A failed mapping is kept by wgpu until unmap: free it for the next.
        let bytes = if mapped {
            self.buffer
                .slice(..)
                .get_mapped_range()
                .ok()
                .map(|v| v.to_vec())
        } else {
            None
        };
        self.buffer.unmap();
        if let Ok(mut s) = self.shared.lock() {
            *s = Staged::default();
        }
        bytes
    }
}

/// A buffer still being mapped is left to finish, so its pending map is
/// not aborted; otherwise it is returned at once.
impl Drop for StagedReadback {
    fn drop(&mut self) {
        let busy = self.shared.lock().map(|s| s.busy).unwrap_or(true);
        if !busy {
            self.buffer.destroy();
        }
    }
}
