//! `PostChain` as a wgpu program outside the crate uses it, written from the
//! Rust guide (docs/rust.md) alone: only the public API (`afterglow::wgpu`,
//! `PostChain`, `Options` and its enums, `Error`), its own device, its own
//! HDR and emissive textures, its own encoder and submit, on lavapipe.
//! `tests/structure.rs` holds this file to the public names.
#![cfg(not(target_arch = "wasm32"))]

use afterglow::wgpu;
use afterglow::{BlurMode, Error, Options, PostChain, Tonemapper};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

const HDR: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
const OUT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// The program: a device whose error handler and device-lost callback are
/// its own.
struct Program {
    device: wgpu::Device,
    queue: wgpu::Queue,
    errors: Arc<AtomicU64>,
    lost: Arc<AtomicBool>,
}

fn program() -> Program {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::VULKAN,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let adapter = pollster::block_on(instance.request_adapter(&Default::default()))
        .expect("a Vulkan adapter (lavapipe)");
    let (device, queue) =
        pollster::block_on(adapter.request_device(&Default::default())).expect("a device");
    let errors = Arc::new(AtomicU64::new(0));
    let count = errors.clone();
    device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
        eprintln!("{e}");
        count.fetch_add(1, Ordering::Relaxed);
    }));
    let lost = Arc::new(AtomicBool::new(false));
    let flag = lost.clone();
    device.set_device_lost_callback(move |_, _| flag.store(true, Ordering::Relaxed));
    Program {
        device,
        queue,
        errors,
        lost,
    }
}

impl Program {
    fn texture(
        &self,
        size: u32,
        format: wgpu::TextureFormat,
        usage: wgpu::TextureUsages,
    ) -> wgpu::Texture {
        self.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("program texture"),
            size: wgpu::Extent3d {
                width: size,
                height: size,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage,
            view_formats: &[],
        })
    }

    /// An `Rgba16Float` scene, black but for one texel of radiance 32 at
    /// (`x`, `y`).
    fn scene(&self, size: u32, x: u32, y: u32) -> wgpu::TextureView {
        let mut texels = vec![0u16; (size * size * 4) as usize];
        let i = ((y * size + x) * 4) as usize;
        texels[i..i + 4].copy_from_slice(&[0x5000, 0x5000, 0x5000, 0x3c00]);
        self.hdr_texture(size, &texels)
    }

    /// An `Rgba16Float` scene of one grey, `half` (an f16's bits).
    fn grey(&self, size: u32, half: u16) -> wgpu::TextureView {
        let texel = [half, half, half, 0x3c00];
        self.hdr_texture(size, &texel.repeat((size * size) as usize))
    }

    fn hdr_texture(&self, size: u32, texels: &[u16]) -> wgpu::TextureView {
        let usage = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST;
        let t = self.texture(size, HDR, usage);
        let bytes: Vec<u8> = texels.iter().flat_map(|t| t.to_le_bytes()).collect();
        self.queue.write_texture(
            t.as_image_copy(),
            &bytes,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(size * 8),
                rows_per_image: None,
            },
            t.size(),
        );
        t.create_view(&Default::default())
    }

    fn output(&self, size: u32) -> wgpu::Texture {
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
        self.texture(size, OUT, usage)
    }

    /// Copies `output` (8-bit RGBA) out after `encoder`'s work, submits
    /// both, and returns the red channel of every pixel.
    fn submit_and_read(
        &self,
        mut encoder: wgpu::CommandEncoder,
        output: &wgpu::Texture,
    ) -> Vec<u8> {
        let size = output.width();
        let row = (size * 4).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
            * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("program readback"),
            size: (row * output.height()) as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        encoder.copy_texture_to_buffer(
            output.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(row),
                    rows_per_image: None,
                },
            },
            output.size(),
        );
        self.queue.submit([encoder.finish()]);
        buffer
            .slice(..)
            .map_async(wgpu::MapMode::Read, |r| r.expect("mapped"));
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("the GPU finished");
        let data = buffer
            .slice(..)
            .get_mapped_range()
            .expect("the mapped range");
        let mut red = Vec::new();
        for y in 0..output.height() {
            for x in 0..size {
                red.push(data[(y * row + x * 4) as usize]);
            }
        }
        red
    }

    fn assert_no_gpu_errors(&self) {
        assert_eq!(self.errors.load(Ordering::Relaxed), 0, "GPU errors");
    }
}

