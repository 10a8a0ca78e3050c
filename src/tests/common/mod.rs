//! Content and pixel checks shared by the native (lavapipe) and browser
//! (headless Chromium) suites: the same scenes, the same assertions, on
//! pixels read back from the GPU.
#![allow(dead_code, clippy::needless_range_loop)]

pub mod dot;
pub use dot::*;
#[cfg(not(target_arch = "wasm32"))]
mod headless;
#[cfg(not(target_arch = "wasm32"))]
pub use headless::*;

use crate::readback::Image;
use crate::{Content, PixelImage};

pub fn assert_close(got: u8, want: u8, tol: u8, what: &str) {
    assert!(
        got.abs_diff(want) <= tol,
        "{what}: got {got}, want {want} ± {tol}"
    );
}

/// An image content from a function of the pixel position.
pub fn pixels(w: u32, h: u32, f: impl Fn(u32, u32) -> [f32; 4]) -> Content {
    let data = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .map(|(x, y)| f(x, y))
        .collect();
    Content::Pixels(PixelImage {
        width: w,
        height: h,
        data,
    })
}

/// Black, with one pixel of `value`.
pub fn bright_pixel(size: u32, at: (u32, u32), value: f32) -> Content {
    pixels(size, size, move |x, y| {
        if (x, y) == at {
            [value, value, value, 1.0]
        } else {
            [0.0, 0.0, 0.0, 1.0]
        }
    })
}

/// A texture of values from 0 to 0.4: below a threshold of 1 with knee 0.5.
pub fn below_threshold(size: u32) -> Content {
    pixels(size, size, |x, y| {
        let v = 0.4 * ((x * 7 + y * 3) % 13) as f32 / 12.0;
        [v, v * 0.5, v, 1.0]
    })
}

/// Input of ramp pixel `i` of `n`: 0, then 1e-4 to 1e4 logarithmically.
pub fn ramp_value(i: u32, n: u32) -> f32 {
    if i == 0 {
        0.0
    } else {
        1e-4 * 1e8f32.powf(i as f32 / (n - 1) as f32)
    }
}

/// A one-row grey ramp of `n` pixels (see [`ramp_value`]).
pub fn ramp(n: u32) -> Content {
    pixels(n, 1, |x, _| {
        let v = ramp_value(x, n);
        [v, v, v, 1.0]
    })
}

/// A 64×64 scene with a bright pixel, a dim background and one `bad`
/// pixel at (40, 36).
pub const BAD_PIXEL: (u32, u32) = (40, 36);
pub fn scene_with(bad: f32) -> Content {
    pixels(64, 64, move |x, y| match (x, y) {
        (20, 20) => [30.0, 20.0, 10.0, 1.0],
        BAD_PIXEL => [bad, bad, bad, 1.0],
        _ => [0.05, 0.05, 0.1, 1.0],
    })
}

pub fn red(img: &Image, x: u32, y: u32) -> f32 {
    img.rgba_f32(x, y)[0]
}

/// Sum of rgb over the image, `skip` excluded.
pub fn energy(img: &Image, skip: (u32, u32)) -> f64 {
    let mut sum = 0.0;
    for y in 0..img.height {
        for x in 0..img.width {
            if (x, y) != skip {
                let p = img.rgba_f32(x, y);
                sum += (p[0] + p[1] + p[2]) as f64;
            }
        }
    }
    sum
}

/// The halo around the pixel at (`c`, `c`): present, symmetric within 20%
/// (+0.002) from 5 px out along both axes, round (diagonal vs axis within
/// 35%), and falling monotonically with distance (f16 rounding allowed).
/// Next to the pixel the halo's shape still shows the bloom base's grid
/// (one base texel is 4 px), hence the 5 px; [`halo_balance`] measures how
/// it sits on the pixel at every position in its box.
pub fn check_halo(img: &Image, c: u32, what: &str) {
    assert!(red(img, c + 6, c) > 1e-3, "{what}: no halo 6 px away");
    for d in 5..40u32.min(c) {
        let right = red(img, c + d, c);
        let left = red(img, c - d, c);
        let down = red(img, c, c + d);
        let up = red(img, c, c - d);
        for (a, b, pair) in [
            (right, left, "right/left"),
            (down, up, "down/up"),
            (right, down, "right/down"),
        ] {
            assert!(
                (a - b).abs() <= 0.2 * a.max(b) + 2e-3,
                "{what}: {pair} asymmetric at distance {d}: {a} vs {b}"
            );
        }
        for (near, far) in [
            (red(img, c + d - 1, c), right),
            (red(img, c - d + 1, c), left),
            (red(img, c, c + d - 1), down),
            (red(img, c, c - d + 1), up),
        ] {
            assert!(
                far <= near + 1e-3,
                "{what}: halo rises at distance {d}: {near} -> {far}"
            );
        }
    }
    let diag = red(img, c + 7, c + 7);
    let axis = red(img, c + 10, c);
    assert!(
        (diag - axis).abs() <= 0.35 * diag.max(axis) + 2e-3,
        "{what}: diagonal {diag} vs axis {axis}"
    );
}

