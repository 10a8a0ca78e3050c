//! Depth of field natively (lavapipe), through `PostChain` as a program
//! that renders its own colour and depth hands them over: the circle of
//! confusion against a CPU model of the thin lens (through
//! `debug: 'coc'`), stripes at two depths, a sharp edge over a blurred
//! field, bokeh, the arguments refused by name, and that with depth of
//! field off nothing changes.

use crate::headless::vulkan_gpu;
use crate::options::{CanvasFormat, DebugView, Options, ToneMapping};
use crate::readback::{Image, Readback};
use crate::{Camera, Depth, DepthOfFieldState, Error, Output, PostChain};

/// A program's device, its output (linear light in `Rgba16Float`, read
/// back as it is) and a chain.
pub(super) struct Rig {
    pub(super) gpu: crate::gpu::Gpu,
    size: (u32, u32),
    pub(super) output: wgpu::Texture,
    pub(super) post: PostChain,
}

/// Options under which the output is the scene's light as it is: no
/// curve, no bloom, linear output.
fn linear(enabled: bool) -> Options {
    let mut o = crate::options::PREDICTABLE;
    o.canvas.format = CanvasFormat::Rgba16Float;
    o.canvas.tone_mapping = ToneMapping::Extended;
    o.depth_of_field.enabled = enabled;
    o
}

pub(super) fn rig(size: (u32, u32), options: &Options) -> Rig {
    let gpu = pollster::block_on(vulkan_gpu()).expect("a Vulkan device");
    rig_on(gpu, size, options)
}

fn rig_on(gpu: crate::gpu::Gpu, size: (u32, u32), options: &Options) -> Rig {
    let output = gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("app output"),
        size: extent(size),
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba16Float,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let out = Output::new(wgpu::TextureFormat::Rgba16Float)
        .with_color_space(wgpu::SurfaceColorSpace::ExtendedSrgbLinear);
    let post = PostChain::with_output(&gpu.device, &gpu.queue, out, options).expect("a chain");
    Rig {
        gpu,
        size,
        output,
        post,
    }
}

fn extent(size: (u32, u32)) -> wgpu::Extent3d {
    wgpu::Extent3d {
        width: size.0,
        height: size.1,
        depth_or_array_layers: 1,
    }
}

/// IEEE 754 single to half precision, rounded to nearest (normal values;
/// smaller ones flush to 0).
fn f16(v: f32) -> u16 {
    let b = v.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    if exp <= 0 {
        return sign;
    }
    let rounded = (b & 0x7f_ffff) + 0x1000;
    let (exp, man) = if rounded & 0x80_0000 != 0 {
        (exp + 1, 0)
    } else {
        (exp, rounded >> 13)
    };
    sign | ((exp.min(30) as u16) << 10) | man as u16
}

/// A texture of `format` filled with `bytes`, row by row.
fn upload(r: &Rig, label: &str, format: wgpu::TextureFormat, bytes: &[u8]) -> wgpu::Texture {
    let t = r.gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: extent(r.size),
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    let bpp = format.block_copy_size(None).unwrap_or(4);
    r.gpu.queue.write_texture(
        t.as_image_copy(),
        bytes,
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(r.size.0 * bpp),
            rows_per_image: None,
        },
        t.size(),
    );
    t
}

fn texels(size: (u32, u32)) -> impl Iterator<Item = (u32, u32)> {
    (0..size.1).flat_map(move |y| (0..size.0).map(move |x| (x, y)))
}

/// The program's scene: grey light `f(x, y)`, opaque.
pub(super) fn colour(r: &Rig, f: impl Fn(u32, u32) -> f32) -> wgpu::TextureView {
    let data: Vec<u16> = texels(r.size)
        .flat_map(|(x, y)| {
            let v = f16(f(x, y));
            [v, v, v, f16(1.0)]
        })
        .collect();
    let t = upload(
        r,
        "app scene",
        wgpu::TextureFormat::Rgba16Float,
        bytemuck::cast_slice(&data),
    );
    t.create_view(&Default::default())
}

