//! Native tests: the HDR chain on a real Vulkan device (lavapipe on a
//! machine without a GPU), pixels read back from the GPU and compared with
//! stated tolerances.
#![allow(clippy::needless_range_loop, clippy::field_reassign_with_default)]

use crate::headless::{vulkan_gpu, Headless};
use crate::options::{
    AlphaMode, BloomMode, BlurMode, ColorSpace, Msaa, Options, Resolve, ToneMapping, Tonemapper,
};
use crate::output::OutputSpec;
use crate::readback::Image;
use crate::Content;
use wgpu::TextureFormat as F;

use super::common::*;

/// The predictable preset (no MSAA, bloom, dither or curve) with a canvas setup.
fn predictable(alpha: AlphaMode, tone: ToneMapping) -> Options {
    let mut o = crate::options::PREDICTABLE;
    o.canvas.alpha_mode = alpha;
    o.canvas.tone_mapping = tone;
    o
}

fn headless(format: F, alpha: AlphaMode, tone: ToneMapping, size: (u32, u32)) -> Headless {
    headless_with(predictable(alpha, tone), format, size)
}

/// Float options for measuring light: rgba16float output, extended range
/// (nothing clamped), no curve, no MSAA, no dither, bloom on.
fn measuring(intensity: f64, blur: BlurMode) -> Options {
    let mut o = predictable(AlphaMode::Opaque, ToneMapping::Extended);
    o.canvas.format = crate::options::CanvasFormat::Rgba16Float;
    o.bloom.enabled = true;
    o.bloom.intensity = intensity;
    o.bloom.blur = blur;
    o
}

/// Linear 0.5 through the -srgb view comes out as 188 (encoded once).
#[test]
fn linear_half_encodes_to_188_on_8bit_outputs() {
    for format in [F::Rgba8Unorm, F::Bgra8Unorm] {
        let mut h = headless(format, AlphaMode::Opaque, ToneMapping::Standard, (64, 48));
        h.set_content(Content::Solid([0.5, 0.5, 0.5, 1.0])).unwrap();
        let img = frame(&h, 0.0);
        assert_eq!((img.width, img.height), (64, 48));
        for (x, y) in [(0, 0), (63, 47), (32, 24)] {
            let p = img.rgba8(x, y);
            for c in 0..3 {
                assert_close(p[c], 188, 2, &format!("{format:?} channel {c} at {x},{y}"));
            }
            assert_eq!(p[3], 255, "opaque alpha");
        }
    }
}

/// The plainest chain: tonemapper 'none', exposure 1, bloom off, with the
/// other defaults (MSAA 4, dithering on), still 188 ± 2.
#[test]
fn srgb_encoding_happens_exactly_once_with_defaults() {
    let mut o = Options::default();
    o.tonemapper = Tonemapper::None;
    o.bloom.enabled = false;
    let mut h = headless_with(o, F::Rgba8Unorm, (32, 32));
    h.set_content(Content::Solid([0.5, 0.5, 0.5, 1.0])).unwrap();
    let img = frame(&h, 0.0);
    for y in 0..32 {
        for x in 0..32 {
            assert_close(img.rgba8(x, y)[1], 188, 2, &format!("pixel {x},{y}"));
        }
    }
}

/// Channels stay in their places (catches an RGBA/BGRA mix-up).
#[test]
fn channel_order_is_preserved() {
    for format in [F::Rgba8Unorm, F::Bgra8Unorm, F::Rgba16Float] {
        let mut h = headless(format, AlphaMode::Opaque, ToneMapping::Standard, (8, 8));
        h.set_content(Content::Solid([1.0, 0.0, 0.0, 1.0])).unwrap();
        let p = frame(&h, 0.0).rgba8(4, 4);
        assert_eq!(p, [255, 0, 0, 255], "{format:?}");
    }
}

/// rgba16float has no -srgb view: the shader encodes, exactly once.
#[test]
fn float_output_is_encoded_by_the_shader() {
    let mut h = headless(
        F::Rgba16Float,
        AlphaMode::Opaque,
        ToneMapping::Standard,
        (16, 16),
    );
    h.set_content(Content::Solid([0.5, 0.5, 0.5, 1.0])).unwrap();
    let p = frame(&h, 0.0).rgba_f32(3, 3);
    for c in 0..3 {
        assert!((p[c] - 0.7354).abs() < 0.002, "channel {c}: {}", p[c]);
    }
    assert_eq!(p[3], 1.0);
}

/// Standard tone mapping clamps; extended keeps values above 1, encoded
/// with the sRGB curve continued past 1.
#[test]
fn extended_keeps_values_above_one() {
    let mut std_h = headless(
        F::Rgba16Float,
        AlphaMode::Opaque,
        ToneMapping::Standard,
        (8, 8),
    );
    std_h
        .set_content(Content::Solid([4.0, 4.0, 4.0, 1.0]))
        .unwrap();
    assert!((frame(&std_h, 0.0).rgba_f32(1, 1)[0] - 1.0).abs() < 1e-3);

    let mut ext = headless(
        F::Rgba16Float,
        AlphaMode::Opaque,
        ToneMapping::Extended,
        (8, 8),
    );
    ext.set_content(Content::Solid([4.0, 4.0, 4.0, 1.0]))
        .unwrap();
    let v = frame(&ext, 0.0).rgba_f32(1, 1)[0];
    let want = 1.055 * 4f32.powf(1.0 / 2.4) - 0.055; // 1.7932
    assert!((v - want).abs() < 0.01, "got {v}, want {want}");
}

/// Premultiplied output: transparent stays alpha 0; half-covered white is
/// stored as encode(1) * 0.5 = 128, so rgb <= alpha, on both the
/// hardware-encoded and the shader-encoded path.
#[test]
fn premultiplied_output_is_valid() {
    for format in [F::Rgba8Unorm, F::Rgba16Float] {
        let mut h = headless(
            format,
            AlphaMode::Premultiplied,
            ToneMapping::Standard,
            (8, 8),
        );
        h.set_content(Content::Solid([0.0, 0.0, 0.0, 0.0])).unwrap();
        assert_eq!(
            frame(&h, 0.0).rgba8(2, 2),
            [0, 0, 0, 0],
            "{format:?} transparent"
        );

        h.set_content(Content::Solid([0.5, 0.5, 0.5, 0.5])).unwrap();
        let p = frame(&h, 0.0).rgba8(2, 2);
        assert_close(p[3], 128, 1, "alpha");
        for c in 0..3 {
            assert_close(
                p[c],
                128,
                2,
                &format!("{format:?} premultiplied channel {c}"),
            );
            assert!(p[c] <= p[3], "{format:?}: rgb {} > alpha {}", p[c], p[3]);
        }
    }
}

/// The demo scene with bloom over a transparent canvas: every pixel is a
/// valid premultiplied colour (rgb <= alpha), and the glow reaches the
/// transparent background as light (partial alpha), not as a dark halo.
#[test]
fn premultiplied_bloom_keeps_rgb_at_most_alpha() {
    for format in [F::Rgba8Unorm, F::Rgba16Float] {
        let mut o = Options::default();
        o.canvas.alpha_mode = AlphaMode::Premultiplied;
        o.bloom.intensity = 2.0;
        let h = headless_with(o, format, (160, 120));
        let glow = check_premultiplied(&frame(&h, 1.0), &format!("{format:?}"));
        assert!(
            glow > 50,
            "{format:?}: partially transparent glow pixels: {glow}"
        );
    }
}

/// Opaque output writes alpha 1 even where the content is transparent.
#[test]
fn opaque_output_has_full_alpha() {
    let mut h = headless(
        F::Rgba8Unorm,
        AlphaMode::Opaque,
        ToneMapping::Standard,
        (8, 8),
    );
    h.set_content(Content::Solid([0.0, 0.0, 0.0, 0.0])).unwrap();
    assert_eq!(frame(&h, 0.0).rgba8(0, 0), [0, 0, 0, 255]);
}

/// The demo scene is lit, HDR, depth-tested geometry, and animated.
#[test]
fn demo_scene_renders_and_animates() {
    let h = headless_with(Options::default(), F::Rgba8Unorm, (160, 100));
    let a = frame(&h, 0.0);
    let b = frame(&h, 1.0);
    let lit = a
        .data
        .chunks(4)
        .filter(|p| p[0].max(p[1]).max(p[2]) > 200)
        .count();
    assert!(lit > 20, "bright pixels: {lit}");
    let dark = a
        .data
        .chunks(4)
        .filter(|p| p[0].max(p[1]).max(p[2]) < 64)
        .count();
    // At this size the widest bloom level spans the frame, and at the
    // default intensity its haze lifts the far corners to about 40/255
    // under AgX; 2.5 % of the pixels stay below a quarter of white.
    assert!(dark > 400, "the background stays dark: {dark}");
    let changed = a.data.iter().zip(&b.data).filter(|(x, y)| x != y).count();
    assert!(
        changed > 100,
        "changed bytes between t=0 and t=1: {changed}"
    );
}