fn glowing() -> Options {
    let mut o = Options::default();
    o.bloom.intensity = 1.0;
    o.tonemapper = Tonemapper::Aces;
    o
}

/// Two images are the same, or the first pixel where they differ.
fn same(a: &[u8], b: &[u8], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: sizes");
    if let Some(i) = (0..a.len()).find(|&i| a[i] != b[i]) {
        panic!("{what}: pixel {i} is {} and {}", a[i], b[i]);
    }
}

/// The red value at `(x, y)` of a square image.
fn at(red: &[u8], size: u32, x: u32, y: u32) -> u8 {
    red[(y * size + x) as usize]
}

#[test]
fn the_light_glows_in_the_programs_own_output() {
    let p = program();
    let mut post = PostChain::new(&p.device, &p.queue, OUT, &glowing()).unwrap();
    let (scene, out) = (p.scene(64, 32, 32), p.output(64));
    let mut encoder = p.device.create_command_encoder(&Default::default());
    let view = out.create_view(&Default::default());
    post.render(&mut encoder, &scene, None, &view, OUT).unwrap();
    let red = p.submit_and_read(encoder, &out);
    assert!(at(&red, 64, 32, 32) > 200, "the light itself");
    assert!(
        at(&red, 64, 38, 32) > 10,
        "a halo 6 px away: {}",
        at(&red, 64, 38, 32)
    );
    assert_eq!(at(&red, 64, 2, 2), 0, "black far away");
    p.assert_no_gpu_errors();
}

/// One frame through a fresh chain with `options`, for comparing.
fn reference(p: &Program, options: &Options, scene: &wgpu::TextureView, size: u32) -> Vec<u8> {
    let out = p.output(size);
    let mut post = PostChain::new(&p.device, &p.queue, OUT, options).unwrap();
    let mut encoder = p.device.create_command_encoder(&Default::default());
    post.render(
        &mut encoder,
        scene,
        None,
        &out.create_view(&Default::default()),
        OUT,
    )
    .unwrap();
    p.submit_and_read(encoder, &out)
}

/// Replaced textures live until the program submits, and a frame recorded
/// before a change that rebuilds the chain is submitted as recorded: a
/// reshaping option change, a second frame at another input size into the
/// same encoder, and dropping the chain, each between `render` and
/// `queue.submit`.
#[test]
fn frames_recorded_before_a_change_are_submitted_as_recorded() {
    let p = program();
    let out = p.output(64);
    let view = out.create_view(&Default::default());
    let (scene, small) = (p.scene(64, 32, 32), p.scene(32, 16, 16));
    let before = reference(&p, &glowing(), &scene, 64);
    assert!(at(&before, 64, 38, 32) > 10, "a halo");
    let mut post = PostChain::new(&p.device, &p.queue, OUT, &glowing()).unwrap();

    for change in [
        |o: &mut Options| o.bloom.blur = BlurMode::Gaussian,
        |o: &mut Options| o.bloom.levels = 3,
    ] {
        post.set_options(&glowing()).unwrap();
        let mut encoder = p.device.create_command_encoder(&Default::default());
        post.render(&mut encoder, &scene, None, &view, OUT).unwrap();
        let mut o = *post.options();
        change(&mut o);
        post.set_options(&o).unwrap();
        let red = p.submit_and_read(encoder, &out);
        same(
            &red,
            &before,
            "the frame recorded before the change, as recorded",
        );
        p.assert_no_gpu_errors();
    }

    post.set_options(&glowing()).unwrap();
    let out_small = p.output(32);
    let mut encoder = p.device.create_command_encoder(&Default::default());
    post.render(&mut encoder, &scene, None, &view, OUT).unwrap();
    post.render(
        &mut encoder,
        &small,
        None,
        &out_small.create_view(&Default::default()),
        OUT,
    )
    .unwrap();
    let second = p.submit_and_read(encoder, &out_small);
    same(
        &p.submit_and_read(p.device.create_command_encoder(&Default::default()), &out),
        &before,
        "the first of two frames in one encoder",
    );
    same(
        &second,
        &reference(&p, &glowing(), &small, 32),
        "the second",
    );
    p.assert_no_gpu_errors();

    let mut encoder = p.device.create_command_encoder(&Default::default());
    post.render(&mut encoder, &scene, None, &view, OUT).unwrap();
    drop(post);
    same(
        &p.submit_and_read(encoder, &out),
        &before,
        "recorded by a chain dropped since",
    );
    p.assert_no_gpu_errors();
}