/// Linear distance `z(x, y)` in an `R32Float` texture.
fn distances(r: &Rig, z: impl Fn(u32, u32) -> f32) -> wgpu::TextureView {
    let data: Vec<f32> = texels(r.size).map(|(x, y)| z(x, y)).collect();
    let t = upload(
        r,
        "app distance",
        wgpu::TextureFormat::R32Float,
        bytemuck::cast_slice(&data),
    );
    t.create_view(&Default::default())
}

/// A depth buffer of `format` and `samples` holding `raw(x, y)`, written
/// by a draw (as a program's depth is: most depth formats cannot be copied
/// into).
pub(super) fn depth_buffer(
    r: &Rig,
    (format, samples): (wgpu::TextureFormat, u32),
    raw: impl Fn(u32, u32) -> f32,
) -> wgpu::TextureView {
    let values = distances(r, raw);
    let device = &r.gpu.device;
    let target = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("app depth"),
        size: extent(r.size),
        mip_level_count: 1,
        sample_count: samples,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    });
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("depth writer"),
        source: wgpu::ShaderSource::Wgsl(
            "@group(0) @binding(0) var raw: texture_2d<f32>;
             @vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
                 let uv = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
                 return vec4f(uv * 2.0 - 1.0, 0.0, 1.0);
             }
             struct Out { @builtin(frag_depth) depth: f32 }
             @fragment fn fs(@builtin(position) p: vec4f) -> Out {
                 var o: Out;
                 o.depth = textureLoad(raw, vec2i(p.xy), 0).r;
                 return o;
             }"
            .into(),
        ),
    });
    let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("depth writer"),
        layout: None,
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        primitive: Default::default(),
        depth_stencil: Some(wgpu::DepthStencilState {
            format,
            depth_write_enabled: Some(true),
            depth_compare: Some(wgpu::CompareFunction::Always),
            stencil: Default::default(),
            bias: Default::default(),
        }),
        multisample: wgpu::MultisampleState {
            count: samples,
            ..Default::default()
        },
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs"),
            compilation_options: Default::default(),
            targets: &[],
        }),
        multiview_mask: None,
        cache: None,
    });
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: wgpu::BindingResource::TextureView(&values),
        }],
    });
    let view = target.create_view(&Default::default());
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let stencil = format.has_stencil_aspect().then_some(wgpu::Operations {
            load: wgpu::LoadOp::Clear(0),
            store: wgpu::StoreOp::Store,
        });
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("app depth"),
            color_attachments: &[],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &view,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Store,
                }),
                stencil_ops: stencil,
            }),
            ..Default::default()
        });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.draw(0..3, 0..1);
    }
    r.gpu.queue.submit([encoder.finish()]);
    view
}

/// The value a depth buffer of `camera` holds at distance `z`.
pub(super) fn raw_depth(camera: &Camera, z: f32) -> f32 {
    let (n, f) = (camera.near, camera.far);
    match (camera.orthographic, camera.reversed_z) {
        (false, false) => f * (z - n) / (z * (f - n)),
        (false, true) => n * (f - z) / (z * (f - n)),
        (true, false) => (z - n) / (f - n),
        (true, true) => (f - z) / (f - n),
    }
}

/// One frame, read back; the program's device saw no error.
fn frame(r: &mut Rig, scene: &wgpu::TextureView, depth: Option<Depth<'_>>) -> Image {
    frame_with_bloom(r, scene, None, depth)
}

/// A frame of `scene` with `bloom`, the program's bloom texture, if any.
fn frame_with_bloom(
    r: &mut Rig,
    scene: &wgpu::TextureView,
    bloom: Option<&wgpu::TextureView>,
    depth: Option<Depth<'_>>,
) -> Image {
    let scope = r.gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let view = r.output.create_view(&Default::default());
    let mut encoder = r.gpu.device.create_command_encoder(&Default::default());
    let format = wgpu::TextureFormat::Rgba16Float;
    match depth {
        Some(d) => r
            .post
            .render_with_depth(&mut encoder, scene, bloom, d, &view, format),
        None => r.post.render(&mut encoder, scene, bloom, &view, format),
    }
    .expect("render");
    let readback = Readback::record(&r.gpu, &mut encoder, &r.output).expect("a readback");
    r.gpu.queue.submit([encoder.finish()]);
    let img = pollster::block_on(readback.read(&r.gpu.device)).expect("read back");
    let error = pollster::block_on(scope.pop());
    assert!(error.is_none(), "GPU error: {error:?}");
    img
}