/// A device that computes its largest images (a GPU; lavapipe draws them
/// unless told) writes what one that draws them writes: the bloom's
/// largest steps, and the composite into an output that allows storage
/// (an rgba8unorm or rgba16float canvas). The demo scene with every
/// default on (bloom, AgX, dither), opaque and premultiplied, and the pass
/// that resumes a frame split for FXAA or SMAA, within one 8-bit step (the
/// -srgb view's rounding against the shader's own encoding) and 1e-3 on a
/// float output.
#[test]
fn the_composite_computed_into_the_output_writes_what_it_draws() {
    use crate::options::Antialias;
    for (format, alpha, antialias) in [
        (F::Rgba8Unorm, AlphaMode::Opaque, Antialias::None),
        (F::Rgba8Unorm, AlphaMode::Premultiplied, Antialias::None),
        (F::Rgba16Float, AlphaMode::Opaque, Antialias::None),
        (F::Rgba8Unorm, AlphaMode::Opaque, Antialias::Fxaa),
        (F::Rgba8Unorm, AlphaMode::Premultiplied, Antialias::Smaa),
    ] {
        let mut options = Options::default();
        options.canvas.alpha_mode = alpha;
        options.antialias = antialias;
        let drawn = headless_with(options, format, (96, 64));
        let spec = drawn.chain.output().written_by_compute();
        assert!(spec.storage, "{format:?} allows storage");
        assert!(!drawn.gpu.compute_images, "lavapipe draws them");
        let mut gpu = pollster::block_on(vulkan_gpu()).expect("a Vulkan adapter");
        gpu.compute_images = true;
        let computed = Headless::new(gpu, spec, options, (96, 64)).expect("renderer");
        let (a, b) = (frame(&drawn, 1.0), frame(&computed, 1.0));
        let what = format!("{format:?} {alpha:?} {antialias:?}");
        let bind_groups = |h: &Headless| {
            h.gpu
                .counters
                .canvas_bind_groups
                .load(std::sync::atomic::Ordering::Relaxed)
        };
        assert_eq!(bind_groups(&drawn), 0, "{what}: drawn");
        assert!(bind_groups(&computed) > 0, "{what}: computed");
        let mut worst = 0.0f32;
        for y in 0..a.height {
            for x in 0..a.width {
                let (p, q) = if format == F::Rgba16Float {
                    (a.rgba_f32(x, y), b.rgba_f32(x, y))
                } else {
                    let (p, q) = (a.rgba8(x, y), b.rgba8(x, y));
                    (p.map(|v| v as f32 / 255.0), q.map(|v| v as f32 / 255.0))
                };
                for c in 0..4 {
                    worst = worst.max((p[c] - q[c]).abs());
                }
            }
        }
        let allowed = if format == F::Rgba16Float {
            1e-3
        } else {
            1.0 / 255.0 + 1e-6
        };
        assert!(worst <= allowed, "{what}: largest difference {worst}");
    }
}

/// Resizing rebuilds the targets; 0×0 skips frames without error.
#[test]
fn resize_and_zero_size() {
    let mut h = headless(
        F::Rgba8Unorm,
        AlphaMode::Opaque,
        ToneMapping::Standard,
        (32, 32),
    );
    h.set_content(Content::Solid([0.5, 0.5, 0.5, 1.0])).unwrap();
    h.resize((0, 0)).unwrap();
    assert!(!h.render(0.0), "a 0×0 frame must be skipped");
    h.resize((17, 5)).unwrap();
    let img = frame(&h, 0.0);
    assert_eq!((img.width, img.height), (17, 5));
    assert_close(img.rgba8(16, 4)[0], 188, 2, "after resize");
}

/// Light entirely below the threshold (and its knee) gets no bloom: the
/// output is bit-identical to the output with bloom off.
#[test]
fn below_threshold_gets_no_bloom() {
    let content = below_threshold(64);
    for blur in [BlurMode::Mip, BlurMode::Gaussian] {
        let mut on = measuring(3.0, blur);
        on.bloom.threshold = 1.0;
        on.bloom.knee = 0.5; // soft knee starts at 0.5
        let mut off = on;
        off.bloom.enabled = false;
        let mut a = headless_with(on, F::Rgba16Float, (64, 64));
        a.set_content(content.clone()).unwrap();
        let mut b = headless_with(off, F::Rgba16Float, (64, 64));
        b.set_content(content.clone()).unwrap();
        assert_eq!(frame(&a, 0.0).data, frame(&b, 0.0).data, "{blur:?}");
    }
}

/// One bright pixel on black: a halo that is symmetric and falls off
/// monotonically with distance, in both blur modes.
#[test]
fn bright_pixel_halo_is_symmetric_and_monotonic() {
    for blur in [BlurMode::Mip, BlurMode::Gaussian] {
        // Eight Gaussian iterations at twice the radius: a glow wide enough
        // that the half-pixel offset is a small part of it.
        let mut o = measuring(1.0, blur);
        if blur == BlurMode::Gaussian {
            o.bloom.iterations = 8;
            o.bloom.radius = 2.0;
        }
        let mut h = headless_with(o, F::Rgba16Float, (128, 128));
        h.set_content(bright_pixel(128, (65, 65), 200.0)).unwrap();
        check_halo(&frame(&h, 0.0), 65, &format!("{blur:?}"));
    }
}

/// Wherever a pixel falls in its 4×4 box of the bloom base (all 16
/// positions), its halo sits on it: the halo's centre within 0.25 px of the
/// pixel's, and 4 px to its left and right, above and below, within 10 %
/// of each other. (A box extract put the halo on the box's centre: up to
/// 2.4 px off, and 8× brighter on one side than on the other.)
#[test]
fn a_pixels_halo_sits_on_it_wherever_it_falls_in_its_box() {
    for blur in [BlurMode::Mip, BlurMode::Gaussian] {
        let mut h = headless_with(measuring(1.0, blur), F::Rgba16Float, (128, 128));
        let (mut worst_off, mut worst_ratio) = (0.0f64, 0.0f64);
        for dy in 0..4 {
            for dx in 0..4 {
                let at = (64 + dx, 64 + dy);
                h.set_content(bright_pixel(128, at, 200.0)).unwrap();
                let (off, ratio) = halo_balance(&frame(&h, 0.0), at);
                assert!(
                    off <= 0.25,
                    "{blur:?} at {at:?}: halo centre {off:.2} px off"
                );
                assert!(
                    ratio <= 1.1,
                    "{blur:?} at {at:?}: 4 px either side differ {ratio:.3}×"
                );
                worst_off = worst_off.max(off);
                worst_ratio = worst_ratio.max(ratio);
            }
        }
        println!("{blur:?}: halo centre at most {worst_off:.3} px off, mirror ratio at most {worst_ratio:.3}");
    }
}

/// Wherever a pixel falls in its 4×4 box of the bloom base (all 16
/// positions), its halo is round: 4 px and 8 px away to the left, right,
/// above and below, the largest value within 10 % of the smallest (linear
/// light). A quadratic splat read back by one bilinear sample per pixel
/// was 59–65 % stronger along one axis than across it in the middle of a
/// box's edge.
#[test]
fn a_pixels_halo_is_round_wherever_it_falls_in_its_box() {
    for blur in [BlurMode::Mip, BlurMode::Gaussian] {
        let mut h = headless_with(measuring(1.0, blur), F::Rgba16Float, (128, 128));
        let mut worst = 0.0f64;
        for dy in 0..4 {
            for dx in 0..4 {
                let at = (64 + dx, 64 + dy);
                h.set_content(bright_pixel(128, at, 200.0)).unwrap();
                let r = halo_roundness(&frame(&h, 0.0), at);
                println!("{blur:?} at {at:?}: roundness {r:.3}");
                worst = worst.max(r);
            }
        }
        println!("{blur:?}: largest over smallest at most {worst:.3}");
        assert!(
            worst <= 1.1,
            "{blur:?}: halo {worst:.3}× stronger along one axis"
        );
    }
}

/// More intensity, more energy around the bright pixel.
#[test]
fn more_intensity_more_energy() {
    let mut last = 0.0;
    for intensity in [0.25, 1.0, 4.0] {
        let mut h = headless_with(
            measuring(intensity, BlurMode::Mip),
            F::Rgba16Float,
            (96, 96),
        );
        h.set_content(bright_pixel(96, (48, 48), 100.0)).unwrap();
        let e = energy(&frame(&h, 0.0), (48, 48));
        assert!(
            e > last * 1.5,
            "intensity {intensity}: energy {e} not above {last}"
        );
        last = e;
    }
}

/// With bloom off the output is the HDR image alone: black stays exactly
/// black next to the bright pixel, and the pixel keeps its value.
#[test]
fn bloom_disabled_leaves_the_image_untouched() {
    let mut o = measuring(1.0, BlurMode::Mip);
    o.bloom.enabled = false;
    let mut h = headless_with(o, F::Rgba16Float, (64, 64));
    h.set_content(bright_pixel(64, (32, 32), 100.0)).unwrap();
    let img = frame(&h, 0.0);
    let want = 1.055 * 100f32.powf(1.0 / 2.4) - 0.055;
    assert!(
        (red(&img, 32, 32) - want).abs() < 0.02,
        "center {}",
        red(&img, 32, 32)
    );
    assert_eq!(energy(&img, (32, 32)), 0.0);
}