/// A tonemapped ramp (see [`ramp`]): 0 maps to 0, every value in [0, 1],
/// non-decreasing, the top near 1. Returns the output for an input of ~1.
pub fn check_tonemapped_ramp(img: &Image, what: &str) -> f32 {
    let n = img.width;
    assert_eq!(img.rgba_f32(0, 0)[..3], [0.0; 3], "{what}: 0 must map to 0");
    let mut prev = [0.0f32; 3];
    for x in 0..n {
        let p = img.rgba_f32(x, 0);
        for c in 0..3 {
            assert!(
                (0.0..=1.0).contains(&p[c]),
                "{what}: {} -> {}",
                ramp_value(x, n),
                p[c]
            );
            assert!(
                p[c] >= prev[c] - 1e-3,
                "{what}: not monotonic at {}: {} after {}",
                ramp_value(x, n),
                p[c],
                prev[c]
            );
        }
        prev = [p[0], p[1], p[2]];
    }
    assert!(prev[0] > 0.9, "{what}: 1e4 maps to {}", prev[0]);
    let one = (0..n)
        .min_by(|&a, &b| {
            (ramp_value(a, n) - 1.0)
                .abs()
                .total_cmp(&(ramp_value(b, n) - 1.0).abs())
        })
        .unwrap_or(0);
    img.rgba_f32(one, 0)[0]
}

/// Curves that really differ: no two agree at an input of 1.
pub fn check_curves_differ(at_one: &[(String, f32)]) {
    for i in 0..at_one.len() {
        for j in i + 1..at_one.len() {
            assert!(
                (at_one[i].1 - at_one[j].1).abs() > 0.01,
                "{:?} and {:?} agree at 1",
                at_one[i],
                at_one[j]
            );
        }
    }
}

/// For a white square on black: the number of pixels with partial coverage
/// (red strictly between 8 and 247), after checking the square is there.
pub fn partial_edge_pixels(img: &Image, what: &str) -> usize {
    let px = |x, y| img.rgba8(x, y)[0];
    let coords = || (0..img.height).flat_map(|y| (0..img.width).map(move |x| (x, y)));
    let full = coords().filter(|&(x, y)| px(x, y) == 255).count();
    assert!(
        full > 1000,
        "{what}: the square is drawn ({full} white pixels)"
    );
    coords()
        .filter(|&(x, y)| px(x, y) > 8 && px(x, y) < 247)
        .count()
}

/// Every pixel a valid premultiplied colour (rgb <= alpha, 1.5/255 for
/// rounding). Returns how many pixels are partially transparent glow.
pub fn check_premultiplied(img: &Image, what: &str) -> usize {
    let mut glow = 0;
    for y in 0..img.height {
        for x in 0..img.width {
            let p = img.rgba_f32(x, y);
            for c in 0..3 {
                assert!(
                    p[c] <= p[3] + 1.5 / 255.0,
                    "{what}: pixel {x},{y}: rgb {p:?} exceeds alpha"
                );
            }
            if p[3] > 0.02 && p[3] < 0.9 {
                glow += 1;
            }
        }
    }
    glow
}

/// `got` equals `want` everywhere except within 1 px of `at`, and the
/// pixel at `at` is finite.
pub fn check_same_except_near(got: &Image, want: &Image, at: (u32, u32), what: &str) {
    for y in 0..got.height {
        for x in 0..got.width {
            if x.abs_diff(at.0) <= 1 && y.abs_diff(at.1) <= 1 {
                continue;
            }
            assert_eq!(
                got.rgba_f32(x, y),
                want.rgba_f32(x, y),
                "{what}: pixel {x},{y} changed"
            );
        }
    }
    let p = got.rgba_f32(at.0, at.1);
    assert!(
        p.iter().all(|v| v.is_finite()),
        "{what}: {p:?} reached the output"
    );
}

/// A lit frame (some bright pixels) that changed between two times.
pub fn check_lit_and_animated(a: &Image, b: &Image) {
    let lit = (0..a.height)
        .flat_map(|y| (0..a.width).map(move |x| (x, y)))
        .filter(|&(x, y)| a.rgba8(x, y)[..3].iter().any(|&v| v > 200))
        .count();
    assert!(lit > 20, "bright pixels: {lit}");
    let changed = a.data.iter().zip(&b.data).filter(|(x, y)| x != y).count();
    assert!(changed > 100, "changed bytes between frames: {changed}");
}