fn grey(img: &Image, x: u32, y: u32) -> f32 {
    img.rgba_f32(x, y)[0]
}

/// The thin lens on the CPU: the signed circle of confusion, in pixels of
/// an image `height` high, of a point at distance `z`, clamped as the
/// options clamp it.
/// At the lens or behind it (an orthographic camera's near plane may lie
/// there) the disc has grown past any bound: the nearest field.
fn thin_lens(o: &crate::options::DepthOfFieldOptions, height: u32, z: f64) -> f64 {
    let (f, n, s, h) = (o.focal_length, o.f_stop, o.focus_distance, o.sensor_height);
    let max = o.max_blur * height as f64 / 1080.0;
    if z <= 0.0 {
        return -max;
    }
    let sensor = f * f * (z - s) / (n * z * (s - f));
    (sensor / h * height as f64).clamp(-max, max)
}

/// The circle of confusion `debug: 'coc'` drew at (x, y), in pixels.
fn drawn_coc(img: &Image, x: u32, y: u32, max: f64) -> f64 {
    let p = img.rgba_f32(x, y);
    (p[2] as f64 - p[0] as f64) * max
}

const COC_SIZE: (u32, u32) = (256, 128);

/// A distance for each column, from 0.5 to 100 along a log scale.
fn ramp_distance(x: u32) -> f32 {
    0.5 * 200f32.powf(x as f32 / (COC_SIZE.0 - 1) as f32)
}

fn coc_options() -> Options {
    let mut o = linear(true);
    o.debug = DebugView::Coc;
    o.depth_of_field.focus_distance = 4.0;
    o.depth_of_field.f_stop = 0.7;
    o.depth_of_field.max_blur = 128.0;
    o
}

/// Largest error of the drawn circle of confusion against the thin lens
/// at distance `z(x)`, in pixels and as a fraction, counting only where
/// it is beyond both 0.25 px and 5 %; and the largest error overall.
fn coc_errors(img: &Image, o: &Options, z: impl Fn(u32) -> f64, what: &str) -> f64 {
    let d = &o.depth_of_field;
    let max = d.max_blur * COC_SIZE.1 as f64 / 1080.0;
    let mut worst: f64 = 0.0;
    for x in 0..COC_SIZE.0 {
        let want = thin_lens(d, COC_SIZE.1, z(x));
        let got = drawn_coc(img, x, COC_SIZE.1 / 2, max);
        let err = (got - want).abs();
        assert!(
            err <= 0.25 || err <= 0.05 * want.abs(),
            "{what}: at z = {:.3} the CoC is {got:.3} px, the thin lens {want:.3} px",
            z(x)
        );
        worst = worst.max(err);
    }
    worst
}

