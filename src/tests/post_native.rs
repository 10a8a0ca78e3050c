//! `PostChain` natively (lavapipe): the caller's device, its own HDR and
//! bloom textures, its encoder and its output texture.

use crate::headless::vulkan_gpu;
use crate::options::{AlphaMode, Antialias, CanvasFormat, Options, ToneMapping};
use crate::readback::{Image, Readback};
use crate::{Error, PostChain};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

#[allow(unused_imports)]
use super::common::*;

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
    let mut o = crate::options::PREDICTABLE;
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
    gpu: crate::gpu::Gpu,
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
    let lut = crate::Lut::from_cube(&green).unwrap();
    post.set_lut(Some(&lut)).unwrap();
    let img = render(&a, &mut post, &hdr, None);
    let p = img.rgba_f32(5, 5);
    assert!(p[0].abs() < 1e-3 && (p[1] - 1.0).abs() < 1e-3, "{p:?}");
    let e = crate::Lut::from_cube("LUT_3D_SIZE 2\n0 1\n").unwrap_err();
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
    use crate::graph::Owner;
    use crate::headless::Headless;
    use crate::passes::{example_effect, PASSES};
    let gpu = pollster::block_on(vulkan_gpu()).expect("a Vulkan device");
    let mut options = measuring();
    options.bloom.enabled = false;
    let output = crate::output::OutputSpec::new(
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
        crate::Content::Texture(crate::chain::ExternalInput {
            scene: view,
            bloom: None,
            size: (32, 32),
            formats: (wgpu::TextureFormat::Rgba16Float, None),
            depth: None,
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
        Err(crate::error::Error::Graph(e)) => {
            assert_eq!(e.attachment, "scene texture");
            assert!(e.message.contains("caller owns"), "{}", e.message);
        }
        other => panic!("expected a GraphError, got {other:?}"),
    }
    assert_eq!(h.gpu.error_count(), 0, "refused before the GPU saw it");
}

/// A one-line scene-stage effect: the light times `uniforms.tint`.
const TINT: &str = "fn effect(color: vec4f, uv: vec2f) -> vec4f {\n    return vec4f(color.rgb * uniforms.tint, color.a);\n}\n";

fn tint(tint: [f32; 3]) -> crate::Effect<'static> {
    use crate::{EffectStage, UniformValue};
    let uniforms: &'static [(&'static str, UniformValue)] =
        Box::leak(Box::new([("tint", UniformValue::Vec3(tint))]));
    crate::Effect {
        wgsl: TINT,
        stage: EffectStage::Scene,
        uniforms,
        textures: &[],
    }
}

#[test]
fn an_effect_of_the_programs_runs_in_the_frame_and_removing_it_restores_it() {
    use crate::UniformValue;
    let a = app(64);
    let mut post = measuring_chain(&a);
    let hdr = texture(&a.gpu.device, &a.gpu.queue, 64, &[(32, 32, 4.0)]);
    let before = render(&a, &mut post, &hdr, None);
    post.add_effect("tint", &tint([0.5, 1.0, 0.25])).unwrap();
    assert_eq!(post.effects(), ["tint"]);
    let tinted = render(&a, &mut post, &hdr, None);
    // Light through an Rgba16Float output with no curve (encoded there):
    // the pixel and its halo, each channel scaled.
    let linear = |img: &Image, x: u32, y: u32| img.rgba_f32(x, y).map(srgb_decode);
    for (x, y) in [(32, 32), (36, 32)] {
        let (b, t) = (linear(&before, x, y), linear(&tinted, x, y));
        let want = [b[0] * 0.5, b[1], b[2] * 0.25];
        for c in 0..3 {
            assert!(
                (t[c] - want[c]).abs() <= want[c] * 0.01 + 1e-4,
                "({x}, {y}) {c}: {t:?} against {want:?}"
            );
        }
    }
    post.set_effect_uniforms("tint", &[("tint", UniformValue::Vec3([2.0, 2.0, 2.0]))])
        .unwrap();
    let doubled = render(&a, &mut post, &hdr, None);
    let (b, d) = (linear(&before, 32, 32)[1], linear(&doubled, 32, 32)[1]);
    assert!((d - 2.0 * b).abs() <= 0.01 * b, "{d} against 2 × {b}");
    post.remove_effect("tint").unwrap();
    assert!(post.effects().is_empty());
    assert_eq!(
        render(&a, &mut post, &hdr, None).data,
        before.data,
        "byte for byte"
    );
}