/// Every tonemapper maps 0 to 0, is monotonic, and stays in [0, 1] for
/// inputs up to 1e4.
#[test]
fn tonemappers_are_monotonic_and_bounded() {
    let n = 256;
    let mut at_one = Vec::new();
    for t in [
        Tonemapper::Agx,
        Tonemapper::Aces,
        Tonemapper::KhronosNeutral,
        Tonemapper::Reinhard,
        Tonemapper::None,
    ] {
        let mut o = predictable(AlphaMode::Opaque, ToneMapping::Standard);
        o.tonemapper = t;
        let mut h = headless_with(o, F::Rgba16Float, (n, 1));
        h.set_content(ramp(n)).unwrap();
        let v = check_tonemapped_ramp(&frame(&h, 0.0), &format!("{t:?}"));
        at_one.push((format!("{t:?}"), v));
    }
    check_curves_differ(&at_one);
}

/// A white square on black: MSAA 4 gives intermediate coverage values along
/// its edges; MSAA 1 gives none.
#[test]
fn msaa_antialiases_geometric_edges() {
    let count = |msaa| {
        let mut o = predictable(AlphaMode::Opaque, ToneMapping::Standard);
        o.msaa = msaa;
        let mut h = headless_with(o, F::Rgba8Unorm, (96, 96));
        h.set_content(Content::Shape([1.0, 1.0, 1.0, 1.0])).unwrap();
        partial_edge_pixels(&frame(&h, 0.0), &format!("{msaa:?}"))
    };
    assert_eq!(
        count(Msaa::Off),
        0,
        "msaa 1 must not produce intermediate values"
    );
    let partial = count(Msaa::X4);
    assert!(
        partial > 60,
        "msaa 4 edge pixels with partial coverage: {partial}"
    );
}

/// A very bright square: the hardware resolve averages linear HDR, so after
/// tonemapping its edges stay nearly as bright as the inside (aliased);
/// the tonemap-aware resolve keeps a coverage gradient.
#[test]
fn tonemapped_resolve_keeps_bright_edges_antialiased() {
    let edge_levels = |resolve| {
        let mut o = predictable(AlphaMode::Opaque, ToneMapping::Standard);
        o.msaa = Msaa::X4;
        o.resolve = resolve;
        o.tonemapper = Tonemapper::Reinhard;
        let mut h = headless_with(o, F::Rgba8Unorm, (96, 96));
        h.set_content(Content::Shape([50.0, 50.0, 50.0, 1.0]))
            .unwrap();
        let img = frame(&h, 0.0);
        // Edge pixels: neither background nor the fully covered inside.
        let inside = img.rgba8(48, 48)[0];
        let edge: Vec<u8> = img
            .data
            .chunks(4)
            .map(|p| p[0])
            .filter(|&v| v > 8 && v < inside.saturating_sub(3))
            .collect();
        (inside, edge)
    };
    let (inside_hw, edge_hw) = edge_levels(Resolve::Hardware);
    let (inside_tm, edge_tm) = edge_levels(Resolve::Tonemapped);
    assert!(
        inside_hw.abs_diff(inside_tm) <= 1,
        "{inside_hw} vs {inside_tm}"
    );
    let mid = |e: &[u8]| e.iter().filter(|&&v| v < 200).count();
    assert!(
        mid(&edge_tm) > 2 * mid(&edge_hw) + 20,
        "tonemapped resolve: {} mid-level edge pixels, hardware: {}",
        mid(&edge_tm),
        mid(&edge_hw)
    );
}

/// One NaN (or Inf) pixel does not spread: the frame equals the frame
/// with that pixel black everywhere except the pixel itself.
#[test]
fn one_nan_pixel_does_not_spread() {
    for blur in [BlurMode::Mip, BlurMode::Gaussian] {
        let mut o = measuring(1.0, blur);
        o.canvas.tone_mapping = ToneMapping::Standard;
        o.tonemapper = Tonemapper::Agx;
        let mut clean = headless_with(o, F::Rgba16Float, (64, 64));
        clean.set_content(scene_with(0.0)).unwrap();
        let want = frame(&clean, 0.0);
        for bad in [f32::NAN, f32::INFINITY] {
            let mut h = headless_with(o, F::Rgba16Float, (64, 64));
            h.set_content(scene_with(bad)).unwrap();
            check_same_except_near(
                &frame(&h, 0.0),
                &want,
                BAD_PIXEL,
                &format!("{blur:?} {bad}"),
            );
        }
    }
}

/// Every shape of the chain renders at awkward sizes without a GPU error,
/// and writes finite values.
#[test]
fn all_chains_render_at_odd_sizes() {
    let mut variants = Vec::new();
    for blur in [BlurMode::Mip, BlurMode::Gaussian] {
        for (msaa, resolve) in [
            (Msaa::X4, Resolve::Hardware),
            (Msaa::X4, Resolve::Tonemapped),
            (Msaa::Off, Resolve::Hardware),
        ] {
            let mut o = Options::default();
            o.bloom.blur = blur;
            o.msaa = msaa;
            o.resolve = resolve;
            variants.push(o);
        }
    }
    for o in variants {
        let mut h = headless_with(o, F::Rgba8Unorm, (1, 1));
        for size in [(1, 1), (3, 7), (1366, 768)] {
            h.resize(size).unwrap();
            let img = frame(&h, 0.5);
            assert_eq!((img.width, img.height), size);
            let names = h.chain.pass_names();
            assert_eq!(names.first().map(String::as_str), Some("scene"));
            assert_eq!(names.last().map(String::as_str), Some("composite"));
        }
    }
}

/// After warm-up a frame creates no texture, view, bind group, pipeline or
/// buffer, in every chain shape.
#[test]
fn frames_create_no_gpu_objects() {
    for (blur, resolve) in [
        (BlurMode::Mip, Resolve::Hardware),
        (BlurMode::Gaussian, Resolve::Tonemapped),
    ] {
        let mut o = Options::default();
        o.bloom.blur = blur;
        o.resolve = resolve;
        let h = headless_with(o, F::Rgba8Unorm, (64, 48));
        assert!(h.render(0.0), "the warm-up frame rendered");
        let before = h.gpu.counters.snapshot();
        for i in 0..5 {
            assert!(h.render(i as f64 * 0.1), "frame {i} rendered");
        }
        let delta = h.gpu.counters.snapshot().since(&before);
        check_frame_objects(&delta, 5, false, &format!("{blur:?} {resolve:?}"));
        assert_eq!(h.gpu.error_count(), 0);
    }
}

/// Only content drawn as geometry has a depth attachment: a scene shader
/// (one full-screen triangle) has none, and switching between the two
/// rebuilds the frame with or without it, with no GPU error either way.
#[test]
fn only_geometry_has_a_depth_attachment() {
    for msaa in [Msaa::Off, Msaa::X4] {
        let o = Options {
            msaa,
            ..Options::default()
        };
        let mut h = headless_with(o, F::Rgba8Unorm, (64, 48));
        let depth = |h: &Headless| h.chain.graph().unwrap().passes[0].depth.is_some();
        assert!(
            depth(&h),
            "{msaa:?}: the demo scene is tested against depth"
        );
        let shader =
            "fn scene(uv: vec2f, time: f32) -> vec4f { return vec4f(uv.x, 0.0, 0.1, 1.0); }";
        h.set_content(Content::Shader(shader.into())).unwrap();
        let img = frame(&h, 0.0);
        assert!(
            !depth(&h),
            "{msaa:?}: a scene shader has no depth attachment"
        );
        let p = img.rgba_f32(63, 24);
        assert!(p[0] > p[2], "{msaa:?}: the shader's frame is shown: {p:?}");
        h.set_content(Content::DemoScene).unwrap();
        frame(&h, 0.0);
        assert!(depth(&h), "{msaa:?}: back to the demo, depth again");
        // A prepared shader installed over the demo (the web's path).
        let prepared = h.chain.prepare_shader(&h.gpu, shader);
        h.chain.install_shader(&h.gpu, prepared).unwrap();
        frame(&h, 0.0);
        assert!(!depth(&h), "{msaa:?}: an installed shader has none");
        h.set_content(Content::Solid([0.5, 0.2, 0.1, 1.0])).unwrap();
        frame(&h, 0.0);
        assert!(!depth(&h), "{msaa:?}: a full-screen fixture has none");
        assert_eq!(h.gpu.error_count(), 0, "{msaa:?}");
    }
}

/// Where the frame is not a whole number of bloom boxes (126 px over
/// boxes of 4: the base covers 128), the composite reads the bloom where
/// the frame's pixels fell: a pixel's halo in a 126×126 frame is the halo
/// of the same pixel in a 128×128 frame, whose base is the same 32×32.
#[test]
fn a_frame_of_partial_boxes_reads_its_bloom_in_place() {
    let halo = |size: u32| {
        let mut h = headless_with(measuring(1.0, BlurMode::Mip), F::Rgba16Float, (size, size));
        h.set_content(bright_pixel(size, (101, 97), 200.0)).unwrap();
        assert_eq!(h.gpu.error_count(), 0);
        frame(&h, 0.0)
    };
    let (a, b) = (halo(126), halo(128));
    let mut worst = 0.0f32;
    for y in 60..126u32 {
        for x in 60..126u32 {
            if x.abs_diff(101) > 1 || y.abs_diff(97) > 1 {
                worst = worst.max((red(&a, x, y) - red(&b, x, y)).abs());
            }
        }
    }
    assert!(red(&a, 110, 97) > 1e-2, "a halo around the pixel");
    assert!(worst <= 2e-3, "the halos differ by {worst}");
}