#[test]
fn the_circle_of_confusion_is_the_thin_lenss() {
    let o = coc_options();
    let mut r = rig(COC_SIZE, &o);
    let scene = colour(&r, |_, _| 0.5);
    let linear_z = distances(&r, |x, _| ramp_distance(x));
    let img = frame(&mut r, &scene, Some(Depth::linear(&linear_z)));
    let z = |x| ramp_distance(x) as f64;
    let mut worst = coc_errors(&img, &o, z, "r32float");
    // The view shows both fields and the plane in focus.
    let focus = (0..COC_SIZE.0).min_by_key(|&x| (ramp_distance(x) - 4.0).abs().to_bits());
    let at = focus.unwrap_or(0);
    assert!(img.rgba_f32(at, 64)[1] > 0.2, "green in focus");
    assert!(img.rgba_f32(0, 64)[0] > 0.9 && img.rgba_f32(255, 64)[2] > 0.1);
    use wgpu::TextureFormat as F;
    // Each camera, and how far the ramp is moved towards it: an
    // orthographic one sees at its near plane (distance 0 here) and behind
    // itself (three.js's usual near plane of -1000), and those are the
    // nearest field, not nothing.
    let cameras = [
        ((F::Depth32Float, 1), Camera::perspective(0.1, 200.0), 0.0),
        (
            (F::Depth32Float, 1),
            Camera::perspective(0.1, 200.0).reversed(),
            0.0,
        ),
        ((F::Depth32Float, 1), Camera::orthographic(0.0, 200.0), 0.5),
        (
            (F::Depth32Float, 1),
            Camera::orthographic(-1000.0, 1000.0),
            2.0,
        ),
        (
            (F::Depth24PlusStencil8, 1),
            Camera::orthographic(0.2, 150.0).reversed(),
            0.0,
        ),
        ((F::Depth24Plus, 1), Camera::perspective(0.3, 120.0), 0.0),
        ((F::Depth16Unorm, 1), Camera::orthographic(0.25, 110.0), 0.0),
        // Multisampled, as three.js keeps the depth of an MSAA target.
        (
            (F::Depth32Float, 4),
            Camera::perspective(0.1, 200.0).reversed(),
            0.0,
        ),
    ];
    for ((format, samples), camera, shift) in cameras {
        // A unorm format holds the nearest of its steps: the model reads
        // the distance back from the value it holds.
        let steps = match format {
            F::Depth16Unorm => Some(65535.0),
            _ => None,
        };
        let held = move |x: u32| {
            let d = raw_depth(&camera, ramp_distance(x) - shift);
            steps.map_or(d, |s| (d * s).round() / s)
        };
        let buffer = depth_buffer(&r, (format, samples), |x, _| held(x));
        let img = frame(&mut r, &scene, Some(Depth::buffer(&buffer, camera)));
        let z = |x| {
            let d = held(x) as f64;
            let (n, f) = (camera.near as f64, camera.far as f64);
            match (camera.orthographic, camera.reversed_z) {
                (false, false) => n * f / (f - d * (f - n)),
                (false, true) => n * f / (n + d * (f - n)),
                (true, false) => n + d * (f - n),
                (true, true) => f - d * (f - n),
            }
        };
        let what = format!("{format:?}×{samples} {camera:?}");
        worst = worst.max(coc_errors(&img, &o, z, &what));
    }
    eprintln!("largest CoC error against the thin lens: {worst:.4} px");
}

/// The two-depth stripes: vertical stripes of 0.1 and 0.9 (period 6 px)
/// everywhere, a near band (distance 2) across the middle third of the
/// columns over a far field (distance 20).
const STRIPES: (u32, u32) = (480, 270);
const NEAR_BAND: std::ops::Range<u32> = 160..320;

pub(super) fn stripes(x: u32) -> f32 {
    if (x / 3) % 2 == 0 {
        0.9
    } else {
        0.1
    }
}

pub(super) fn stripe_distance(x: u32) -> f32 {
    if NEAR_BAND.contains(&x) {
        2.0
    } else {
        20.0
    }
}

fn stripe_options(focus: f64) -> Options {
    let mut o = linear(true);
    let d = &mut o.depth_of_field;
    (d.focus_distance, d.f_stop, d.max_blur) = (focus, 1.4, 64.0);
    o
}

/// Michelson contrast of the rows 40 to 230 averaged, over `columns`,
/// relative to the scene's (0.8).
fn contrast(img: &Image, columns: std::ops::Range<u32>) -> f64 {
    let (mut hi, mut lo) = (f64::MIN, f64::MAX);
    for x in columns {
        let mean = (40..230).map(|y| grey(img, x, y) as f64).sum::<f64>() / 190.0;
        hi = hi.max(mean);
        lo = lo.min(mean);
    }
    (hi - lo) / (hi + lo) / 0.8
}

