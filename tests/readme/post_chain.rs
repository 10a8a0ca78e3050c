// What surrounds the Rust snippet of the README's "Quick start: Rust with
// wgpu" section in its doc test (build.rs puts the snippet in place of
// the `README` line and hides these lines). A wgpu program of its own: a
// Vulkan device (lavapipe where there is no GPU), an HDR scene with two
// bright texels, an emissive texture holding only the right one, and an
// 8-bit sRGB texture standing in for the surface. After the snippet: the
// right texel has a halo, the left one (bright in the scene only) has none,
// and the device reported no errors.
use afterglow::wgpu;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

const SIZE: u32 = 64;
const LEFT: (u32, u32) = (20, 32);
const RIGHT: (u32, u32) = (44, 32);

fn hdr_texture(device: &wgpu::Device, queue: &wgpu::Queue, lit: &[(u32, u32)]) -> wgpu::TextureView {
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("program hdr"),
        size: wgpu::Extent3d { width: SIZE, height: SIZE, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba16Float,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    // Half floats: 32.0 for a lit texel's colour, 1.0 for its alpha.
    let mut texels = vec![0u16; (SIZE * SIZE * 4) as usize];
    for &(x, y) in lit {
        let i = ((y * SIZE + x) * 4) as usize;
        texels[i..i + 4].copy_from_slice(&[0x5000, 0x5000, 0x5000, 0x3c00]);
    }
    let bytes: Vec<u8> = texels.iter().flat_map(|t| t.to_le_bytes()).collect();
    queue.write_texture(
        texture.as_image_copy(),
        &bytes,
        wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(SIZE * 8), rows_per_image: None },
        texture.size(),
    );
    texture.create_view(&Default::default())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::VULKAN,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let adapter = pollster::block_on(instance.request_adapter(&Default::default()))?;
    let (device, queue) = pollster::block_on(adapter.request_device(&Default::default()))?;
    let errors = Arc::new(AtomicU64::new(0));
    let count = errors.clone();
    device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
        eprintln!("{e}");
        count.fetch_add(1, Ordering::Relaxed);
    }));
    let hdr_view = hdr_texture(&device, &queue, &[LEFT, RIGHT]);
    let emissive_view = hdr_texture(&device, &queue, &[RIGHT]);
    let surface_format = wgpu::TextureFormat::Rgba8UnormSrgb;
    let surface = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("program surface"),
        size: wgpu::Extent3d { width: SIZE, height: SIZE, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: surface_format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let surface_view = surface.create_view(&Default::default());
// README
    // The surface's pixels.
    let row = (SIZE * 4).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: (row * SIZE) as u64,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.copy_texture_to_buffer(
        surface.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(row), rows_per_image: None },
        },
        surface.size(),
    );
    queue.submit([encoder.finish()]);
    buffer.slice(..).map_async(wgpu::MapMode::Read, |r| r.expect("mapped"));
    device.poll(wgpu::PollType::wait_indefinitely())?;
    let pixels = buffer.slice(..).get_mapped_range()?.to_vec();
    let red = |x: u32, y: u32| pixels[(y * row + x * 4) as usize];
    // Four texels beside each lit texel: the emissive one glows, the other
    // is as dark as a corner of the frame.
    let (glow, none, corner) = (red(RIGHT.0 + 4, RIGHT.1), red(LEFT.0 - 4, LEFT.1), red(2, 2));
    eprintln!("red beside the emissive texel {glow}, beside the scene-only texel {none}, corner {corner}");
    assert!(red(LEFT.0, LEFT.1) > 200 && red(RIGHT.0, RIGHT.1) > 200, "both texels are shown");
    assert!(glow > corner + 20, "no halo around the emissive texel");
    assert!(none <= corner + 2, "the scene-only texel glows");
    assert_eq!(errors.load(Ordering::Relaxed), 0, "GPU errors");
    Ok(())
}