/// Two effects that both define `fn effect` and a helper of the same
/// name run in order; a display effect runs after the curve.
#[test]
fn effects_keep_their_own_names_and_run_in_stage_order() {
    use crate::{Effect, EffectStage};
    let a = app(32);
    let mut post = measuring_chain(&a);
    let hdr = texture(&a.gpu.device, &a.gpu.queue, 32, &[(16, 16, 0.5)]);
    let before = render(&a, &mut post, &hdr, None);
    let scale = |k: &str| {
        format!(
            "const K = {k};\nfn helper(c: vec3f) -> vec3f {{ return c * K; }}\n\
             fn effect(color: vec4f, uv: vec2f) -> vec4f {{ return vec4f(helper(color.rgb), color.a); }}\n"
        )
    };
    let (half, third) = (scale("0.5"), scale("(1.0 / 3.0)"));
    // Added display first: it still runs after the scene's.
    let plus =
        "fn effect(color: vec4f, uv: vec2f) -> vec4f { return vec4f(color.rgb + 0.125, color.a); }";
    // Any string names an effect: its WGSL never sees it.
    for (name, wgsl, stage) in [
        ("film-look", plus, EffectStage::Display),
        ("half", half.as_str(), EffectStage::Scene),
        ("Tint 2", third.as_str(), EffectStage::Scene),
    ] {
        let effect = Effect {
            wgsl,
            stage,
            uniforms: &[],
            textures: &[],
        };
        post.add_effect(name, &effect).unwrap();
    }
    assert_eq!(post.effects(), ["film-look", "half", "Tint 2"]);
    let img = render(&a, &mut post, &hdr, None);
    // In linear light (the output is encoded).
    let linear = |img: &Image, x: u32, y: u32| srgb_decode(img.rgba_f32(x, y)[0]);
    let (b, got) = (linear(&before, 16, 16), linear(&img, 16, 16));
    let want = b / 6.0 + 0.125;
    assert!((got - want).abs() < 2e-3, "{got} against {want}");
    // Off the light: only the display effect adds.
    let dark = linear(&img, 2, 2);
    assert!((dark - 0.125).abs() < 2e-3, "{dark}");
}

/// An effect reads the program's texture by its name.
#[test]
fn an_effect_reads_its_texture() {
    use crate::{Effect, EffectStage};
    let a = app(32);
    let mut post = measuring_chain(&a);
    let (d, q) = (&a.gpu.device, &a.gpu.queue);
    let hdr = texture(d, q, 32, &[]);
    // Light only in the left half of the effect's texture.
    let left: Vec<(u32, u32, f32)> = (0..32)
        .flat_map(|y| (0..16).map(move |x| (x, y, 0.75)))
        .collect();
    let mask = texture(d, q, 32, &left);
    let wgsl = "fn effect(color: vec4f, uv: vec2f) -> vec4f {\n\
                return color + textureSampleLevel(mask, effect_sampler, uv, 0.0);\n}";
    let effect = Effect {
        wgsl,
        stage: EffectStage::Scene,
        uniforms: &[],
        textures: &[("mask", &mask)],
    };
    post.add_effect("mask", &effect).unwrap();
    let img = render(&a, &mut post, &hdr, None);
    // In linear light (the output is encoded).
    let linear = |x: u32, y: u32| srgb_decode(img.rgba_f32(x, y)[0]);
    assert!(
        (linear(4, 16) - 0.75).abs() < 2e-3,
        "{:?}",
        img.rgba_f32(4, 16)
    );
    assert!(linear(28, 16).abs() < 2e-3, "{:?}", img.rgba_f32(28, 16));
}

