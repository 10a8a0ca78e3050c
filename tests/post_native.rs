//! `PostChain` natively (lavapipe): the caller's device, its own HDR and
//! bloom textures, its encoder and its output texture.
#![cfg(not(target_arch = "wasm32"))]

use afterglow::headless::vulkan_gpu;
use afterglow::options::{AlphaMode, CanvasFormat, Options, ToneMapping};
use afterglow::readback::{Image, Readback};
use afterglow::{Error, PostChain};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

#[allow(unused_imports)]
mod common;
use common::*;

const F16_ONE: u16 = 0x3c00;

fn f16(v: f32) -> u16 {
    if v == 0.0 {
        return 0;
    }
    let e = v.log2().floor() as i32;
    (((e + 15) as u16) << 10) | ((v / 2f32.powi(e) - 1.0) * 1024.0).round() as u16
}

/// The caller's rgba16float texture, black but for `pixels`.
fn texture(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    size: u32,
    pixels: &[(u32, u32, f32)],
) -> wgpu::TextureView {
    let t = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("app hdr"),
        size: wgpu::Extent3d {
            width: size,
            height: size,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba16Float,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    let mut data = vec![0u16; (size * size * 4) as usize];
    for &(x, y, v) in pixels {
        let i = ((y * size + x) * 4) as usize;
        data[i..i + 3].fill(f16(v));
        data[i + 3] = F16_ONE;
    }
    queue.write_texture(
        t.as_image_copy(),
        bytemuck_cast(&data),
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(size * 8),
            rows_per_image: None,
        },
        t.size(),
    );
    t.create_view(&Default::default())
}

fn bytemuck_cast(data: &[u16]) -> &[u8] {
    bytemuck::cast_slice(data)
}

fn measuring() -> Options {
    let mut o = Options::PREDICTABLE;
    o.canvas.alpha_mode = AlphaMode::Opaque;
    o.canvas.tone_mapping = ToneMapping::Extended;
    o.canvas.format = CanvasFormat::Rgba16Float;
    o.bloom.enabled = true;
    o.bloom.intensity = 1.0;
    o
}

/// A chain on the app's device with [`measuring`] options, writing linear
/// `Rgba16Float`.
fn measuring_chain(a: &App) -> PostChain {
    PostChain::new(
        &a.gpu.device,
        &a.gpu.queue,
        wgpu::TextureFormat::Rgba16Float,
        &measuring(),
    )
    .unwrap()
}

struct App {
    gpu: afterglow::gpu::Gpu,
    output: wgpu::Texture,
    errors: Arc<AtomicU64>,
}

fn app(size: u32) -> App {
    let gpu = pollster::block_on(vulkan_gpu()).expect("a Vulkan device");
    // The app's own error handler; the chain must leave it in place.
    let errors = Arc::new(AtomicU64::new(0));
    let count = errors.clone();
    gpu.device
        .on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            eprintln!("{e}");
            count.fetch_add(1, Ordering::Relaxed);
        }));
    let output = gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("app output"),
        size: wgpu::Extent3d {
            width: size,
            height: size,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba16Float,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    App {
        gpu,
        output,
        errors,
    }
}

fn render(
    a: &App,
    post: &mut PostChain,
    hdr: &wgpu::TextureView,
    bloom: Option<&wgpu::TextureView>,
) -> Image {
    let view = a.output.create_view(&Default::default());
    let mut encoder = a.gpu.device.create_command_encoder(&Default::default());
    post.render(
        &mut encoder,
        hdr,
        bloom,
        &view,
        wgpu::TextureFormat::Rgba16Float,
    )
    .expect("render");
    let readback = Readback::record(&a.gpu, &mut encoder, &a.output).unwrap();
    a.gpu.queue.submit([encoder.finish()]);
    let img = pollster::block_on(readback.read(&a.gpu.device)).unwrap();
    assert_eq!(a.errors.load(Ordering::Relaxed), 0, "GPU errors");
    img
}

#[test]
fn the_callers_texture_blooms_into_the_callers_output() {
    let a = app(128);
    let mut post = measuring_chain(&a);
    let hdr = texture(&a.gpu.device, &a.gpu.queue, 128, &[(65, 65, 200.0)]);
    let img = render(&a, &mut post, &hdr, None);
    assert!(red(&img, 65, 65) > 1.0);
    check_halo(&img, 65, "PostChain");
    // A smaller texture is scaled to fill the output.
    let small = texture(&a.gpu.device, &a.gpu.queue, 64, &[(32, 32, 200.0)]);
    let img = render(&a, &mut post, &small, None);
    assert!(red(&img, 64, 64) > 1.0, "scaled to fill");
}