/// `Extended` with an `Rgba16Float` output: values above 1 come out (the
/// output format stands for the canvas's; `canvas.format` need not say it).
#[test]
fn extended_output_needs_only_a_float_output() {
    let p = program();
    let float = wgpu::TextureFormat::Rgba16Float;
    let mut o = glowing();
    o.canvas.tone_mapping = afterglow::ToneMapping::Extended;
    o.canvas.headroom = 4.0;
    let mut post = PostChain::new(&p.device, &p.queue, float, &o).unwrap();
    let out = p.texture(16, float, wgpu::TextureUsages::RENDER_ATTACHMENT);
    let mut encoder = p.device.create_command_encoder(&Default::default());
    post.render(
        &mut encoder,
        &p.scene(16, 8, 8),
        None,
        &out.create_view(&Default::default()),
        float,
    )
    .unwrap();
    p.queue.submit([encoder.finish()]);
    p.assert_no_gpu_errors();
    // On an 8-bit output the same options are refused, naming the option.
    match PostChain::new(&p.device, &p.queue, OUT, &o) {
        Err(Error::Option(e)) => assert_eq!(e.field, "canvas.toneMapping"),
        other => panic!("expected an option error, got {:?}", other.map(|_| ())),
    }
}

/// With auto exposure on, `exposure_ev` arrives a few frames late from the
/// program's own submits and polls: a grey of 0.5 is metered to mid grey
/// (log2(0.18 / 0.5) = −1.47 EV). An encoder dropped without a submit
/// leaves the read back working for the next frames.
#[test]
fn the_exposure_in_use_reaches_the_program() {
    let p = program();
    let mut o = glowing();
    o.auto_exposure.enabled = true;
    let mut post = PostChain::new(&p.device, &p.queue, OUT, &o).unwrap();
    assert_eq!(post.exposure_ev(), None, "before any frame");
    let scene = p.grey(32, 0x3800);
    let out = p.output(32);
    let view = out.create_view(&Default::default());
    let mut ev = None;
    for frame in 0..5 {
        let mut encoder = p.device.create_command_encoder(&Default::default());
        post.render(&mut encoder, &scene, None, &view, OUT).unwrap();
        if frame == 0 {
            // Dropped unsubmitted; the next frame jumps to the target.
            drop(encoder);
            post.reset_exposure();
            continue;
        }
        p.queue.submit([encoder.finish()]);
        let _ = p.device.poll(wgpu::PollType::wait_indefinitely());
        ev = post.exposure_ev().or(ev);
    }
    let expected = (0.18f64 / 0.5).log2();
    match ev {
        Some(ev) => assert!((ev - expected).abs() < 0.1, "{ev} EV, expected {expected}"),
        None => panic!("no exposure read back after four submitted frames"),
    }
    o.auto_exposure.enabled = false;
    post.set_options(&o).unwrap();
    assert_eq!(post.exposure_ev(), None, "with auto exposure off");
    p.assert_no_gpu_errors();
}

#[test]
fn the_programs_device_callbacks_stay_its_own() {
    let p = program();
    let post = PostChain::new(&p.device, &p.queue, OUT, &glowing()).unwrap();
    p.device.destroy();
    let _ = p.device.poll(wgpu::PollType::wait_indefinitely());
    assert!(
        p.lost.load(Ordering::Relaxed),
        "the program's device-lost callback was replaced"
    );
    drop(post);
}

fn argument(e: Result<(), Error>) -> String {
    match e {
        Err(Error::Argument(a)) => a.argument,
        other => panic!("expected an argument error, got {other:?}"),
    }
}