/// The frame's pass graph: the bloom chain renders each mip through its own
/// view, its largest steps drawn or computed as the device prefers, and
/// the graph the frame records validates.
#[test]
fn the_frame_graph_names_every_pass() {
    for compute in [false, true] {
        // 256×128: a 64×32 bloom base (a quarter), 7 levels less the 3 a
        // base below the reference height loses.
        let mut gpu = pollster::block_on(vulkan_gpu()).expect("a Vulkan adapter");
        gpu.compute_images = compute;
        let output = OutputSpec::new(
            F::Rgba8Unorm,
            Default::default(),
            Default::default(),
            Default::default(),
        )
        .expect("valid output");
        let h = Headless::new(gpu, output, Options::default(), (256, 128)).expect("renderer");
        let names = h.chain.pass_names();
        assert_eq!(
            names,
            [
                "scene",
                "bloom extract",
                "bloom centre",
                "bloom downsample 1",
                "bloom downsample 2",
                "bloom downsample 3",
                "bloom upsample 2",
                "bloom upsample 1",
                "bloom upsample 0",
                "bloom fine",
                "composite"
            ]
        );
        let g = h.chain.graph().unwrap();
        assert_eq!(g.validate(), Ok(()));
        // What a step writes: a storage texture, or its colour attachment.
        let written = |p: &crate::graph::PassDecl| match compute {
            true => g.view_name(&p.storage[0]),
            false => g.view_name(&p.colors[0].view),
        };
        // The extract makes boxes, the centre pass moves their light into the base.
        let (extract, centre) = (&g.passes[1], &g.passes[2]);
        assert_eq!(written(extract), "bloom extract");
        assert_eq!(g.view_name(&centre.sampled[0]), "bloom extract");
        assert_eq!(written(centre), "bloom base");
        assert_eq!(g.view_name(&g.passes[3].sampled[0]), "bloom base");
        let down2 = &g.passes[4];
        assert_eq!(g.view_name(&down2.colors[0].view), "bloom mip 2");
        assert_eq!(g.view_name(&down2.sampled[0]), "bloom mip 1");
        // The last upsample smooths the base into mip 0, which is read
        // into the target twice its size that the composite reads.
        let (up0, fine) = (&g.passes[8], &g.passes[9]);
        assert_eq!(g.view_name(&up0.sampled[1]), "bloom base");
        assert_eq!(written(up0), "bloom mip 0");
        assert_eq!(g.view_name(&fine.sampled[0]), "bloom mip 0");
        assert_eq!(written(fine), "bloom fine");
        assert_eq!(g.view_name(&g.passes[10].sampled[1]), "bloom fine");
    }
}

/// Per-pass GPU times arrive from timestamp queries, one per pass, named
/// like the passes, non-negative.
#[test]
fn pass_times_are_reported_per_pass() {
    let mut h = headless_with(Options::default(), F::Rgba8Unorm, (64, 48));
    // Off until asked for: no timestamps are written.
    assert!(!h.chain.timing());
    h.render(0.0);
    h.gpu
        .device
        .poll(wgpu::PollType::wait_indefinitely())
        .unwrap();
    assert_eq!(h.chain.pass_times(), None, "no times while timing is off");
    h.chain.set_timing(&h.gpu, true);
    // lavapipe and the browsers used here have timestamp queries.
    assert!(h.gpu.features.contains(wgpu::Features::TIMESTAMP_QUERY));
    let mut times = None;
    for i in 0..5 {
        h.render(i as f64);
        h.gpu
            .device
            .poll(wgpu::PollType::wait_indefinitely())
            .unwrap();
        times = h.chain.pass_times().or(times);
    }
    let times = times.expect("timestamps after five frames");
    let names: Vec<String> = times.iter().map(|(n, _)| n.clone()).collect();
    assert_eq!(names, h.chain.pass_names());
    assert!(
        times.iter().all(|(_, ms)| *ms >= 0.0 && ms.is_finite()),
        "{times:?}"
    );
    assert!(
        times.iter().map(|(_, ms)| ms).sum::<f64>() > 0.0,
        "{times:?}"
    );
    assert_eq!(h.gpu.error_count(), 0);
}

/// A 'display-p3' canvas gets P3 values: sRGB red becomes (0.8225, 0.0332,
/// 0.0171) linear in P3 primaries, encoded (234, 51, 35); white and greys
/// are unchanged.
#[test]
fn display_p3_output_converts_primaries() {
    let mut o = predictable(AlphaMode::Opaque, ToneMapping::Standard);
    o.canvas.color_space = crate::options::ColorSpace::DisplayP3;
    let mut h = headless_with(o, F::Rgba8Unorm, (8, 8));
    h.set_content(Content::Solid([1.0, 0.0, 0.0, 1.0])).unwrap();
    let p = frame(&h, 0.0).rgba8(3, 3);
    for (c, want) in [234u8, 51, 35].into_iter().enumerate() {
        assert_close(p[c], want, 2, &format!("P3 red channel {c}"));
    }
    h.set_content(Content::Solid([0.5, 0.5, 0.5, 1.0])).unwrap();
    let p = frame(&h, 0.0).rgba8(3, 3);
    for c in 0..3 {
        assert_close(p[c], 188, 2, &format!("P3 grey channel {c}"));
    }
}

/// The HDR slot: an effect between bloom and composite reads the current
/// HDR image and writes a second HDR target, which becomes current; the
/// second target is allocated once per frame, only when asked for, and the
/// two alternate after that.
#[test]
fn an_hdr_effect_swaps_between_two_targets() {
    use crate::frame::{FrameBuilder, HDR_FORMAT};
    let gpu = pollster::block_on(vulkan_gpu()).expect("lavapipe");
    let settings = Options::default();
    let output = OutputSpec::new(
        F::Rgba8Unorm,
        AlphaMode::Opaque,
        ToneMapping::Standard,
        Default::default(),
    )
    .unwrap();
    let mut f = FrameBuilder::new(&gpu, &settings, &output, (32, 16), (32, 16));
    assert!(f.hdr("effect").is_err(), "no HDR image before the scene");
    assert!(f.swap_hdr("effect").is_err());
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
    let first = f
        .texture("hdr target", (32, 16), HDR_FORMAT, 1, 1, usage)
        .unwrap();
    let first = f.view(&first, 0);
    f.set_hdr(first.clone());
    let textures_before = gpu.counters.snapshot().textures;
    let (read, write) = f.swap_hdr("effect 1").unwrap();
    assert_eq!(read.decl, first.decl, "reads the scene's image");
    assert_ne!(write.decl.texture, read.decl.texture);
    assert_eq!(
        f.hdr("composite").unwrap().decl,
        write.decl,
        "the written one is current"
    );
    // The scene's image cannot be stored to (it is not made for it, which
    // would cost its own pass on some GPUs), so an effect never writes it;
    // from the second effect on, the effects' two targets alternate.
    let (read2, write2) = f.swap_hdr("effect 2").unwrap();
    assert_eq!(read2.decl, write.decl);
    assert_ne!(write2.decl.texture, first.decl.texture);
    assert_ne!(write2.decl.texture, write.decl.texture);
    let (read3, write3) = f.swap_hdr("effect 3").unwrap();
    assert_eq!(read3.decl, write2.decl);
    assert_eq!(write3.decl, write.decl, "the two targets alternate");
    assert_eq!(
        gpu.counters.snapshot().textures - textures_before,
        2,
        "two targets of the effects' own for any number of effects"
    );
    let frame = f.finish().unwrap();
    assert_eq!(frame.textures.len(), 3);
}

/// Bloom that holds still: a small bright dot moving by sub-pixel steps
/// blooms in proportion to the pixels it lights (steady halo per lit
/// pixel) and linearly in its radiance.
#[test]
fn a_moving_subpixel_light_blooms_steadily_and_linearly() {
    let (mut totals, mut steady) = (vec![], vec![]);
    for radiance in [15.0f32, 30.0] {
        let mut h = headless_with(measuring(1.0, BlurMode::Mip), F::Rgba16Float, DOT_SIZE);
        h.set_content(Content::Shader(dot_shader(radiance)))
            .unwrap();
        let mut per_frame = vec![];
        for i in 0..DOT_FRAMES {
            let img = frame(&h, i as f64);
            let e = halo_energy(i, |x, y| {
                let p = img.rgba_f32(x, y).map(srgb_to_linear);
                (p[0] + p[1] + p[2]) / 3.0
            });
            per_frame.push((e, lit_pixels(i)));
        }
        let lit: Vec<u32> = per_frame.iter().map(|p| p.1).collect();
        assert!(lit.contains(&1) && lit.iter().any(|&n| n >= 3), "{lit:?}");
        let (mean, cv) = steadiness(&per_frame);
        if std::env::var_os("AFTERGLOW_DOT_DETAIL").is_some() {
            for (i, (e, lit)) in per_frame.iter().enumerate() {
                println!(
                    "  frame {i}: lit {lit}, halo {e:.2}, per lit {:.3}",
                    e / *lit as f64
                );
            }
        }
        println!("radiance {radiance}: halo per lit pixel {mean:.4}, variation {cv:.4}");
        steady.push((radiance, mean, cv));
        totals.push(per_frame.iter().map(|p| p.0).sum::<f64>());
    }
    let ratio = totals[1] / totals[0];
    println!("halo at 30 / at 15: {ratio:.3}");
    for (radiance, mean, cv) in steady {
        assert!(mean > 0.0, "radiance {radiance}: no halo");
        assert!(
            cv <= 0.01,
            "radiance {radiance}: halo per lit pixel varies by {cv:.3}"
        );
    }
    assert!(
        (1.8..=2.2).contains(&ratio),
        "halo grows {ratio:.2}× for 2× radiance"
    );
}