#[test]
fn stripes_at_two_depths_keep_the_contrast_of_the_one_in_focus() {
    let mut r = rig(STRIPES, &stripe_options(20.0));
    let scene = colour(&r, |x, _| stripes(x));
    let camera = Camera::perspective(0.1, 100.0);
    let buffer = depth_buffer(&r, (wgpu::TextureFormat::Depth32Float, 1), |x, _| {
        raw_depth(&camera, stripe_distance(x))
    });
    // Away from the band's edges by more than the largest blur (16 px).
    let (far, near) = (24..136, 184..296);
    let img = frame(&mut r, &scene, Some(Depth::buffer(&buffer, camera)));
    let (far_kept, near_kept) = (contrast(&img, far.clone()), contrast(&img, near.clone()));
    eprintln!("focus far: far stripes keep {far_kept:.3}, near ones {near_kept:.3}");
    assert!(far_kept >= 0.9, "far stripes in focus keep {far_kept}");
    assert!(
        near_kept <= 0.3,
        "near stripes out of focus keep {near_kept}"
    );
    r.post.set_options(&stripe_options(2.0)).expect("options");
    let img = frame(&mut r, &scene, Some(Depth::buffer(&buffer, camera)));
    let (far_kept, near_kept) = (contrast(&img, far), contrast(&img, near));
    eprintln!("focus near: far stripes keep {far_kept:.3}, near ones {near_kept:.3}");
    assert!(near_kept >= 0.9, "near stripes in focus keep {near_kept}");
    assert!(far_kept <= 0.3, "far stripes out of focus keep {far_kept}");
}

/// How far into the near band (from its left edge at 160 and its right
/// edge at 319) the output differs from the sharp scene by more than 2 %
/// of the far field's contrast, in pixels (0: not at all).
fn leak_inside(img: &Image, sharp: f32) -> u32 {
    let mut leak = 0;
    for y in 40..230 {
        for x in NEAR_BAND {
            let inside = (x - NEAR_BAND.start).min(NEAR_BAND.end - 1 - x) + 1;
            if (grey(img, x, y) - sharp).abs() > 0.02 * 2.0 {
                leak = leak.max(inside);
            }
        }
    }
    leak
}

#[test]
fn a_sharp_near_edge_keeps_its_edge_and_a_blurred_one_spreads() {
    let mut r = rig(STRIPES, &stripe_options(2.0));
    // A flat near band of 0.2 over far stripes of 0 and 2.
    let scene = colour(&r, |x, _| {
        if NEAR_BAND.contains(&x) {
            0.2
        } else {
            2.0 * (x / 4 % 2) as f32
        }
    });
    let z = distances(&r, |x, _| stripe_distance(x));
    let img = frame(&mut r, &scene, Some(Depth::linear(&z)));
    let leak = leak_inside(&img, 0.2);
    eprintln!("blur leaked {leak} px inside the sharp near edge");
    assert!(leak <= 2, "{leak} px");
    // The far field is blurred right up to the edge: about its mean, 1.
    let beside = grey(&img, NEAR_BAND.start - 6, 135);
    assert!((beside - 1.0).abs() < 0.25, "{beside}");
    // Focused far, a bright near band's blur spreads over the dark far
    // field beside it, fading out over its radius (4.5 px): a coverage of
    // a half at its edge, about a quarter 2 px out (a disc's segment).
    r.post.set_options(&stripe_options(20.0)).expect("options");
    let scene = colour(&r, |x, _| if NEAR_BAND.contains(&x) { 1.0 } else { 0.0 });
    let img = frame(&mut r, &scene, Some(Depth::linear(&z)));
    let column = |x: u32| (40..230).map(|y| grey(&img, x, y)).sum::<f32>() / 190.0;
    let out: Vec<f32> = (0..8).map(|d| column(NEAR_BAND.end + d)).collect();
    eprintln!("a blurred near edge spreads over the sharp field: {out:?}");
    assert!(out[0] > 0.3 && out[0] < 0.7, "{out:?}");
    assert!(out[2] > 0.1 && out[2] < out[0], "{out:?}");
    assert!(out[7] < 0.03, "{out:?}");
}