/// With anti-aliasing, the composite up to the display image runs as
/// compute, unless an effect it reaches is fragment-only (a `textureSample`
/// with implicit derivatives, a `discard`): then it is drawn. Every way
/// gives the same picture, without a GPU error.
#[test]
fn an_effect_that_needs_derivatives_keeps_the_split_composite_drawn() {
    use crate::options::types::Antialias;
    use crate::{Effect, EffectStage};
    let a = app(32);
    let (d, q) = (&a.gpu.device, &a.gpu.queue);
    let hdr = texture(d, q, 32, &[(16, 16, 3.0), (8, 20, 1.5)]);
    let stripes: Vec<(u32, u32, f32)> = (0..32)
        .flat_map(|y| (0..32).filter(|x| x % 4 == 0).map(move |x| (x, y, 0.5)))
        .collect();
    let mask = texture(d, q, 32, &stripes);
    let mut o = measuring();
    o.antialias = Antialias::Smaa;
    let mut pictures = Vec::new();
    let level = "textureSampleLevel(mask, effect_sampler, uv, 0.0)";
    for (first, read, computes) in [
        ("", level, true),
        ("", "textureSample(mask, effect_sampler, uv)", false),
        // Never taken, but a compute shader may not have it at all.
        (
            "if color.a < -1.0 {\n        discard;\n    }\n    ",
            level,
            false,
        ),
    ] {
        let mut post = PostChain::new(d, q, wgpu::TextureFormat::Rgba16Float, &o).unwrap();
        let wgsl = format!(
            "fn effect(color: vec4f, uv: vec2f) -> vec4f {{\n    {first}return color + {read};\n}}"
        );
        let effect = Effect {
            wgsl: &wgsl,
            stage: EffectStage::Scene,
            uniforms: &[],
            textures: &[("mask", &mask)],
        };
        post.add_effect("stripes", &effect).unwrap();
        let img = render(&a, &mut post, &hdr, None);
        let (_, chain) = post.parts();
        let graph = chain.graph().expect("a frame");
        let head = graph
            .passes
            .iter()
            .find(|p| p.name == "composite")
            .expect("the composite");
        assert_eq!(!head.storage.is_empty(), computes, "{read}: {head:?}");
        assert_eq!(head.colors.is_empty(), computes, "{read}: {head:?}");
        pictures.push(img);
    }
    let computed = &pictures[0];
    let mut worst = 0.0f32;
    for drawn in &pictures[1..] {
        for y in 0..32 {
            for x in 0..32 {
                let (p, q) = (computed.rgba_f32(x, y), drawn.rgba_f32(x, y));
                for c in 0..4 {
                    worst = worst.max((p[c] - q[c]).abs());
                }
            }
        }
    }
    // The stripes are there (the effect ran), and the two agree to within
    // half-float rounding.
    assert!(computed.rgba_f32(4, 5)[0] > computed.rgba_f32(6, 5)[0] + 0.1);
    assert!(
        worst < 2e-3,
        "the drawn and computed composites differ by {worst}"
    );
}