/// A single extreme pixel (1e4, 1e6) blooms, but no more than a pixel at
/// the bright extract's soft ceiling (1000): it cannot flood the frame.
#[test]
fn an_extreme_pixel_is_bounded_by_the_ceiling() {
    let mut o = measuring(1.0, BlurMode::Mip);
    o.canvas.tone_mapping = ToneMapping::Extended;
    let glow = |value: f32| {
        let mut h = headless_with(o, F::Rgba16Float, (64, 64));
        h.set_content(scene_with(value)).unwrap();
        let img = frame(&h, 0.0);
        // Light outside the 3×3 around the pixel: its bloom only.
        let mut sum = 0.0f64;
        for y in 0..64u32 {
            for x in 0..64u32 {
                if x.abs_diff(BAD_PIXEL.0) > 1 || y.abs_diff(BAD_PIXEL.1) > 1 {
                    let p = img.rgba_f32(x, y).map(srgb_to_linear);
                    assert!(p.iter().all(|v| v.is_finite()), "{value}: {p:?} at {x},{y}");
                    sum += p[0] as f64;
                }
            }
        }
        sum
    };
    let base = glow(0.0);
    let ceiling = glow(1000.0) - base;
    for value in [1e4f32, 1e6, 1e30] {
        let extra = glow(value) - base;
        assert!(extra > 0.0, "{value} blooms");
        assert!(
            extra <= 2.05 * ceiling,
            "{value}: its bloom {extra:.1} exceeds the ceiling's {ceiling:.1} by too much"
        );
    }
}

/// The chain rebuilds its frame (new bind groups) exactly for a change of
/// an option the table marks `Rebuild`, and only rewrites uniforms for one
/// it marks `Uniforms`: every such option, changed one at a time from the
/// defaults, on a real chain.
#[test]
fn the_chain_rebuilds_exactly_where_the_table_says() {
    use crate::options::{reshapes, schema, Effect, Kind, Literal};
    let base = Options::default();
    let mut h = headless_with(base, F::Rgba8Unorm, (64, 48));
    let mut checked = 0;
    for spec in schema().iter() {
        if !matches!(spec.effect, Effect::Rebuild | Effect::Uniforms) {
            continue;
        }
        let current = (spec.access.get)(&base);
        let candidates: Vec<Literal> = match spec.kind {
            Kind::Bool => vec![Literal::Bool(true), Literal::Bool(false)],
            Kind::Choice(names) => names.iter().map(|n| Literal::Str(n)).collect(),
            Kind::Count { values, .. } => values.iter().map(|v| Literal::Num(*v as f64)).collect(),
            Kind::Number { min, max, .. } => {
                vec![Literal::Num(max), Literal::Num((min + max) / 2.0)]
            }
            Kind::Integer { min, max } => vec![Literal::Num(min as f64), Literal::Num(max as f64)],
        };
        for value in candidates.into_iter().filter(|v| *v != current) {
            let mut next = base;
            (spec.access.set)(&mut next, value);
            if next.validate().is_err() {
                continue;
            }
            let before = h.gpu.counters.snapshot();
            h.set_settings(next).unwrap();
            let rebuilt = h.gpu.counters.snapshot().since(&before).bind_groups > 0;
            assert_eq!(
                rebuilt,
                reshapes(&base, &next),
                "{} = {:?}: rebuilt {rebuilt}, the table says otherwise",
                spec.path,
                value
            );
            h.set_settings(base).unwrap();
            checked += 1;
        }
    }
    assert!(checked >= 12, "{checked} changes checked");
    assert_eq!(h.gpu.error_count(), 0);
}

/// HSV hue of a linear colour, in degrees (it depends only on the ratios
/// of the channels).
fn hue(c: [f32; 3]) -> f32 {
    let (max, min) = (c[0].max(c[1]).max(c[2]), c[0].min(c[1]).min(c[2]));
    let d = max - min;
    let h = if max == c[0] {
        ((c[1] - c[2]) / d).rem_euclid(6.0)
    } else if max == c[1] {
        (c[2] - c[0]) / d + 2.0
    } else {
        (c[0] - c[1]) / d + 4.0
    };
    60.0 * h
}

/// Radiance along the ramps of [`headroom_frame`]: 1e-3 to 1e4, log spaced.
fn headroom_radiance(x: u32) -> f32 {
    10f32.powf(-3.0 + 7.0 * x as f32 / 255.0)
}

/// Linear output of 256×4 ramps (grey, orange, green-blue, deep red) at
/// radiance 1e-3 to 1e4 through `curve` on an extended rgba16float output
/// with `headroom`.
fn headroom_frame(curve: Tonemapper, headroom: f64, alpha: AlphaMode) -> Vec<Vec<[f32; 3]>> {
    let mut o = predictable(alpha, ToneMapping::Extended);
    o.tonemapper = curve;
    o.canvas.headroom = headroom;
    let mut h = headless_with(o, F::Rgba16Float, (256, 4));
    const TINTS: [[f32; 3]; 4] = [
        [1.0, 1.0, 1.0],
        [1.0, 0.35, 0.05],
        [0.05, 0.8, 1.0],
        [1.0, 0.02, 0.02],
    ];
    h.set_content(pixels(256, 4, |x, y| {
        let t = TINTS[y as usize];
        let r = headroom_radiance(x);
        [t[0] * r, t[1] * r, t[2] * r, 1.0]
    }))
    .unwrap();
    let img = frame(&h, 0.0);
    (0..4)
        .map(|y| {
            (0..256)
                .map(|x| {
                    let p = img.rgba_f32(x, y);
                    [srgb_decode(p[0]), srgb_decode(p[1]), srgb_decode(p[2])]
                })
                .collect()
        })
        .collect()
}

/// On the extended path each curve keeps the SDR picture (every pixel whose
/// SDR result is below 0.8 unchanged, within f16 rounding), grows brighter
/// (luminance) monotonically along every ramp, reaches at least 0.95 × headroom for very bright light,
/// and keeps each colour's hue (within 2°, measured: within f16 rounding).
#[test]
fn curves_keep_the_sdr_picture_and_reach_the_headroom() {
    for curve in [
        Tonemapper::Agx,
        Tonemapper::Aces,
        Tonemapper::KhronosNeutral,
        Tonemapper::Reinhard,
    ] {
        let sdr = headroom_frame(curve, 1.0, AlphaMode::Opaque);
        let hdr = headroom_frame(curve, 4.0, AlphaMode::Opaque);
        let mut sdr_pixels = 0;
        for (row, (s_row, h_row)) in sdr.iter().zip(&hdr).enumerate() {
            let (mut last, mut brightest) = (0.0f32, 0.0f32);
            for (x, (s, h)) in s_row.iter().zip(h_row).enumerate() {
                let what = format!("{curve:?} row {row} x {x}");
                let s_max = s[0].max(s[1]).max(s[2]);
                let h_max = h[0].max(h[1]).max(h[2]);
                assert!(s_max <= 1.0 + 1e-3, "{what}: SDR result {s_max} above 1");
                if s_max < 0.8 {
                    sdr_pixels += 1;
                    for c in 0..3 {
                        assert!(
                            (s[c] - h[c]).abs() <= 1e-3 * s[c].max(0.01),
                            "{what}: {s:?} → {h:?}"
                        );
                    }
                }
                // Brightness (luminance) rises along every ramp.
                let y = 0.2126 * h[0] + 0.7152 * h[1] + 0.0722 * h[2];
                assert!(
                    y >= last - 1e-3 * last.max(1.0),
                    "{what}: luminance {y} after {last}"
                );
                last = y;
                brightest = brightest.max(h_max);
                assert!(h_max <= 4.0 * 1.002, "{what}: {h_max} above the headroom");
                let (s_sat, h_sat) = (
                    s_max - s[0].min(s[1]).min(s[2]),
                    h_max - h[0].min(h[1]).min(h[2]),
                );
                if row > 0 && s_sat > 0.05 && h_sat > 0.05 {
                    let dh = (hue(*s) - hue(*h)).abs();
                    assert!(
                        dh.min(360.0 - dh) <= 2.0,
                        "{what}: hue {} → {}",
                        hue(*s),
                        hue(*h)
                    );
                }
            }
            assert!(
                last >= 0.95 * 4.0,
                "{curve:?} row {row}: brightest {last} < 0.95 × 4"
            );
        }
        assert!(
            sdr_pixels > 300,
            "{curve:?}: only {sdr_pixels} pixels below 0.8"
        );
    }
}

/// Premultiplied extended output: the straight colour is at most the
/// headroom and alpha at most 1, so the stored value is at most
/// encode(headroom) × alpha.
#[test]
fn premultiplied_extended_output_stays_within_alpha_times_headroom() {
    let out = headroom_frame(Tonemapper::Agx, 4.0, AlphaMode::Premultiplied);
    let brightest = out
        .iter()
        .flatten()
        .map(|p| p[0].max(p[1]).max(p[2]))
        .fold(0.0, f32::max);
    assert!(brightest > 3.8 && brightest <= 4.0 * 1.002, "{brightest}");
}