#[test]
fn only_the_bloom_views_light_glows() {
    let a = app(128);
    let mut post = measuring_chain(&a);
    let (d, q) = (&a.gpu.device, &a.gpu.queue);
    let scene = texture(d, q, 128, &[(32, 64, 200.0), (96, 64, 200.0)]);
    let emissive = texture(d, q, 128, &[(96, 64, 200.0)]);
    let img = render(&a, &mut post, &scene, Some(&emissive));
    let (unlit, lit) = (red(&img, 26, 64), red(&img, 102, 64));
    assert!(lit > 1e-3, "no halo around the emissive pixel");
    assert!(unlit < 0.05 * lit, "{unlit} vs {lit}");
    let img = render(&a, &mut post, &scene, None);
    let (l, r) = (red(&img, 26, 64), red(&img, 102, 64));
    assert!(l > 1e-3 && (l - r).abs() <= 0.2 * l.max(r), "{l} vs {r}");
}

#[test]
fn bad_formats_and_views_are_refused_by_name() {
    let a = app(16);
    let refused = PostChain::new(
        &a.gpu.device,
        &a.gpu.queue,
        wgpu::TextureFormat::R32Float,
        &Options::default(),
    );
    assert!(
        matches!(refused, Err(Error::Argument(ref e)) if e.argument == "output_format"),
        "{:?}",
        refused.err()
    );
    let mut post = measuring_chain(&a);
    let hdr = texture(&a.gpu.device, &a.gpu.queue, 16, &[]);
    let other = texture(&a.gpu.device, &a.gpu.queue, 8, &[]);
    let view = a.output.create_view(&Default::default());
    let mut encoder = a.gpu.device.create_command_encoder(&Default::default());
    let e = post.render(
        &mut encoder,
        &hdr,
        Some(&other),
        &view,
        wgpu::TextureFormat::Rgba16Float,
    );
    assert!(matches!(e, Err(Error::Argument(ref e)) if e.argument == "bloom"));
    // The output texture itself is not sampleable: refused as an input.
    let e = post.render(
        &mut encoder,
        &view,
        None,
        &view,
        wgpu::TextureFormat::Rgba16Float,
    );
    assert!(matches!(e, Err(Error::Argument(ref e)) if e.argument == "hdr"));
}

/// The look through the Rust API: a table from `.cube` text turns the
/// picture, lens dirt from the program's texture doubles the halo where
/// it is white, and a texture the chain cannot sample is refused by name.
#[test]
fn a_lookup_table_and_lens_dirt_from_the_program() {
    let a = app(64);
    let mut post = measuring_chain(&a);
    let (d, q) = (&a.gpu.device, &a.gpu.queue);
    let hdr = texture(d, q, 64, &[(32, 32, 200.0)]);
    let clean = render(&a, &mut post, &hdr, None);

    // Dirt: all white, as the program's own rgba16float texture.
    let white: Vec<(u32, u32, f32)> = (0..64)
        .flat_map(|y| (0..64).map(move |x| (x, y, 1.0)))
        .collect();
    let dirt = texture(d, q, 64, &white);
    post.set_lens_dirt(Some(&dirt)).unwrap();
    let dirty = render(&a, &mut post, &hdr, None);
    let halo = |img: &Image| srgb_decode(red(img, 40, 32));
    let gain = halo(&dirty) / halo(&clean);
    assert!(
        (1.95..=2.05).contains(&gain),
        "white dirt gave {gain}× the halo"
    );
    // The output texture cannot be sampled: refused, the dirt stays.
    let output_view = a.output.create_view(&Default::default());
    let e = post.set_lens_dirt(Some(&output_view));
    assert!(
        matches!(e, Err(Error::Argument(ref e)) if e.argument == "dirt"),
        "{e:?}"
    );
    assert_eq!(render(&a, &mut post, &hdr, None).data, dirty.data);
    post.set_lens_dirt(None).unwrap();
    assert_eq!(render(&a, &mut post, &hdr, None).data, clean.data);

    // Every colour to the table's one output: green.
    let green = "LUT_3D_SIZE 2\n".to_string() + &"0 1 0\n".repeat(8);
    let lut = afterglow::Lut::from_cube(&green).unwrap();
    post.set_lut(Some(&lut)).unwrap();
    let img = render(&a, &mut post, &hdr, None);
    let p = img.rgba_f32(5, 5);
    assert!(p[0].abs() < 1e-3 && (p[1] - 1.0).abs() < 1e-3, "{p:?}");
    let e = afterglow::Lut::from_cube("LUT_3D_SIZE 2\n0 1\n").unwrap_err();
    assert!(e.to_string().contains("line 2"), "{e}");
}