/// Every refusal names what was wrong and leaves the frame as it was.
#[test]
fn bad_effects_are_refused_by_name_and_change_nothing() {
    use crate::{Effect, EffectStage, UniformValue};
    let a = app(32);
    let mut post = measuring_chain(&a);
    let hdr = texture(&a.gpu.device, &a.gpu.queue, 32, &[(16, 16, 3.0)]);
    post.add_effect("tint", &tint([0.5, 0.5, 0.5])).unwrap();
    let before = render(&a, &mut post, &hdr, None);
    let argument = |e: Result<(), Error>| match e {
        Err(Error::Argument(a)) => a.argument,
        other => panic!("not an argument error: {other:?}"),
    };
    let plain = |wgsl: &'static str| Effect {
        wgsl,
        stage: EffectStage::Scene,
        uniforms: &[],
        textures: &[],
    };
    let fine = "fn effect(color: vec4f, uv: vec2f) -> vec4f { return color; }";
    assert_eq!(
        argument(post.add_effect("tint", &plain(fine))),
        "name",
        "a name in use"
    );
    assert_eq!(argument(post.add_effect("", &plain(fine))), "name");
    assert_eq!(
        argument(post.add_effect(&"x".repeat(65), &plain(fine))),
        "name"
    );
    let binds = "@group(0) @binding(9) var t: texture_2d<f32>;\nfn effect(color: vec4f, uv: vec2f) -> vec4f { return color; }";
    assert_eq!(argument(post.add_effect("b", &plain(binds))), "wgsl");
    let nan = Effect {
        uniforms: &[("k", UniformValue::F32(f32::NAN))],
        ..plain(fine)
    };
    assert_eq!(argument(post.add_effect("n", &nan)), "uniforms.k");
    let output_view = a.output.create_view(&Default::default());
    let unsampled = Effect {
        textures: &[("t", &output_view)],
        ..plain(fine)
    };
    assert_eq!(argument(post.add_effect("t", &unsampled)), "textures.t");
    assert_eq!(
        argument(post.set_effect_uniforms("tint", &[("nope", UniformValue::F32(1.0))])),
        "uniforms.nope"
    );
    assert_eq!(
        argument(post.set_effect_uniforms("tint", &[("tint", UniformValue::F32(1.0))])),
        "uniforms.tint",
        "another type"
    );
    assert_eq!(argument(post.set_effect_uniforms("other", &[])), "name");
    assert_eq!(argument(post.remove_effect("other")), "name");

    // A compile error at its line and column in the program's WGSL.
    let broken = "fn effect(color: vec4f, uv: vec2f) -> vec4f {\n    return colour;\n}";
    match post.add_effect("broken", &plain(broken)) {
        Err(Error::Shader(e)) => {
            assert_eq!((e.line, e.column), (2, 12), "{e}");
            assert!(e.message.contains("colour"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    // No `fn effect`, or another signature: said so, pointing at it.
    match post.add_effect("missing", &plain("fn other() {}")) {
        Err(Error::Shader(e)) => {
            assert_eq!(e.line, 0, "{e}");
            assert!(
                e.message
                    .contains("fn effect(color: vec4f, uv: vec2f) -> vec4f"),
                "{e}"
            );
        }
        other => panic!("{other:?}"),
    }
    match post.add_effect(
        "wrong",
        &plain("\nfn effect(color: vec3f) -> vec3f { return color; }"),
    ) {
        Err(Error::Shader(e)) => assert_eq!((e.line, e.column), (2, 1), "{e}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(post.effects(), ["tint"]);
    assert_eq!(
        render(&a, &mut post, &hdr, None).data,
        before.data,
        "nothing changed"
    );
}

/// Two devices of one wgpu instance: the program's, and another of its.
fn two_devices() -> (crate::gpu::Gpu, crate::gpu::Gpu) {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::VULKAN,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let request = || pollster::block_on(crate::gpu::Gpu::request(&instance, None)).unwrap();
    (request(), request())
}

/// A texture of another device of the program's (the same wgpu instance)
/// is refused by name, and the chain is as it was.
#[test]
fn an_effects_texture_of_another_device_is_refused() {
    use crate::{Effect, EffectStage};
    let (mine, other) = two_devices();
    let mut post = PostChain::new(
        &mine.device,
        &mine.queue,
        wgpu::TextureFormat::Rgba16Float,
        &measuring(),
    )
    .unwrap();
    let foreign = texture(&other.device, &other.queue, 8, &[]);
    let effect = Effect {
        wgsl: "fn effect(color: vec4f, uv: vec2f) -> vec4f { return color; }",
        stage: EffectStage::Scene,
        uniforms: &[],
        textures: &[("mask", &foreign)],
    };
    match post.add_effect("masked", &effect) {
        Err(Error::Argument(e)) => {
            assert_eq!(e.argument, "textures.mask");
            assert!(e.message.contains("another device"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    assert!(post.effects().is_empty());
    let own = texture(&mine.device, &mine.queue, 8, &[]);
    let effect = Effect {
        textures: &[("mask", &own)],
        ..effect
    };
    post.add_effect("masked", &effect).unwrap();
    assert_eq!(mine.error_count(), 0);
}

/// `hdr`, `bloom`, `depth` and `dirt` of another device of the
/// program's, or destroyed before the chain saw them, are refused by name
/// before wgpu sees the frame, and nothing reaches the device's handler.
#[test]
fn inputs_of_another_device_or_destroyed_are_refused_by_name() {
    use crate::{Camera, Depth};
    let (mine, other) = two_devices();
    let format = wgpu::TextureFormat::Rgba16Float;
    let mut post = PostChain::new(&mine.device, &mine.queue, format, &measuring()).unwrap();
    // An 8×8 texture of `device` with `format` and `usage`.
    let make = |device: &wgpu::Device, format, usage| {
        plain_texture(device, (8, 8), format, usage).create_view(&Default::default())
    };
    let output = make(&mine.device, format, wgpu::TextureUsages::RENDER_ATTACHMENT);
    let depth = |device: &wgpu::Device| {
        let usage = wgpu::TextureUsages::TEXTURE_BINDING;
        make(device, wgpu::TextureFormat::Depth32Float, usage)
    };
    let destroyed = |view: wgpu::TextureView| {
        view.texture().destroy();
        view
    };
    let own = texture(&mine.device, &mine.queue, 8, &[]);
    let foreign = texture(&other.device, &other.queue, 8, &[]);
    let camera = Camera::perspective(0.1, 10.0);
    let own_depth = depth(&mine.device);
    let cases: [(&str, &str, _, Option<_>, Option<_>); 6] = [
        ("hdr", "", foreign.clone(), None, None),
        ("bloom", "", own.clone(), Some(foreign.clone()), None),
        ("depth", "", own.clone(), None, Some(depth(&other.device))),
        (
            "hdr",
            "has been destroyed",
            destroyed(texture(&mine.device, &mine.queue, 8, &[])),
            None,
            None,
        ),
        (
            "bloom",
            "has been destroyed",
            own.clone(),
            Some(destroyed(texture(&mine.device, &mine.queue, 8, &[]))),
            None,
        ),
        (
            "depth",
            "has been destroyed",
            own.clone(),
            None,
            Some(destroyed(depth(&mine.device))),
        ),
    ];
    for (argument, needle, hdr, bloom, depth) in cases {
        let mut encoder = mine.device.create_command_encoder(&Default::default());
        let result = match &depth {
            Some(d) => post.render_with_depth(
                &mut encoder,
                &hdr,
                bloom.as_ref(),
                Depth::buffer(d, camera),
                &output,
                format,
            ),
            None => post.render(&mut encoder, &hdr, bloom.as_ref(), &output, format),
        };
        match result {
            Err(Error::Argument(e)) => {
                assert_eq!(e.argument, argument, "{e}");
                assert!(e.message.contains(needle), "{e}");
            }
            other => panic!("{argument}: {other:?}"),
        }
    }
    match post.set_lens_dirt(Some(&foreign)) {
        Err(Error::Argument(e)) => assert_eq!(e.argument, "dirt", "{e}"),
        other => panic!("dirt: {other:?}"),
    }
    // The chain renders the program's own as if nothing had been tried.
    let mut encoder = mine.device.create_command_encoder(&Default::default());
    post.render_with_depth(
        &mut encoder,
        &own,
        None,
        Depth::buffer(&own_depth, camera),
        &output,
        format,
    )
    .unwrap();
    mine.queue.submit([encoder.finish()]);
    let _ = mine.device.poll(wgpu::PollType::wait_indefinitely());
    assert_eq!(mine.error_count(), 0, "{:?}", mine.last_error());
}

/// A scene effect reads the light around its pixel: `light_at` 8 pixels
/// to the left moves the picture, bloom and all, 8 pixels right; and with
/// anti-aliasing on, every mode runs after it on the caller's device.
#[test]
fn a_scene_effect_shifts_the_picture_with_light_at() {
    use crate::{Effect, EffectStage};
    let a = app(64);
    let mut post = measuring_chain(&a);
    let hdr = texture(
        &a.gpu.device,
        &a.gpu.queue,
        64,
        &[(20, 30, 4.0), (40, 12, 0.5)],
    );
    let before = render(&a, &mut post, &hdr, None);
    let shift = Effect {
        wgsl: "fn effect(color: vec4f, uv: vec2f) -> vec4f {\n    \
               return light_at(uv - vec2f(8.0, 0.0) * texel());\n}\n",
        stage: EffectStage::Scene,
        uniforms: &[],
        textures: &[],
    };
    post.add_effect("shift 8 px", &shift).unwrap();
    let shifted = render(&a, &mut post, &hdr, None);
    for y in 0..64 {
        for x in 8..64 {
            let (want, got) = (before.rgba_f32(x - 8, y), shifted.rgba_f32(x, y));
            for c in 0..4 {
                let close = (got[c] - want[c]).abs() <= 1e-3 + want[c] * 2e-3;
                assert!(close, "({x}, {y}) {c}: {got:?} against {want:?} at x - 8");
            }
        }
    }
    for mode in [Antialias::Fxaa, Antialias::Smaa] {
        let mut o = *post.options();
        o.antialias = mode;
        post.set_options(&o).unwrap();
        let smoothed = render(&a, &mut post, &hdr, None);
        // The moved pixel is there still, smoothed or not.
        let (want, got) = (before.rgba_f32(20, 30)[0], smoothed.rgba_f32(28, 30)[0]);
        assert!(got > 0.5 * want, "{mode:?}: {got} against {want}");
    }
    assert_eq!(a.errors.load(Ordering::Relaxed), 0, "GPU errors");
}

/// `light_at` is the scene stage's: a display effect that reads it is a
/// `ShaderError` at its line and column that names both stages.
#[test]
fn light_at_in_a_display_effect_is_an_error_naming_the_stage() {
    use crate::{Effect, EffectStage};
    let a = app(16);
    let mut post = measuring_chain(&a);
    let effect = Effect {
        wgsl: "// light_at in a comment is not a use\n\
               fn effect(color: vec4f, uv: vec2f) -> vec4f {\n    return light_at(uv);\n}\n",
        stage: EffectStage::Display,
        uniforms: &[],
        textures: &[],
    };
    match post.add_effect("late", &effect) {
        Err(Error::Shader(e)) => {
            assert_eq!((e.line, e.column), (3, 12), "{e:?}");
            assert!(
                e.message.contains("'scene'") && e.message.contains("'display'"),
                "{e:?}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(post.effects().is_empty());
    // A local of that name is not a call; an effect's own `texel` and
    // `light_at` stand in its WGSL.
    let own = [
        ("fn effect(color: vec4f, uv: vec2f) -> vec4f {\n    let light_at = color.rgb;\n    \
          return vec4f(light_at, color.a);\n}\n", EffectStage::Display),
        ("fn texel() -> f32 { return 2.0; }\nfn effect(color: vec4f, uv: vec2f) -> vec4f {\n    \
          return color * texel();\n}\n", EffectStage::Display),
        ("fn light_at(uv: vec2f) -> vec4f { return vec4f(uv, 0.0, 1.0); }\n\
          fn effect(color: vec4f, uv: vec2f) -> vec4f {\n    return light_at(uv);\n}\n", EffectStage::Scene),
    ];
    for (i, (wgsl, stage)) in own.into_iter().enumerate() {
        let effect = Effect {
            wgsl,
            stage,
            uniforms: &[],
            textures: &[],
        };
        post.add_effect(&format!("own {i}"), &effect)
            .unwrap_or_else(|e| panic!("{wgsl}: {e}"));
    }
    assert_eq!(post.effects().len(), 3);
}

/// The width of [`warm_ramp`].
const RAMP: u32 = 256;

/// Pixel `i` of [`warm_ramp`] as it is stored (in f16): x from 0 to 100
/// times SDR white along the row, in the colour (x, x/2, x/4), so that the
/// primaries matter.
fn ramp_at(i: u32) -> [f32; 3] {
    let x = 100.0 * (i as f32 / (RAMP - 1) as f32).powi(2);
    [x, x / 2.0, x / 4.0].map(|v| crate::readback::f16_to_f32(f16(v)))
}

/// The caller's scene: one row of [`ramp_at`], `Rgba16Float`.
fn warm_ramp(a: &App) -> wgpu::TextureView {
    let usage = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST;
    let t = plain_texture(
        &a.gpu.device,
        (RAMP, 1),
        wgpu::TextureFormat::Rgba16Float,
        usage,
    );
    let mut data = Vec::new();
    for i in 0..RAMP {
        let [r, g, b] = ramp_at(i);
        data.extend([f16(r), f16(g), f16(b), F16_ONE]);
    }
    let layout = wgpu::TexelCopyBufferLayout {
        offset: 0,
        bytes_per_row: Some(RAMP * 8),
        rows_per_image: None,
    };
    a.gpu
        .queue
        .write_texture(t.as_image_copy(), bytemuck_cast(&data), layout, t.size());
    t.create_view(&Default::default())
}

/// CPU models of the output encodings: linear sRGB-primary light to what
/// each colour space stores.
mod model {
    const TO_P3: [[f32; 3]; 3] = [
        [0.8224621, 0.1775380, 0.0],
        [0.0331941, 0.9668058, 0.0],
        [0.0170827, 0.0723974, 0.9105199],
    ];
    const TO_2020: [[f32; 3]; 3] = [
        [0.6274039, 0.3292830, 0.0433131],
        [0.0690973, 0.9195404, 0.0113623],
        [0.0163914, 0.0880133, 0.8955953],
    ];

    fn mul(m: [[f32; 3]; 3], c: [f32; 3]) -> [f32; 3] {
        m.map(|row| row[0] * c[0] + row[1] * c[1] + row[2] * c[2])
    }

    /// Extended sRGB: the sRGB curve, continued past 1.
    pub fn srgb(c: [f32; 3]) -> [f32; 3] {
        c.map(super::srgb_encode)
    }

    /// Extended Display P3.
    pub fn p3(c: [f32; 3]) -> [f32; 3] {
        srgb(mul(TO_P3, c))
    }

    /// scRGB.
    pub fn linear(c: [f32; 3]) -> [f32; 3] {
        c
    }

    /// BT.2100 PQ: BT.2020 primaries, SDR white at 203 cd/m².
    pub fn pq(c: [f32; 3]) -> [f32; 3] {
        mul(TO_2020, c).map(|v| pq_encode(v.max(0.0) * 203.0 / 10000.0))
    }

    /// SMPTE ST 2084's inverse EOTF.
    fn pq_encode(y: f32) -> f32 {
        let (m1, m2) = (0.1593017578125f64, 78.84375f64);
        let (c1, c2, c3) = (0.8359375f64, 18.8515625f64, 18.6875f64);
        let p = f64::from(y.clamp(0.0, 1.0)).powf(m1);
        ((c1 + c2 * p) / (1.0 + c3 * p)).powf(m2) as f32
    }
}

/// Every HDR output colour space against a CPU model of its encoding, on
/// [`warm_ramp`], from black to 100× SDR white: within 1/1023 on a 10-bit
/// output, 1e-3 relative on a float one.
#[test]
fn hdr_output_colour_spaces_encode_as_their_models_say() {
    use crate::Output;
    use wgpu::SurfaceColorSpace as S;
    use wgpu::TextureFormat as F;
    let a = app(16);
    let hdr = warm_ramp(&a);
    let mut o = crate::options::PREDICTABLE;
    o.canvas.tone_mapping = ToneMapping::Extended;
    o.canvas.headroom = 100.0;
    let cases: [(S, F, fn([f32; 3]) -> [f32; 3]); 5] = [
        (S::ExtendedSrgb, F::Rgba16Float, model::srgb),
        (S::ExtendedDisplayP3, F::Rgba16Float, model::p3),
        (S::ExtendedSrgbLinear, F::Rgba16Float, model::linear),
        (S::Bt2100Pq, F::Rgba16Float, model::pq),
        (S::Bt2100Pq, F::Rgb10a2Unorm, model::pq),
    ];
    for (space, format, model) in cases {
        let output = Output::new(format).with_color_space(space);
        let mut post = PostChain::with_output(&a.gpu.device, &a.gpu.queue, output, &o)
            .unwrap_or_else(|e| panic!("{space:?} {format:?}: {e}"));
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
        let target = plain_texture(&a.gpu.device, (RAMP, 1), format, usage);
        let mut encoder = a.gpu.device.create_command_encoder(&Default::default());
        let view = target.create_view(&Default::default());
        post.render(&mut encoder, &hdr, None, &view, format)
            .unwrap();
        let readback = Readback::record(&a.gpu, &mut encoder, &target).unwrap();
        a.gpu.queue.submit([encoder.finish()]);
        let img = pollster::block_on(readback.read(&a.gpu.device)).unwrap();
        for i in 0..RAMP {
            let want = model(ramp_at(i));
            let got = if format == F::Rgb10a2Unorm {
                let t = &img.data[4 * i as usize..4 * i as usize + 4];
                let v = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
                [0, 10, 20].map(|s| ((v >> s) & 1023) as f32 / 1023.0)
            } else {
                let p = img.rgba_f32(i, 0);
                [p[0], p[1], p[2]]
            };
            for c in 0..3 {
                let close = if format == F::Rgb10a2Unorm {
                    (got[c] - want[c]).abs() <= 1.0 / 1023.0
                } else {
                    (got[c] - want[c]).abs() <= 1e-3 * want[c].abs().max(1.0)
                };
                assert!(
                    close,
                    "{space:?} {format:?} at {i} ({:?}): {got:?} against {want:?}",
                    ramp_at(i)
                );
            }
        }
    }
    assert_eq!(a.errors.load(Ordering::Relaxed), 0, "GPU errors");
}

/// A plain 2D texture of `width`×`height`.
fn plain_texture(
    device: &wgpu::Device,
    (width, height): (u32, u32),
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some("plain"),
        size: wgpu::Extent3d {
            width,
            height,
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

/// A format and colour space that do not go together, HLG, a bad SDR white
/// and a premultiplied PQ output are errors naming what is wrong, and no
/// GPU error follows; SDR output is what `PostChain::new` writes.
#[test]
fn hdr_outputs_that_do_not_go_together_are_refused_by_name() {
    use crate::Output;
    use wgpu::SurfaceColorSpace as S;
    use wgpu::TextureFormat as F;
    let a = app(16);
    let o = crate::options::PREDICTABLE;
    let make = |output: Output, o: &Options| {
        PostChain::with_output(&a.gpu.device, &a.gpu.queue, output, o)
    };
    let refused = |output: Output, o: &Options, words: &[&str]| match make(output, o) {
        Err(Error::Argument(e)) => {
            for w in words {
                assert!(e.message.contains(w), "{output:?}: {} lacks {w}", e.message);
            }
            e.argument
        }
        Err(other) => panic!("{output:?}: {other}"),
        Ok(_) => panic!("{output:?} accepted"),
    };
    let pq8 = Output::new(F::Rgba8Unorm).with_color_space(S::Bt2100Pq);
    assert_eq!(
        refused(pq8, &o, &["Rgba8Unorm", "Bt2100Pq", "Rgb10a2Unorm"]),
        "output"
    );
    let linear8 = Output::new(F::Bgra8UnormSrgb).with_color_space(S::ExtendedSrgbLinear);
    assert_eq!(
        refused(linear8, &o, &["Bgra8UnormSrgb", "ExtendedSrgbLinear"]),
        "output"
    );
    let hlg = Output::new(F::Rgba16Float).with_color_space(S::Bt2100Hlg);
    assert_eq!(refused(hlg, &o, &["Bt2100Hlg"]), "output");
    let auto = Output::new(F::Rgba16Float).with_color_space(S::Auto);
    assert_eq!(refused(auto, &o, &["Auto", "configured"]), "output");
    let dim = Output {
        sdr_white_nits: f32::NAN,
        ..Output::new(F::Rgb10a2Unorm).with_color_space(S::Bt2100Pq)
    };
    assert_eq!(refused(dim, &o, &["203"]), "sdr_white_nits");
    let mut see_through = o;
    see_through.canvas.alpha_mode = AlphaMode::Premultiplied;
    let pq = Output::new(F::Rgb10a2Unorm).with_color_space(S::Bt2100Pq);
    assert_eq!(refused(pq, &see_through, &["Opaque"]), "output");
    // Accepted, then another output: a refused one leaves it writing.
    let mut post = make(pq, &o).unwrap();
    assert!(post.set_output(hlg).is_err());
    post.set_output(Output::new(F::Rgba16Float).with_color_space(S::ExtendedSrgbLinear))
        .unwrap();
    assert_eq!(
        make(Output::new(F::Rgba8UnormSrgb), &o).map(|_| ()).ok(),
        Some(()),
        "sRGB, as new() writes"
    );
    assert_eq!(a.errors.load(Ordering::Relaxed), 0, "GPU errors");
}
