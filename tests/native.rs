//! Native tests: the HDR chain on a real Vulkan device (lavapipe on a
//! machine without a GPU), pixels read back from the GPU.
#![cfg(not(target_arch = "wasm32"))]

use afterglow::headless::{vulkan_gpu, Headless};
use afterglow::options::{AlphaMode, ToneMapping};
use afterglow::output::OutputSpec;
use afterglow::readback::Image;
use afterglow::Content;
use wgpu::TextureFormat as F;

fn headless(format: F, alpha: AlphaMode, tone: ToneMapping, size: (u32, u32)) -> Headless {
    let gpu =
        pollster::block_on(vulkan_gpu()).expect("a Vulkan adapter (lavapipe: mesa-vulkan-drivers)");
    let output = OutputSpec::new(format, alpha, tone).expect("valid output");
    Headless::new(gpu, output, size)
}

fn frame(h: &Headless, t: f64) -> Image {
    let img = pollster::block_on(h.render_and_read(t)).expect("readback");
    assert_eq!(
        h.gpu.error_count(),
        0,
        "GPU errors: {:?}",
        h.gpu.last_error()
    );
    img
}

fn assert_close(got: u8, want: u8, tol: u8, what: &str) {
    assert!(
        got.abs_diff(want) <= tol,
        "{what}: got {got}, want {want} ± {tol}"
    );
}

/// Linear 0.5 through the -srgb view comes out as 188 (encoded once).
#[test]
fn linear_half_encodes_to_188_on_8bit_outputs() {
    for format in [F::Rgba8Unorm, F::Bgra8Unorm] {
        let mut h = headless(format, AlphaMode::Opaque, ToneMapping::Standard, (64, 48));
        h.chain.set_content(Content::Solid([0.5, 0.5, 0.5, 1.0]));
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

/// Channels stay in their places (catches an RGBA/BGRA mix-up).
#[test]
fn channel_order_is_preserved() {
    for format in [F::Rgba8Unorm, F::Bgra8Unorm, F::Rgba16Float] {
        let mut h = headless(format, AlphaMode::Opaque, ToneMapping::Standard, (8, 8));
        h.chain.set_content(Content::Solid([1.0, 0.0, 0.0, 1.0]));
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
    h.chain.set_content(Content::Solid([0.5, 0.5, 0.5, 1.0]));
    let p = frame(&h, 0.0).rgba_f32(3, 3);
    // sRGB(0.5) = 0.7354
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
        .chain
        .set_content(Content::Solid([4.0, 4.0, 4.0, 1.0]));
    assert!((frame(&std_h, 0.0).rgba_f32(1, 1)[0] - 1.0).abs() < 1e-3);

    let mut ext = headless(
        F::Rgba16Float,
        AlphaMode::Opaque,
        ToneMapping::Extended,
        (8, 8),
    );
    ext.chain.set_content(Content::Solid([4.0, 4.0, 4.0, 1.0]));
    let v = frame(&ext, 0.0).rgba_f32(1, 1)[0];
    let want = 1.055 * 4f32.powf(1.0 / 2.4) - 0.055; // 1.7932
    assert!((v - want).abs() < 0.01, "got {v}, want {want}");
}

/// Premultiplied output: transparent stays alpha 0; half-covered white is
/// stored as encode(1) * 0.5 = 128, so rgb <= alpha (a valid premultiplied
/// colour), on both the hardware-encoded and the shader-encoded path.
#[test]
fn premultiplied_output_is_valid() {
    for format in [F::Rgba8Unorm, F::Rgba16Float] {
        let mut h = headless(
            format,
            AlphaMode::Premultiplied,
            ToneMapping::Standard,
            (8, 8),
        );
        h.chain.set_content(Content::Solid([0.0, 0.0, 0.0, 0.0]));
        assert_eq!(
            frame(&h, 0.0).rgba8(2, 2),
            [0, 0, 0, 0],
            "{format:?} transparent"
        );

        h.chain.set_content(Content::Solid([0.5, 0.5, 0.5, 0.5]));
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

/// Opaque output writes alpha 1 even where the content is transparent.
#[test]
fn opaque_output_has_full_alpha() {
    let mut h = headless(
        F::Rgba8Unorm,
        AlphaMode::Opaque,
        ToneMapping::Standard,
        (8, 8),
    );
    h.chain.set_content(Content::Solid([0.0, 0.0, 0.0, 0.0]));
    assert_eq!(frame(&h, 0.0).rgba8(0, 0), [0, 0, 0, 255]);
}

/// The demo pattern is animated, HDR and not black.
#[test]
fn pattern_animates() {
    let h = headless(
        F::Rgba8Unorm,
        AlphaMode::Opaque,
        ToneMapping::Standard,
        (96, 64),
    );
    let a = frame(&h, 0.0);
    let b = frame(&h, 1.0);
    let lit = a
        .data
        .chunks(4)
        .filter(|p| p[0].max(p[1]).max(p[2]) > 200)
        .count();
    assert!(lit > 20, "bright pixels: {lit}");
    let changed = a.data.iter().zip(&b.data).filter(|(x, y)| x != y).count();
    assert!(
        changed > 100,
        "changed bytes between t=0 and t=1: {changed}"
    );
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
    h.chain.set_content(Content::Solid([0.5, 0.5, 0.5, 1.0]));
    h.resize((0, 0));
    assert!(!h.render(0.0), "a 0×0 frame must be skipped");
    h.resize((17, 5));
    let img = frame(&h, 0.0);
    assert_eq!((img.width, img.height), (17, 5));
    assert_close(img.rgba8(16, 4)[0], 188, 2, "after resize");
}

/// After warm-up a frame creates no texture, view, bind group, pipeline or buffer.
#[test]
fn frames_create_no_gpu_objects() {
    let h = headless(
        F::Rgba8Unorm,
        AlphaMode::Opaque,
        ToneMapping::Standard,
        (32, 32),
    );
    h.render(0.0);
    let before = h.gpu.counters.snapshot();
    for i in 0..5 {
        h.render(i as f64 * 0.1);
    }
    assert_eq!(h.gpu.counters.snapshot(), before);
    assert_eq!(h.gpu.error_count(), 0);
}