#[test]
fn unusable_outputs_and_sizes_are_refused_before_wgpu_sees_them() {
    let p = program();
    let mut post = PostChain::new(&p.device, &p.queue, OUT, &glowing()).unwrap();
    let scene = p.scene(16, 8, 8);
    let mut encoder = p.device.create_command_encoder(&Default::default());

    let sampled_only = p.texture(16, OUT, wgpu::TextureUsages::TEXTURE_BINDING);
    let view = sampled_only.create_view(&Default::default());
    let e = post.render(&mut encoder, &scene, None, &view, OUT);
    assert_eq!(argument(e), "output", "no RENDER_ATTACHMENT");

    // A chain made for -srgb views, handed a view without the suffix.
    let linear = wgpu::TextureFormat::Rgba8Unorm;
    let out = p.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("program output with a linear view"),
        size: wgpu::Extent3d {
            width: 16,
            height: 16,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: OUT,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[linear],
    });
    let linear_view = out.create_view(&wgpu::TextureViewDescriptor {
        format: Some(linear),
        ..Default::default()
    });
    let e = post.render(&mut encoder, &scene, None, &linear_view, linear);
    assert_eq!(argument(e), "output_format");
    // An output texture with no view of the chain's format.
    let float_out = p.texture(16, HDR, wgpu::TextureUsages::RENDER_ATTACHMENT);
    let e = post.render(
        &mut encoder,
        &scene,
        None,
        &float_out.create_view(&Default::default()),
        OUT,
    );
    assert_eq!(argument(e), "output");

    // One texture as input and output: the chain would sample what it
    // writes.
    let mut float_post = PostChain::new(&p.device, &p.queue, HDR, &glowing()).unwrap();
    let both = p.texture(
        16,
        HDR,
        wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
    );
    let both = both.create_view(&Default::default());
    let e = float_post.render(&mut encoder, &both, None, &both, HDR);
    assert_eq!(argument(e), "output", "hdr is the output");
    let e = float_post.render(&mut encoder, &scene, Some(&both), &both, HDR);
    assert_eq!(argument(e), "output", "bloom is the output");

    let max = p.device.limits().max_texture_dimension_2d;
    assert_eq!(argument(post.resize(max + 1, 16)), "width");
    assert_eq!(argument(post.resize(16, max + 1)), "height");
    assert_eq!(argument(post.resize(u32::MAX, u32::MAX)), "width");
    post.resize(16, 16).unwrap();
    post.resize(0, 0).unwrap();

    // Still a working chain, and nothing reached the device's handler.
    let view = out.create_view(&Default::default());
    post.render(&mut encoder, &scene, None, &view, OUT).unwrap();
    let red = p.submit_and_read(encoder, &out);
    assert!(at(&red, 16, 8, 8) > 200);
    p.assert_no_gpu_errors();
}

#[test]
fn options_out_of_range_are_refused_by_path() {
    let p = program();
    type Set = fn(&mut Options);
    let bad: [(&str, Set); 10] = [
        ("bloom.intensity", |o| o.bloom.intensity = f64::NAN),
        ("bloom.intensity", |o| o.bloom.intensity = -1.0),
        ("exposure", |o| o.exposure = 0.0),
        ("exposure", |o| o.exposure = f64::INFINITY),
        ("bloom.levels", |o| o.bloom.levels = 0),
        ("bloom.levels", |o| o.bloom.levels = 1000),
        ("bloom.threshold", |o| o.bloom.threshold = -0.5),
        ("bloom.knee", |o| o.bloom.knee = f64::NAN),
        ("bloom.radius", |o| o.bloom.radius = 1e9),
        ("bloom.iterations", |o| o.bloom.iterations = 0),
    ];
    let mut post = PostChain::new(&p.device, &p.queue, OUT, &glowing()).unwrap();
    for (path, set) in bad {
        let mut o = glowing();
        set(&mut o);
        for result in [
            PostChain::new(&p.device, &p.queue, OUT, &o).map(drop),
            post.set_options(&o),
        ] {
            match result {
                Err(Error::Option(e)) => assert_eq!(e.field, path),
                other => panic!("{path}: expected an option error, got {other:?}"),
            }
        }
        assert_eq!(
            *post.options(),
            glowing(),
            "a refused change keeps the options"
        );
    }
    p.assert_no_gpu_errors();
}

#[test]
fn errors_are_std_errors_with_their_cause() {
    let p = program();
    let mut o = Options::default();
    o.exposure = f64::NAN;
    let e = PostChain::new(&p.device, &p.queue, OUT, &o)
        .map(drop)
        .unwrap_err();
    let source = std::error::Error::source(&e).expect("a source");
    assert!(source.to_string().contains("exposure"), "{source}");
    assert!(e.to_string().contains("exposure"), "{e}");
}

#[test]
fn a_chain_moves_and_is_shared_across_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<PostChain>();
    send_sync::<Error>();
    let p = program();
    let post = PostChain::new(&p.device, &p.queue, OUT, &glowing()).unwrap();
    let options = std::thread::spawn(move || *post.options()).join().unwrap();
    assert_eq!(options, glowing());
}