/// Checks what `frames` rendered frames created: on the web exactly one
/// canvas texture and one canvas view per frame (`per_frame_canvas`), and
/// one bind group of that view in every frame or in none (where the
/// composite writes the canvas as compute, or draws it); natively none;
/// every other kind of GPU object zero.
pub fn check_frame_objects(
    delta: &crate::gpu::CounterSnapshot,
    frames: u64,
    per_frame_canvas: bool,
    what: &str,
) {
    let canvas = if per_frame_canvas { frames } else { 0 };
    for (kind, n) in delta.entries() {
        let allowed = match kind {
            "canvas_textures" | "canvas_views" => canvas,
            "canvas_bind_groups" if n == 0 => 0,
            "canvas_bind_groups" => canvas,
            _ => 0,
        };
        assert_eq!(
            n, allowed,
            "{what}: {n} {kind} created by {frames} frame(s)"
        );
    }
}

/// How a single pixel's halo sits on it: the distance of the halo's
/// light-weighted centre (linear light, the 5×5 pixels around `at` left
/// out) from the pixel's centre, in pixels, and the largest mirror ratio of
/// the halo 4 px to either side of the pixel along each axis (1 where it
/// is symmetric).
pub fn halo_balance(img: &Image, at: (u32, u32)) -> (f64, f64) {
    let value = |x: u32, y: u32| srgb_decode(red(img, x, y)) as f64;
    let (mut sum, mut sx, mut sy) = (0.0f64, 0.0f64, 0.0f64);
    for y in 0..img.height {
        for x in 0..img.width {
            if x.abs_diff(at.0) <= 2 && y.abs_diff(at.1) <= 2 {
                continue;
            }
            let v = value(x, y);
            sum += v;
            sx += v * (x as f64 + 0.5);
            sy += v * (y as f64 + 0.5);
        }
    }
    let (cx, cy) = (at.0 as f64 + 0.5, at.1 as f64 + 0.5);
    let off = (sx / sum - cx).hypot(sy / sum - cy);
    let mirror = |a: f64, b: f64| a.max(b) / a.min(b).max(1e-12);
    let (x, y) = at;
    let ratio =
        mirror(value(x + 4, y), value(x - 4, y)).max(mirror(value(x, y + 4), value(x, y - 4)));
    (off, ratio)
}

/// How round a single pixel's halo is: at 4 px and at 8 px from the pixel,
/// the largest of the halo's four values (left, right, above, below; linear
/// light) over the smallest, the larger of the two (1 where it is round).
pub fn halo_roundness(img: &Image, at: (u32, u32)) -> f64 {
    let value = |x: u32, y: u32| srgb_decode(red(img, x, y)) as f64;
    let (x, y) = at;
    [4, 8]
        .iter()
        .map(|&d| {
            let v = [
                value(x + d, y),
                value(x - d, y),
                value(x, y + d),
                value(x, y - d),
            ];
            let hi = v.iter().cloned().fold(f64::MIN, f64::max);
            let lo = v.iter().cloned().fold(f64::MAX, f64::min);
            hi / lo.max(1e-12)
        })
        .fold(1.0, f64::max)
}

/// The sRGB transfer function, continued as an odd function past 1.
pub fn srgb_encode(x: f32) -> f32 {
    let a = x.abs();
    let e = if a <= 0.0031308 {
        a * 12.92
    } else {
        1.055 * a.powf(1.0 / 2.4) - 0.055
    };
    e.copysign(x)
}

/// The sRGB transfer function's inverse, continued as an odd function past
/// 1 as extended canvases read it.
pub fn srgb_decode(x: f32) -> f32 {
    let a = x.abs();
    let d = if a <= 0.04045 {
        a / 12.92
    } else {
        ((a + 0.055) / 1.055).powf(2.4)
    };
    d.copysign(x)
}

/// Whether this engine has an `rgba16float` canvas (Firefox has none),
/// asked of a scratch `OffscreenCanvas` on a device of its own.
#[cfg(target_arch = "wasm32")]
pub async fn engine_has_float_canvas() -> bool {
    let check = js_sys::Function::new_no_args(
        "return (async () => {
           const device = await (await navigator.gpu.requestAdapter()).requestDevice();
           try {
             new OffscreenCanvas(1, 1).getContext('webgpu').configure({ device, format: 'rgba16float' });
             return true;
           } catch { return false; } finally { device.destroy(); }
         })();",
    );
    let Ok(promise) = check.call0(&wasm_bindgen::JsValue::NULL) else {
        return false;
    };
    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::from(promise))
        .await
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}

/// Takes the canvases that earlier tests left in the page out of it. The
/// browser suites share one page (one wasm instance), and the page
/// composites every canvas in it each frame: after a hundred of them,
/// software WebGPU's frames are slow enough to change a count of frames.
#[cfg(target_arch = "wasm32")]
pub fn remove_earlier_canvases() {
    js_sys::Function::new_no_args(
        "for (const c of document.querySelectorAll('canvas')) c.remove();",
    )
    .call0(&wasm_bindgen::JsValue::NULL)
    .unwrap();
}