#[test]
fn a_bright_point_out_of_focus_is_a_disc_and_its_bloom_follows() {
    let size = (128, 128);
    let mut o = linear(true);
    let d = &mut o.depth_of_field;
    (d.focus_distance, d.f_stop, d.max_blur) = (2.0, 0.5, 128.0);
    let mut r = rig(size, &o);
    let scene = colour(&r, |x, y| if (x, y) == (64, 64) { 400.0 } else { 0.0 });
    let z = distances(&r, |_, _| 50.0);
    let img = frame(&mut r, &scene, Some(Depth::linear(&z)));
    let coc = thin_lens(&o.depth_of_field, size.1, 50.0);
    let radius = coc / 2.0;
    let at = |dx: f64, dy: f64| grey(&img, (64.0 + dx) as u32, (64.0 + dy) as u32);
    let inside: Vec<f32> = [
        (0.0, 0.0),
        (0.5, 0.0),
        (0.0, -0.5),
        (-0.4, 0.4),
        (0.45, 0.45),
    ]
    .iter()
    .map(|&(a, b)| at(a * radius, b * radius))
    .collect();
    let outside = [(1.0, 0.0), (0.0, 1.0), (-0.8, -0.8)]
        .map(|(a, b)| at(a * (radius + 3.0), b * (radius + 3.0)));
    eprintln!("bokeh of CoC {coc:.1} px: inside {inside:?}, outside {outside:?}");
    let (lo, hi) = inside
        .iter()
        .fold((f32::MAX, f32::MIN), |(l, h), &v| (l.min(v), h.max(v)));
    assert!(lo > 0.3 * hi && lo > 0.0, "the disc is filled: {inside:?}");
    assert!(
        outside.iter().all(|&v| v < 0.05 * hi),
        "the disc has an edge: {outside:?}"
    );
    let total: f64 = texels(size).map(|(x, y)| grey(&img, x, y) as f64).sum();
    assert!(
        (total / 400.0 - 1.0).abs() < 0.35,
        "light kept: {total} of 400"
    );
    // The bloom takes the blurred light: the bloom of the disc is lower
    // at its centre and flatter across it than the sharp point's.
    o.bloom.enabled = true;
    o.debug = DebugView::Bloom;
    let mut sharp = o;
    sharp.depth_of_field.enabled = false;
    r.post.set_options(&sharp).expect("options");
    let bloom_sharp = frame(&mut r, &scene, Some(Depth::linear(&z)));
    r.post.set_options(&o).expect("options");
    let bloom_blurred = frame(&mut r, &scene, Some(Depth::linear(&z)));
    let rim = (64.0 + radius) as u32;
    let (a, b) = (grey(&bloom_sharp, 64, 64), grey(&bloom_blurred, 64, 64));
    let (ra, rb) = (
        grey(&bloom_sharp, rim, 64) / a,
        grey(&bloom_blurred, rim, 64) / b,
    );
    eprintln!("bloom centre {a} sharp, {b} blurred; rim over centre {ra} sharp, {rb} blurred");
    assert!(
        b < 0.75 * a,
        "bloom of the sharp point {a}, of its disc {b}"
    );
    assert!(rb > ra, "the disc's bloom is flatter: {rb} vs {ra}");
}

/// At the largest blur (128 px at 1080p) the gathers' taps are spread over
/// a disc 32 half-resolution pixels wide: a bright point out of focus is
/// still a disc, not a pattern of dots, over most of its area.
#[test]
fn a_bright_point_at_the_largest_blur_is_still_a_disc() {
    let size = (160, 1080);
    let centre = (80, 540);
    let mut o = linear(true);
    let d = &mut o.depth_of_field;
    (d.focus_distance, d.f_stop, d.max_blur) = (1.0, 0.5, 128.0);
    let mut r = rig(size, &o);
    let scene = colour(&r, |x, y| if (x, y) == centre { 4000.0 } else { 0.0 });
    let z = distances(&r, |_, _| 50.0);
    let img = frame(&mut r, &scene, Some(Depth::linear(&z)));
    let radius = thin_lens(&o.depth_of_field, size.1, 50.0) / 2.0;
    assert!(radius > 60.0, "the largest blur: {radius}");
    // The pixels within 0.8 of the radius, brightest first.
    let mut inside: Vec<f32> = texels(size)
        .filter(|&(x, y)| {
            let (dx, dy) = (x as f64 - centre.0 as f64, y as f64 - centre.1 as f64);
            (dx * dx + dy * dy).sqrt() < 0.8 * radius
        })
        .map(|(x, y)| grey(&img, x, y))
        .collect();
    inside.sort_by(|a, b| b.total_cmp(a));
    let typical = inside[inside.len() / 2];
    let lit = inside.iter().filter(|&&v| v > 0.25 * typical).count();
    let share = lit as f64 / inside.len() as f64;
    eprintln!(
        "largest blur, radius {radius:.1} px: median {typical}, brightest {}, {:.0} % lit",
        inside[0],
        share * 100.0
    );
    assert!(typical > 0.0, "the disc has light at its median");
    assert!(
        share > 0.9,
        "the disc is filled: {:.0} % lit",
        share * 100.0
    );
}