/// The standard path ignores the headroom: the same bytes at 1 and 4.
#[test]
fn the_standard_path_ignores_the_headroom() {
    let frame_at = |headroom: f64| {
        let mut o = predictable(AlphaMode::Opaque, ToneMapping::Standard);
        o.tonemapper = Tonemapper::Agx;
        o.canvas.headroom = headroom;
        let mut h = headless_with(o, F::Rgba8Unorm, (256, 1));
        h.set_content(pixels(256, 1, |x, _| {
            let r = headroom_radiance(x);
            [r, 0.5 * r, 0.1 * r, 1.0]
        }))
        .unwrap();
        frame(&h, 0.0).data
    };
    assert_eq!(frame_at(1.0), frame_at(4.0));
}

/// `bloom.mode: 'energy-conserving'`: the frame's total linear radiance
/// before the curve is the scene's own within 0.5 % (the additive mode adds
/// light), and the light still spreads into a halo.
#[test]
fn energy_conserving_bloom_keeps_the_frames_light() {
    let scene = || {
        pixels(128, 128, |x, y| {
            let v = if (63..66).contains(&x) && (63..66).contains(&y) {
                50.0
            } else if (30..32).contains(&x) && (90..92).contains(&y) {
                20.0
            } else {
                0.05
            };
            [v, 0.8 * v, 0.6 * v, 1.0]
        })
    };
    let input: f64 = (0..128u32)
        .flat_map(|y| (0..128u32).map(move |x| (x, y)))
        .map(|(x, y)| {
            let v: f64 = if (63..66).contains(&x) && (63..66).contains(&y) {
                50.0
            } else if (30..32).contains(&x) && (90..92).contains(&y) {
                20.0
            } else {
                0.05
            };
            v * (1.0 + 0.8 + 0.6)
        })
        .sum();
    let total = |mode: BloomMode| {
        let mut o = measuring(1.0, BlurMode::Mip);
        o.bloom.mode = mode;
        let mut h = headless_with(o, F::Rgba16Float, (128, 128));
        h.set_content(scene()).unwrap();
        let img = frame(&h, 0.0);
        let mut sum = 0.0f64;
        for y in 0..128 {
            for x in 0..128 {
                let p = img.rgba_f32(x, y);
                sum += (0..3).map(|c| srgb_decode(p[c]) as f64).sum::<f64>();
            }
        }
        (sum, srgb_decode(img.rgba_f32(72, 64)[0]))
    };
    let (energy, halo) = total(BloomMode::EnergyConserving);
    let (additive, _) = total(BloomMode::Additive);
    eprintln!("scene {input:.1}, energy-conserving {energy:.1}, additive {additive:.1}");
    assert!(
        (energy / input - 1.0).abs() < 0.005,
        "energy-conserving: {energy} vs {input}"
    );
    assert!(
        additive > input * 1.05,
        "additive adds light: {additive} vs {input}"
    );
    assert!(halo > 0.1, "the light spreads: {halo} 7 px from the square");
}

/// Float output, no curve, no bloom: the graded light itself, decoded.
fn graded(o: Options, content: Content, size: (u32, u32)) -> Image {
    let mut h = headless_with(o, F::Rgba16Float, size);
    h.set_content(content).unwrap();
    frame(&h, 0.0)
}

fn linear_at(img: &Image, x: u32, y: u32) -> [f32; 3] {
    let p = img.rgba_f32(x, y);
    [srgb_decode(p[0]), srgb_decode(p[1]), srgb_decode(p[2])]
}

/// Grading on real pixels: warmer is redder and less blue, temperature 0
/// with the grading shader on leaves the picture within 1/255, saturation
/// 0 gives grey, contrast keeps mid grey and spreads the rest, and on an
/// HDR canvas the graded highlights still reach the headroom.
#[test]
fn grading_acts_on_light_before_the_curve() {
    let base = predictable(AlphaMode::Opaque, ToneMapping::Extended);
    let grey = Content::Solid([0.5, 0.5, 0.5, 1.0]);
    let plain = linear_at(&graded(base, grey.clone(), (16, 16)), 8, 8);

    let mut warm = base;
    warm.grading.temperature = 0.6;
    let w = linear_at(&graded(warm, grey.clone(), (16, 16)), 8, 8);
    assert!(
        w[0] > plain[0] * 1.05 && w[2] < plain[2] * 0.95,
        "warmer: {w:?} from {plain:?}"
    );
    let mut cool = base;
    cool.grading.temperature = -0.6;
    let c = linear_at(&graded(cool, grey.clone(), (16, 16)), 8, 8);
    assert!(c[0] < plain[0] && c[2] > plain[2], "cooler: {c:?}");

    // The grading shader with a white balance of (almost) nothing.
    let mut on = base;
    on.grading.temperature = 1e-9;
    let colour = Content::Solid([0.6, 0.3, 0.1, 1.0]);
    let (a, b) = (
        graded(base, colour.clone(), (16, 16)),
        graded(on, colour.clone(), (16, 16)),
    );
    for i in 0..3 {
        let (x, y) = (a.rgba_f32(8, 8)[i], b.rgba_f32(8, 8)[i]);
        assert!((x - y).abs() <= 1.0 / 255.0, "channel {i}: {x} against {y}");
    }

    let mut grey_out = base;
    grey_out.grading.saturation = 0.0;
    let g = linear_at(&graded(grey_out, colour.clone(), (16, 16)), 8, 8);
    assert!(
        (g[0] - g[1]).abs() < 2e-3 && (g[1] - g[2]).abs() < 2e-3,
        "saturation 0: {g:?}"
    );
    let luminance = 0.2126 * 0.6 + 0.7152 * 0.3 + 0.0722 * 0.1;
    assert!(
        (g[1] - luminance).abs() < 4e-3,
        "grey of the same luminance: {g:?}"
    );

    let mut contrast = base;
    contrast.grading.contrast = 2.0;
    let mid = linear_at(
        &graded(contrast, Content::Solid([0.18, 0.18, 0.18, 1.0]), (16, 16)),
        8,
        8,
    );
    assert!((mid[1] - 0.18).abs() < 2e-3, "mid grey moved: {mid:?}");
    let up = linear_at(&graded(contrast, grey.clone(), (16, 16)), 8, 8);
    let want = 0.18 * (0.5f32 / 0.18).powi(2);
    assert!(
        (up[1] - want).abs() < want * 0.01,
        "0.5 at contrast 2: {up:?}, want {want}"
    );

    let mut hdr = warm;
    hdr.tonemapper = Tonemapper::Agx;
    hdr.canvas.headroom = 4.0;
    let bright = linear_at(
        &graded(hdr, Content::Solid([1e3, 1e3, 1e3, 1.0]), (16, 16)),
        8,
        8,
    );
    let peak = bright.iter().cloned().fold(0.0, f32::max);
    assert!(
        peak >= 0.95 * 4.0 && peak <= 4.01,
        "graded highlights reach {peak} of 4"
    );
}

/// The vignette darkens the corners and not the centre, and is round on a
/// wide frame: as dark at the same distance across as up.
#[test]
fn the_vignette_darkens_the_corners_not_the_centre() {
    let mut o = predictable(AlphaMode::Opaque, ToneMapping::Extended);
    o.vignette.intensity = 0.8;
    o.vignette.radius = 0.2;
    o.vignette.smoothness = 0.8;
    let img = graded(o, Content::Solid([0.5, 0.5, 0.5, 1.0]), (128, 64));
    let centre = linear_at(&img, 64, 32)[1];
    assert!((centre - 0.5).abs() < 2e-3, "centre {centre}");
    let corner = linear_at(&img, 0, 0)[1];
    assert!(corner < 0.5 * 0.3, "corner {corner}");
    // 24 px right of the centre and 24 px below it.
    let (across, down) = (
        linear_at(&img, 64 + 24, 32)[1],
        linear_at(&img, 64, 32 + 24)[1],
    );
    assert!(
        across < centre && (across - down).abs() < 0.01,
        "across {across}, down {down}"
    );
    // Off (intensity 0), nothing changes.
    o.vignette.intensity = 0.0;
    let off = graded(o, Content::Solid([0.5, 0.5, 0.5, 1.0]), (128, 64));
    assert!((linear_at(&off, 0, 0)[1] - 0.5).abs() < 2e-3);
}

/// A table of `size` whose colours come from `f(r, g, b)` at the grid's
/// inputs (each in [0, 1]).
fn table(size: u32, mut f: impl FnMut(f32, f32, f32) -> [f32; 3]) -> crate::Lut {
    let last = (size - 1) as f32;
    let mut data = Vec::new();
    for b in 0..size {
        for g in 0..size {
            for r in 0..size {
                data.push(f(r as f32 / last, g as f32 / last, b as f32 / last));
            }
        }
    }
    crate::Lut::new(size, data).unwrap()
}

/// 16×16 colours spread over the cube (linear light in [0, 1]).
fn colour_grid() -> Content {
    pixels(16, 16, |x, y| {
        let i = y * 16 + x;
        let v = |k: u32| ((i * k) % 97) as f32 / 96.0;
        [v(13), v(29), v(53), 1.0]
    })
}

/// A frame of `content` through `lut` (rgba16float, no curve): what the
/// shader wrote is sRGB-encoded, as the table's inputs and outputs are.
fn through_lut(o: Options, lut: Option<&crate::Lut>, content: Content) -> Image {
    let mut h = headless_with(o, F::Rgba16Float, (16, 16));
    h.set_content(content).unwrap();
    h.chain.set_lut(&h.gpu, lut).unwrap();
    frame(&h, 0.0)
}