#[test]
fn resize_before_the_first_frame_builds_nothing() {
    let a = app(64);
    let mut post = measuring_chain(&a);
    let before = post.textures_created();
    post.resize(1920, 1080).unwrap();
    post.resize(64, 64).unwrap();
    assert_eq!(
        post.textures_created(),
        before,
        "targets built before any input"
    );
    let hdr = texture(&a.gpu.device, &a.gpu.queue, 64, &[(32, 32, 200.0)]);
    render(&a, &mut post, &hdr, None);
    let built = post.textures_created();
    assert!(built > before, "the first frame builds its targets");
    // Resizing to the size in use, or rendering again, builds nothing.
    post.resize(64, 64).unwrap();
    render(&a, &mut post, &hdr, None);
    assert_eq!(post.textures_created(), built);
}

/// The caller's scene through two HDR effects, each made as
/// ARCHITECTURE.md's recipe says (`passes::example_effect`): the first
/// reads the caller's texture and writes a target of the chain, the second
/// reads that and writes another; the caller's texture is never a target.
#[test]
fn hdr_effects_over_the_callers_texture_write_only_the_chains_targets() {
    use afterglow::graph::Owner;
    use afterglow::headless::Headless;
    use afterglow::passes::{example_effect, PASSES};
    let gpu = pollster::block_on(vulkan_gpu()).expect("a Vulkan device");
    let mut options = measuring();
    options.bloom.enabled = false;
    let output = afterglow::output::OutputSpec::new(
        wgpu::TextureFormat::Rgba16Float,
        AlphaMode::Opaque,
        ToneMapping::Extended,
        Default::default(),
    )
    .unwrap();
    let mut passes = PASSES.to_vec();
    passes.extend([&example_effect::PASS, &example_effect::PASS]);
    let mut h = Headless::with_passes(gpu, output, options, (32, 32), &passes).unwrap();
    let input = |h: &Headless| {
        let view = texture(&h.gpu.device, &h.gpu.queue, 32, &[(10, 12, 0.25)]);
        afterglow::Content::Texture(afterglow::chain::ExternalInput {
            scene: view,
            bloom: None,
            size: (32, 32),
            formats: (wgpu::TextureFormat::Rgba16Float, None),
        })
    };
    h.set_content(input(&h)).unwrap();
    let graph = h.chain.graph().expect("a frame");
    let effects: Vec<_> = graph
        .passes
        .iter()
        .filter(|p| p.name == "example effect")
        .collect();
    assert_eq!(effects.len(), 2);
    for pass in &graph.passes {
        for c in &pass.colors {
            let owner = graph.textures[c.view.texture].owner;
            assert_ne!(
                owner,
                Owner::Caller,
                "{} renders into the caller's texture",
                pass.name
            );
        }
    }
    let img = pollster::block_on(h.render_and_read(0.0)).unwrap();
    assert_eq!(h.gpu.error_count(), 0, "{:?}", h.gpu.last_error());
    let lit = red(&img, 10, 12);
    assert!((lit - 1.0).abs() < 0.01, "0.25 doubled twice: {lit}");
    assert_eq!(red(&img, 20, 20), 0.0);

    // An effect that renders into the image it was handed instead of the
    // one swap_hdr gives it: refused by the graph, naming the texture.
    let gpu = pollster::block_on(vulkan_gpu()).expect("a Vulkan device");
    let mut passes = PASSES.to_vec();
    passes.push(&example_effect::CARELESS);
    let mut h = Headless::with_passes(gpu, output, options, (32, 32), &passes).unwrap();
    match h.set_content(input(&h)) {
        Err(afterglow::error::Error::Graph(e)) => {
            assert_eq!(e.attachment, "scene texture");
            assert!(e.message.contains("caller owns"), "{}", e.message);
        }
        other => panic!("expected a GraphError, got {other:?}"),
    }
    assert_eq!(h.gpu.error_count(), 0, "refused before the GPU saw it");
}