#[test]
fn off_or_without_depth_the_frame_is_the_sharp_one() {
    let size = (96, 64);
    let on = |enabled| {
        let mut o = linear(enabled);
        o.depth_of_field.f_stop = 0.5;
        o.depth_of_field.max_blur = 128.0;
        o
    };
    let mut r = rig(size, &on(false));
    let scene = colour(&r, |x, y| ((x * 7 + y * 3) % 11) as f32 * 0.3);
    let z = distances(&r, |x, _| 0.5 + x as f32);
    let plain = frame(&mut r, &scene, None);
    assert_eq!(r.post.depth_of_field(), DepthOfFieldState::Off);
    let off = frame(&mut r, &scene, Some(Depth::linear(&z)));
    assert_eq!(plain.data, off.data, "depth of field off, depth given");
    r.post.set_options(&on(true)).expect("options");
    let no_depth = frame(&mut r, &scene, None);
    assert_eq!(r.post.depth_of_field(), DepthOfFieldState::NoDepth);
    assert_eq!(
        plain.data, no_depth.data,
        "on without depth: the sharp frame"
    );
    let on = frame(&mut r, &scene, Some(Depth::linear(&z)));
    assert_eq!(r.post.depth_of_field(), DepthOfFieldState::On);
    assert_ne!(plain.data, on.data, "on with depth, the frame is blurred");
}

#[test]
fn a_moving_camera_only_rewrites_uniforms() {
    let size = (64, 64);
    let mut o = linear(true);
    o.debug = DebugView::Coc;
    let mut r = rig(size, &o);
    let scene = colour(&r, |_, _| 0.5);
    let camera = Camera::perspective(0.1, 100.0);
    let buffer = depth_buffer(&r, (wgpu::TextureFormat::Depth32Float, 1), |_, _| {
        raw_depth(&camera, 5.0)
    });
    let first = frame(&mut r, &scene, Some(Depth::buffer(&buffer, camera)));
    let made = r.post.textures_created();
    let moved = Camera::perspective(0.2, 100.0);
    let second = frame(&mut r, &scene, Some(Depth::buffer(&buffer, moved)));
    assert_eq!(r.post.textures_created(), made, "no rebuild");
    assert_ne!(first.data, second.data, "the new planes are read");
}

fn refused(r: &mut Rig, scene: &wgpu::TextureView, depth: Depth<'_>) -> String {
    let view = r.output.create_view(&Default::default());
    let mut encoder = r.gpu.device.create_command_encoder(&Default::default());
    let format = wgpu::TextureFormat::Rgba16Float;
    match r
        .post
        .render_with_depth(&mut encoder, scene, None, depth, &view, format)
    {
        Err(Error::Argument(e)) => e.argument,
        other => panic!("not refused by name: {other:?}"),
    }
}