/// The lookup table on real pixels: a table that swaps red and blue swaps
/// them; identity tables of several sizes leave every pixel within 1/255;
/// a table of random colours gives what the CPU model of the same
/// tetrahedral interpolation gives; `lutIntensity` mixes; light above SDR
/// white on an HDR canvas passes on top of the table.
#[test]
fn the_lookup_table_applies_after_the_curve_as_the_cpu_model_does() {
    let o = predictable(AlphaMode::Opaque, ToneMapping::Extended);
    let plain = through_lut(o, None, colour_grid());

    let swap = table(9, |r, g, b| [b, g, r]);
    let swapped = through_lut(o, Some(&swap), colour_grid());
    for (x, y) in [(0, 0), (3, 1), (7, 9), (15, 15)] {
        let (p, s) = (plain.rgba_f32(x, y), swapped.rgba_f32(x, y));
        for (a, b) in [(0, 2), (1, 1), (2, 0)] {
            assert!(
                (p[a] - s[b]).abs() < 2.0 / 255.0,
                "({x}, {y}): {p:?} swapped {s:?}"
            );
        }
    }

    for size in [2, 17, 33] {
        let identity = table(size, |r, g, b| [r, g, b]);
        let img = through_lut(o, Some(&identity), colour_grid());
        for y in 0..16 {
            for x in 0..16 {
                let (p, q) = (plain.rgba_f32(x, y), img.rgba_f32(x, y));
                for c in 0..3 {
                    assert!(
                        (p[c] - q[c]).abs() <= 1.0 / 255.0,
                        "size {size} ({x}, {y}): {p:?} {q:?}"
                    );
                }
            }
        }
    }

    // Random colours: far from linear, so each pixel's tetrahedron matters.
    let mut seed = 0x2545_f491u32;
    let mut random = move || {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (seed >> 8) as f32 / (1u32 << 24) as f32
    };
    let noisy = table(5, |_, _, _| [random(), random(), random()]);
    let img = through_lut(o, Some(&noisy), colour_grid());
    let Content::Pixels(grid) = colour_grid() else {
        unreachable!()
    };
    let mut worst = 0.0f32;
    for y in 0..16 {
        for x in 0..16 {
            let c = grid.data[(y * 16 + x) as usize];
            let want = noisy.apply([srgb_encode(c[0]), srgb_encode(c[1]), srgb_encode(c[2])]);
            let got = img.rgba_f32(x, y);
            for i in 0..3 {
                worst = worst.max((got[i] - want[i]).abs());
            }
        }
    }
    // rgba16float keeps 11 bits; the shader's encode and decode round too.
    assert!(worst < 2e-3, "GPU against the CPU model: {worst}");

    let mut half = o;
    half.grading.lut_intensity = 0.5;
    let mixed = through_lut(half, Some(&swap), colour_grid());
    let (p, s, m) = (
        plain.rgba_f32(7, 9),
        swapped.rgba_f32(7, 9),
        mixed.rgba_f32(7, 9),
    );
    for c in 0..3 {
        assert!(
            (m[c] - (p[c] + s[c]) / 2.0).abs() < 2.0 / 255.0,
            "half: {m:?} of {p:?} and {s:?}"
        );
    }
    // At 0 the table costs nothing: the pipeline without it.
    let mut off = o;
    off.grading.lut_intensity = 0.0;
    let unused = through_lut(off, Some(&swap), colour_grid());
    assert_eq!(
        unused.data, plain.data,
        "lutIntensity 0 is the frame without a table"
    );

    // HDR: 3.0 stays above white (SDR part through the table, the rest on top).
    let mut hdr = o;
    hdr.canvas.headroom = 4.0;
    let bright = through_lut(hdr, Some(&swap), Content::Solid([3.0, 3.0, 3.0, 1.0]));
    let v = srgb_decode(bright.rgba_f32(8, 8)[1]);
    assert!((v - 3.0).abs() < 0.02, "a highlight of 3 came out {v}");
}

/// The table on every output path: an 8-bit output written through its
/// -srgb view, with and without dither, and a float one the shader encodes,
/// with light above white that the standard canvas clips. Where nothing follows the table, the output
/// takes its still-encoded result instead of decoding and encoding it
/// again; with an identity table every path gives the frame without a
/// table, within 1/255.
#[test]
fn an_identity_lookup_table_leaves_every_output_path_as_it_was() {
    let identity = table(17, |r, g, b| [r, g, b]);
    for format in [F::Rgba8Unorm, F::Rgba16Float] {
        for dither in [false, true] {
            let mut o = predictable(AlphaMode::Opaque, ToneMapping::Standard);
            o.dither = dither;
            let run = |lut: Option<&crate::Lut>| {
                let mut h = headless_with(o, format, (16, 16));
                // Up to 1.6: a third of the channels above white.
                h.set_content(pixels(16, 16, |x, y| {
                    let i = y * 16 + x;
                    let v = |k: u32| ((i * k) % 97) as f32 / 60.0;
                    [v(13), v(29), v(53), 1.0]
                }))
                .unwrap();
                h.chain.set_lut(&h.gpu, lut).unwrap();
                frame(&h, 0.0)
            };
            let (plain, looked) = (run(None), run(Some(&identity)));
            let mut worst = 0.0f32;
            for y in 0..16 {
                for x in 0..16 {
                    let (p, l) = (plain.rgba_f32(x, y), looked.rgba_f32(x, y));
                    for c in 0..3 {
                        worst = worst.max((p[c] - l[c]).abs());
                    }
                }
            }
            assert!(
                worst <= 1.0 / 255.0 + 1e-4,
                "{format:?}, dither {dither}: {:.2}/255 from the frame without a table",
                worst * 255.0
            );
        }
    }
}

/// On an SDR canvas (opaque or transparent, sRGB or Display P3), light
/// above white, which the canvas clips, takes the table's white: a table
/// that maps everything to mid grey makes a highlight of 3 mid grey, not
/// white.
#[test]
fn on_an_sdr_canvas_clipped_light_takes_the_tables_white() {
    let grey = table(5, |_, _, _| [0.5, 0.5, 0.5]);
    let canvases = [
        (F::Rgba8Unorm, AlphaMode::Opaque, ColorSpace::Srgb),
        (F::Rgba16Float, AlphaMode::Opaque, ColorSpace::Srgb),
        (F::Rgba8Unorm, AlphaMode::Premultiplied, ColorSpace::Srgb),
        (F::Rgba8Unorm, AlphaMode::Opaque, ColorSpace::DisplayP3),
    ];
    for (format, alpha, space) in canvases {
        let mut o = predictable(alpha, ToneMapping::Standard);
        o.canvas.color_space = space;
        let mut h = headless_with(o, format, (8, 8));
        h.set_content(Content::Solid([3.0, 3.0, 3.0, 1.0])).unwrap();
        h.chain.set_lut(&h.gpu, Some(&grey)).unwrap();
        let v = frame(&h, 0.0).rgba_f32(4, 4);
        assert!(
            (v[0] - 0.5).abs() < 1.5 / 255.0,
            "{format:?} {alpha:?} {space:?}: a highlight of 3 came out {v:?}, not the table's 0.5"
        );
    }
}

/// Lens dirt multiplies the bloom where the dirt is white and nothing
/// where there is no bloom; without bloom, or at intensity 0, it costs
/// nothing and changes nothing.
#[test]
fn lens_dirt_changes_the_halo_and_nothing_where_there_is_no_bloom() {
    let size = 64;
    let mut o = measuring(1.0, BlurMode::Mip);
    o.bloom.radius = 0.5;
    let mut h = headless_with(o, F::Rgba16Float, (size, size));
    h.set_content(bright_pixel(size, (32, 32), 50.0)).unwrap();
    let clean = frame(&h, 0.0);

    // Dirt: white on the left half, black on the right (4×4 texels, so
    // that filtering reaches across the middle only).
    let dirt = h.gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("test dirt"),
        size: wgpu::Extent3d {
            width: 4,
            height: 4,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    h.gpu.queue.write_texture(
        dirt.as_image_copy(),
        &[[255u8; 8], [0, 0, 0, 255, 0, 0, 0, 255]]
            .concat()
            .repeat(4),
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(16),
            rows_per_image: None,
        },
        dirt.size(),
    );
    let view = dirt.create_view(&Default::default());
    h.chain
        .set_dirt(
            &h.gpu,
            Some(crate::passes::look::DirtTexture {
                view,
                size: (4, 4),
                own: None,
            }),
        )
        .unwrap();
    let dirty = frame(&h, 0.0);
    let lin = |img: &Image, x: u32, y: u32| srgb_decode(img.rgba_f32(x, y)[0]);
    // The halo 12 px left of the light (dirt 1: ×2) and 12 px right (dirt
    // 0: unchanged).
    let (left_clean, left_dirty) = (lin(&clean, 20, 32), lin(&dirty, 20, 32));
    let (right_clean, right_dirty) = (lin(&clean, 44, 32), lin(&dirty, 44, 32));
    assert!(left_clean > 1e-3, "a halo to measure: {left_clean}");
    let gain = left_dirty / left_clean;
    assert!(
        (1.98..=2.02).contains(&gain),
        "dirt 1 multiplied the halo by {gain}"
    );
    let kept = right_dirty / right_clean;
    assert!(
        (0.99..=1.01).contains(&kept),
        "dirt 0 changed the halo by {kept}"
    );
    // Scene light below the threshold, far from the light: no bloom there,
    // so nothing changes.
    h.set_content(pixels(size, size, |x, y| {
        if (x, y) == (60, 60) {
            [50.0, 50.0, 50.0, 1.0]
        } else {
            [0.3, 0.2, 0.1, 1.0]
        }
    }))
    .unwrap();
    let dirty_scene = frame(&h, 0.0);
    let mut clean_options = o;
    clean_options.bloom.dirt_intensity = 0.0;
    h.set_settings(clean_options).unwrap();
    let clean_scene = frame(&h, 0.0);
    for (x, y) in [(2, 2), (10, 40), (30, 5)] {
        assert_eq!(
            dirty_scene.rgba_f32(x, y),
            clean_scene.rgba_f32(x, y),
            "({x}, {y}) is far from any bloom"
        );
    }
    // Removed: the frame is the clean one again.
    h.set_settings(o).unwrap();
    h.set_content(bright_pixel(size, (32, 32), 50.0)).unwrap();
    h.chain.set_dirt(&h.gpu, None).unwrap();
    assert_eq!(frame(&h, 0.0).data, clean.data);
}

/// A light at the frame's edge or corner loses none of the bloom a light
/// inside the frame gets: the centre pass keeps the share that would land
/// past the bloom base's edge on the edge texel. (Dropping it left an edge
/// pixel 0.72 and a corner pixel 0.54 of the bloom.) The chain after it
/// samples with clamp-to-edge, which counts edge texels more than once:
/// an edge pixel's bloom comes out 1.17×, a corner pixel's 1.41× (the
/// upper bound below).
#[test]
fn a_light_at_the_edge_keeps_its_bloom() {
    let mut o = measuring(1.0, BlurMode::Mip);
    o.debug = crate::options::DebugView::Bloom;
    let mut h = headless_with(o, F::Rgba16Float, (128, 128));
    let mut bloom_of = |at: (u32, u32)| {
        h.set_content(bright_pixel(128, at, 200.0)).unwrap();
        let img = frame(&h, 0.0);
        let mut sum = 0.0f64;
        for y in 0..128 {
            for x in 0..128 {
                sum += srgb_decode(red(&img, x, y)) as f64;
            }
        }
        sum
    };
    let inside = bloom_of((64, 64));
    for at in [(0, 64), (127, 64), (64, 0), (0, 0), (127, 127)] {
        let edge = bloom_of(at) / inside;
        println!("{at:?}: {edge:.3} of the bloom inside");
        assert!(
            (0.97..=1.45).contains(&edge),
            "a light at {at:?} blooms {edge:.3} of one inside"
        );
    }
}

/// The centroid of channel `c` of linear light over the frame.
fn centroid(img: &Image, c: usize, size: (u32, u32)) -> (f64, f64) {
    let (mut sum, mut sx, mut sy) = (0.0, 0.0, 0.0);
    for y in 0..size.1 {
        for x in 0..size.0 {
            let v = srgb_decode(img.rgba_f32(x, y)[c]) as f64;
            sum += v;
            sx += v * (x as f64 + 0.5);
            sy += v * (y as f64 + 0.5);
        }
    }
    (sx / sum, sy / sum)
}

/// Chromatic aberration moves red outwards and blue inwards along the
/// radius, by the option in output pixels at the corners and in
/// proportion nearer the centre: the same pixels at any resolution for a
/// light at the same place in the frame. Green stays; 0 changes nothing.
#[test]
fn chromatic_aberration_shifts_red_out_and_blue_in_by_pixels() {
    for scale in [1, 2] {
        let size = (128 * scale, 96 * scale);
        // A white block three quarters of the way to the bottom-right
        // corner: 60 % of the half diagonal from the centre.
        let (bx, by) = (112 * scale, 84 * scale);
        let content = pixels(size.0, size.1, |x, y| {
            let lit = x.abs_diff(bx) <= 1 && y.abs_diff(by) <= 1;
            if lit {
                [0.8, 0.8, 0.8, 1.0]
            } else {
                [0.0, 0.0, 0.0, 1.0]
            }
        });
        let mut o = predictable(AlphaMode::Opaque, ToneMapping::Extended);
        o.lens.chromatic_aberration = 6.0;
        let img = graded(o, content.clone(), size);
        let (r, g, b) = (
            centroid(&img, 0, size),
            centroid(&img, 1, size),
            centroid(&img, 2, size),
        );
        // 6 px at a corner (80 px from the centre at ×1), in proportion
        // here, along the radius.
        let (dx, dy) = (
            bx as f64 + 0.5 - size.0 as f64 / 2.0,
            by as f64 + 0.5 - size.1 as f64 / 2.0,
        );
        let k = 6.0 / (0.5 * (size.0 as f64).hypot(size.1 as f64));
        let want = (k * dx, k * dy);
        let tol = 0.25;
        assert!(
            (r.0 - g.0 - want.0).abs() < tol && (r.1 - g.1 - want.1).abs() < tol,
            "×{scale}: red {r:?} against green {g:?}, want {want:?} outwards"
        );
        assert!(
            (g.0 - b.0 - want.0).abs() < tol && (g.1 - b.1 - want.1).abs() < tol,
            "×{scale}: blue {b:?} against green {g:?}, want {want:?} inwards"
        );
        assert!(
            (g.0 - (bx as f64 + 0.5)).abs() < 0.05 && (g.1 - (by as f64 + 0.5)).abs() < 0.05,
            "green stays: {g:?}"
        );
        o.lens.chromatic_aberration = 0.0;
        let off = graded(o, content, size);
        let (r, b) = (centroid(&off, 0, size), centroid(&off, 2, size));
        assert!(
            (r.0 - b.0).abs() < 1e-3 && (r.1 - b.1).abs() < 1e-3,
            "off: {r:?} {b:?}"
        );
    }
}

/// Grain statistics of a frame's green channel in 8-bit steps: mean,
/// standard deviation, and the correlation of horizontal neighbours.
fn grain_stats(img: &Image, size: (u32, u32)) -> (f64, f64, f64) {
    let v = |x: u32, y: u32| img.rgba8(x, y)[1] as f64;
    let n = (size.0 * size.1) as f64;
    let mean = (0..size.1)
        .flat_map(|y| (0..size.0).map(move |x| (x, y)))
        .map(|(x, y)| v(x, y))
        .sum::<f64>()
        / n;
    let var = (0..size.1)
        .flat_map(|y| (0..size.0).map(move |x| (x, y)))
        .map(|(x, y)| (v(x, y) - mean).powi(2))
        .sum::<f64>()
        / n;
    let mut cov = 0.0;
    for y in 0..size.1 {
        for x in 0..size.0 - 1 {
            cov += (v(x, y) - mean) * (v(x + 1, y) - mean);
        }
    }
    let cov = cov / ((size.0 - 1) * size.1) as f64;
    (mean, var.sqrt(), cov / var.max(1e-12))
}

/// Film grain: on a mid grey it spreads values around the same mean, a
/// new pattern for each time and the same one for the same time; a grain
/// per pixel at size 1 (neighbours independent), larger grains at size 4;
/// none on black or white.
#[test]
fn film_grain_is_per_pixel_animated_and_strongest_in_the_mid_tones() {
    let size = (96, 64);
    let mut o = predictable(AlphaMode::Opaque, ToneMapping::Standard);
    let grey = Content::Solid([0.18, 0.18, 0.18, 1.0]);
    let render = |o: Options, content: Content, t: f64| {
        let mut h = headless_with(o, F::Rgba8Unorm, size);
        h.set_content(content).unwrap();
        frame(&h, t)
    };
    let plain = grain_stats(&render(o, grey.clone(), 1.0), size);
    assert!(plain.1 < 0.01, "no grain: {plain:?}");
    o.grain.intensity = 0.5;
    let a = render(o, grey.clone(), 1.0);
    let (mean, spread, neighbours) = grain_stats(&a, size);
    assert!(
        (mean - plain.0).abs() < 1.5,
        "mean {mean} against {}",
        plain.0
    );
    // ±0.1 of the range at most, uniform noise: about 14.6 steps.
    assert!((10.0..20.0).contains(&spread), "spread {spread}");
    assert!(
        neighbours.abs() < 0.15,
        "per pixel: neighbours correlate {neighbours}"
    );
    assert_eq!(
        render(o, grey.clone(), 1.0).data,
        a.data,
        "the same time, the same grain"
    );
    let later = render(o, grey.clone(), 1.0 + 1.0 / 60.0);
    let moved = (0..size.1)
        .flat_map(|y| (0..size.0).map(move |x| (x, y)))
        .filter(|&(x, y)| later.rgba8(x, y) != a.rgba8(x, y))
        .count();
    assert!(
        moved > (size.0 * size.1 / 2) as usize,
        "a new pattern: {moved} pixels changed"
    );
    o.grain.size = 4.0;
    let coarse = grain_stats(&render(o, grey, 1.0), size);
    assert!(coarse.2 > 0.6, "size 4: neighbours correlate {:?}", coarse);
    for (what, level) in [("black", 0.0), ("white", 1.0)] {
        let s = grain_stats(
            &render(o, Content::Solid([level, level, level, 1.0]), 1.0),
            size,
        );
        assert!(s.1 < 0.5, "{what}: {s:?}");
    }
}