#[test]
fn bad_depth_and_cameras_are_refused_by_name() {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::VULKAN,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let request =
        || pollster::block_on(crate::gpu::Gpu::request(&instance, None)).expect("a device");
    let mut r = rig_on(request(), (32, 32), &linear(true));
    let scene = colour(&r, |_, _| 1.0);
    let z = distances(&r, |_, _| 3.0);
    let buffer = depth_buffer(&r, (wgpu::TextureFormat::Depth32Float, 1), |_, _| 0.5);
    let camera = Camera::perspective(0.1, 10.0);
    assert_eq!(refused(&mut r, &scene, Depth::linear(&scene)), "depth");
    assert_eq!(refused(&mut r, &scene, Depth::linear(&buffer)), "depth");
    assert_eq!(refused(&mut r, &scene, Depth::buffer(&z, camera)), "depth");
    for (bad, field) in [
        (Camera::perspective(0.0, 10.0), "camera.near"),
        (Camera::perspective(f32::NAN, 10.0), "camera.near"),
        (Camera::orthographic(f32::NEG_INFINITY, 10.0), "camera.near"),
        (Camera::perspective(0.1, 0.1), "camera.far"),
        (Camera::perspective(0.1, f32::INFINITY), "camera.far"),
    ] {
        assert_eq!(refused(&mut r, &scene, Depth::buffer(&buffer, bad)), field);
    }
    // Another size than the scene's.
    let mut small = rig_on(request(), (16, 16), &linear(true));
    let other_size = distances(&small, |_, _| 3.0);
    assert_eq!(refused(&mut r, &scene, Depth::linear(&other_size)), "depth");
    // Another device's texture, of the right size.
    small.size = (32, 32);
    let elsewhere = distances(&small, |_, _| 3.0);
    assert_eq!(refused(&mut r, &scene, Depth::linear(&elsewhere)), "depth");
    // Without TEXTURE_BINDING; linear distance multisampled (only a depth
    // buffer may be, read at its first sample).
    for (usage, samples, format) in [
        (
            wgpu::TextureUsages::RENDER_ATTACHMENT,
            1,
            wgpu::TextureFormat::Depth32Float,
        ),
        (
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            4,
            wgpu::TextureFormat::R32Float,
        ),
    ] {
        let t = r.gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("bad depth"),
            size: extent((32, 32)),
            mip_level_count: 1,
            sample_count: samples,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage,
            view_formats: &[],
        });
        let view = t.create_view(&Default::default());
        let depth = match format {
            wgpu::TextureFormat::R32Float => Depth::linear(&view),
            _ => Depth::buffer(&view, camera),
        };
        assert_eq!(refused(&mut r, &scene, depth), "depth");
    }
    // Still rendering after all that.
    frame(&mut r, &scene, Some(Depth::buffer(&buffer, camera)));
}

/// With a bloom texture of the program's own (three.js's selective
/// bloom), that texture blurs as the scene does: the bloom of a point out
/// of focus given as both is the bloom of its disc, the same as when the
/// scene's own light blooms, not the sharp point's.
#[test]
fn a_bloom_texture_of_its_own_blurs_with_the_scene() {
    let size = (128, 128);
    let mut o = linear(true);
    let d = &mut o.depth_of_field;
    (d.focus_distance, d.f_stop, d.max_blur) = (2.0, 0.5, 128.0);
    o.bloom.enabled = true;
    o.debug = DebugView::Bloom;
    let mut r = rig(size, &o);
    let point = colour(&r, |x, y| if (x, y) == (64, 64) { 400.0 } else { 0.0 });
    let z = distances(&r, |_, _| 50.0);
    let own = frame_with_bloom(&mut r, &point, Some(&point), Some(Depth::linear(&z)));
    let from_scene = frame_with_bloom(&mut r, &point, None, Some(Depth::linear(&z)));
    let mut sharp = o;
    sharp.depth_of_field.enabled = false;
    r.post.set_options(&sharp).expect("options");
    let unblurred = frame_with_bloom(&mut r, &point, Some(&point), Some(Depth::linear(&z)));
    let radius = thin_lens(&o.depth_of_field, size.1, 50.0) / 2.0;
    let rim = (64.0 + radius) as u32;
    let at = |img: &Image, x: u32| grey(img, x, 64);
    eprintln!(
        "bloom texture's bloom: centre {} (sharp {}, scene's {}), rim {} (sharp {}, scene's {})",
        at(&own, 64),
        at(&unblurred, 64),
        at(&from_scene, 64),
        at(&own, rim),
        at(&unblurred, rim),
        at(&from_scene, rim)
    );
    assert!(
        at(&own, 64) < 0.75 * at(&unblurred, 64),
        "the bloom is the disc's, lower at its centre than the point's"
    );
    let mut worst = 0.0f32;
    for (x, y) in texels(size) {
        worst = worst.max((grey(&own, x, y) - grey(&from_scene, x, y)).abs());
    }
    assert!(
        worst < 0.01 * at(&from_scene, 64),
        "the bloom texture's bloom is the scene's: they differ by {worst}"
    );
}
