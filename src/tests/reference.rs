//! A CPU reference model of the composite's math in f64 — exposure, each
//! tonemapper, the Display P3 conversion, clamping or extended range,
//! premultiplication and the sRGB encoding — compared with what the GPU
//! writes for ramps of HDR colours, on lavapipe.
//!
//! Tolerance: 1/255 of the encoded value per channel (one 8-bit step) for
//! 8-bit outputs, where the encoding is done by the `-srgb` view's hardware
//! and the GPU's f32 math differs from f64 by far less; for `rgba16float`
//! the same 1/255, relative above 1 (extended range). Inputs are exact in
//! half precision, so the HDR target stores them unchanged.

use crate::options::{AlphaMode, ColorSpace, ToneMapping, Tonemapper};
use crate::readback::Image;
use crate::{Content, PixelImage};

use super::common::{frame, headless_with};
use wgpu::TextureFormat as F;

/// How the composite's output is set up.
#[derive(Clone, Copy, Debug)]
struct Out {
    format: F,
    premultiplied: bool,
    extended: bool,
    p3: bool,
}

type V3 = [f64; 3];

fn mat(m: [[f64; 3]; 3], v: V3) -> V3 {
    // `m` is given as columns, as in WGSL.
    let mut o = [0.0; 3];
    for (c, col) in m.iter().enumerate() {
        for r in 0..3 {
            o[r] += col[r] * v[c];
        }
    }
    o
}

fn map(v: V3, f: impl Fn(f64) -> f64) -> V3 {
    [f(v[0]), f(v[1]), f(v[2])]
}

/// AgX with the polynomial contrast fit, output back to linear (gamma 2.2).
fn agx(c: V3) -> V3 {
    let inset = [
        [0.842479062253094, 0.0423282422610123, 0.0423756549057051],
        [0.0784335999999992, 0.878468636469772, 0.0784336],
        [0.0792237451477643, 0.0791661274605434, 0.879142973793104],
    ];
    let outset = [
        [1.19687900512017, -0.0528968517574562, -0.0529716355144438],
        [-0.0980208811401368, 1.15190312990417, -0.0980434501171241],
        [-0.0990297440797205, -0.0989611768448433, 1.15107367264116],
    ];
    let (lo, hi) = (-12.47393, 4.026069);
    let v = map(mat(inset, c), |x| {
        (x.max(1e-10).log2().clamp(lo, hi) - lo) / (hi - lo)
    });
    let contrast = map(v, |x| {
        15.5 * x.powi(6) - 40.14 * x.powi(5) + 31.96 * x.powi(4) - 6.868 * x.powi(3)
            + 0.4298 * x * x
            + 0.1191 * x
            - 0.00232
    });
    map(mat(outset, contrast), |x| x.max(0.0).powf(2.2))
}

/// Stephen Hill's fit of the ACES RRT + ODT.
fn aces(c: V3) -> V3 {
    let input = [
        [0.59719, 0.07600, 0.02840],
        [0.35458, 0.90834, 0.13383],
        [0.04823, 0.01566, 0.83777],
    ];
    let output = [
        [1.60475, -0.10208, -0.00327],
        [-0.53108, 1.10813, -0.07276],
        [-0.07367, -0.00605, 1.07602],
    ];
    let v = map(mat(input, c), |v| {
        (v * (v + 0.0245786) - 0.000090537) / (v * (0.983729 * v + 0.4329510) + 0.238081)
    });
    mat(output, v)
}

/// Khronos PBR Neutral.
fn khronos_neutral(c: V3) -> V3 {
    let start = 0.8 - 0.04;
    let desaturation = 0.15;
    let x = c[0].min(c[1]).min(c[2]);
    let offset = if x < 0.08 { x - 6.25 * x * x } else { 0.04 };
    let c = map(c, |v| v - offset);
    let peak = c[0].max(c[1]).max(c[2]);
    if peak < start {
        return c;
    }
    let d = 1.0 - start;
    let new_peak = 1.0 - d * d / (peak + d - start);
    let c = map(c, |v| v * new_peak / peak);
    let g = 1.0 - 1.0 / (desaturation * (peak - new_peak) + 1.0);
    map(c, |v| v + (new_peak - v) * g)
}

fn tonemap(c: V3, t: Tonemapper) -> V3 {
    let unit = |v: V3| map(v, |x| x.clamp(0.0, 1.0));
    match t {
        Tonemapper::Agx => unit(agx(c)),
        Tonemapper::Aces => unit(aces(c)),
        Tonemapper::KhronosNeutral => unit(khronos_neutral(c)),
        Tonemapper::Reinhard => map(c, |x| x / (1.0 + x)),
        Tonemapper::None => c,
    }
}

/// The headroom the extended outputs are rendered with.
const HEADROOM: f64 = 2.5;

/// The curve on the extended path: its SDR result `s`, whose brightest
/// channel gains (headroom − 1) t², t how far the curve takes grey of the
/// input's brightest channel past 0.8 (0 there, 1 at white); the other
/// channels in proportion.
fn extend(c: V3, s: V3, t: Tonemapper, headroom: f64) -> V3 {
    if t == Tonemapper::None {
        return s;
    }
    let grey = tonemap([c[0].max(c[1]).max(c[2]); 3], t)[1];
    let k = ((grey - 0.8).max(0.0) / 0.2).powi(2);
    let m = s[0].max(s[1]).max(s[2]).max(1e-6);
    map(s, |v| v * (1.0 + (headroom - 1.0) * k / m))
}

/// The sRGB transfer function, odd beyond [0, 1].
fn srgb_encode(x: f64) -> f64 {
    let a = x.abs();
    let e = if a <= 0.0031308 {
        a * 12.92
    } else {
        1.055 * a.powf(1.0 / 2.4) - 0.055
    };
    e.copysign(x)
}

const SRGB_TO_P3: [[f64; 3]; 3] = [
    [0.8224621, 0.0331941, 0.0170827],
    [0.1775380, 0.9668058, 0.0723974],
    [0.0, 0.0, 0.9105199],
];

/// What the composite writes for one premultiplied HDR texel: the encoded
/// colour (premultiplied where the canvas is) and alpha.
fn model(texel: [f64; 4], exposure: f64, t: Tonemapper, out: Out) -> [f64; 4] {
    let rgb = map([texel[0], texel[1], texel[2]], |x| x.max(0.0) * exposure);
    let mut rgb = tonemap(rgb, t);
    if out.extended {
        rgb = extend(
            map([texel[0], texel[1], texel[2]], |x| x.max(0.0) * exposure),
            rgb,
            t,
            HEADROOM,
        );
    }
    if out.p3 {
        rgb = mat(SRGB_TO_P3, rgb);
    }
    if !out.extended {
        rgb = map(rgb, |x| x.clamp(0.0, 1.0));
    }
    if !out.premultiplied {
        let e = map(rgb, srgb_encode);
        return [e[0], e[1], e[2], 1.0];
    }
    let alpha = texel[3].max(rgb[0]).max(rgb[1]).max(rgb[2]).clamp(0.0, 1.0);
    if alpha <= 0.0 {
        return [0.0; 4];
    }
    let e = map(rgb, |x| srgb_encode(x / alpha) * alpha);
    [e[0], e[1], e[2], alpha]
}

/// Ramp values exact in half precision: 1, 1.125, … 1.875 times powers of
/// two from 2^-12 up to 2^15.
fn ramp_value(i: u32) -> f64 {
    (1.0 + (i % 8) as f64 / 8.0) * 2f64.powi(i as i32 / 8 - 12)
}

const WIDTH: u32 = 8 * 28;

/// Rows of the input: colour ratios (each exact in half precision) and an
/// alpha (premultiplied content: rgb already scaled by it).
const ROWS: [([f64; 3], f64); 6] = [
    ([1.0, 1.0, 1.0], 1.0),
    ([1.0, 0.5, 0.25], 1.0),
    ([0.25, 1.0, 0.5], 1.0),
    ([0.5, 0.25, 1.0], 1.0),
    ([0.5, 0.5, 0.125], 0.5),
    ([0.0, 0.0, 0.0], 0.0),
];

fn input(x: u32, y: u32) -> [f64; 4] {
    let (ratio, alpha) = ROWS[y as usize];
    let v = ramp_value(x);
    // The last row: colour with no coverage, rising from nothing.
    if alpha == 0.0 {
        let w = v * 2f64.powi(-4);
        return [w, w * 0.5, 0.0, 0.0];
    }
    [ratio[0] * v, ratio[1] * v, ratio[2] * v, alpha]
}

fn content() -> Content {
    let data = (0..ROWS.len() as u32)
        .flat_map(|y| (0..WIDTH).map(move |x| (x, y)))
        .map(|(x, y)| input(x, y).map(|v| v as f32))
        .collect();
    Content::Pixels(PixelImage {
        width: WIDTH,
        height: ROWS.len() as u32,
        data,
    })
}

fn render(out: Out, t: Tonemapper, exposure: f64) -> Image {
    let mut o = crate::options::PREDICTABLE;
    o.tonemapper = t;
    o.exposure = exposure;
    o.canvas.headroom = HEADROOM;
    o.canvas.alpha_mode = if out.premultiplied {
        AlphaMode::Premultiplied
    } else {
        AlphaMode::Opaque
    };
    o.canvas.tone_mapping = if out.extended {
        ToneMapping::Extended
    } else {
        ToneMapping::Standard
    };
    o.canvas.color_space = if out.p3 {
        ColorSpace::DisplayP3
    } else {
        ColorSpace::Srgb
    };
    let mut h = headless_with(o, out.format, (WIDTH, ROWS.len() as u32));
    h.set_content(content()).expect("content");
    frame(&h, 0.0)
}

/// Compares every pixel with the model; returns the largest error, in
/// 8-bit steps.
fn compare(out: Out, t: Tonemapper, exposure: f64) -> f64 {
    let img = render(out, t, exposure);
    let mut worst: f64 = 0.0;
    for y in 0..img.height {
        for x in 0..img.width {
            let want = model(input(x, y), exposure, t, out);
            let got = img.rgba_f32(x, y);
            for c in 0..4 {
                let (g, w) = (got[c] as f64, want[c]);
                let steps = (g - w).abs() * 255.0 / w.abs().max(1.0);
                assert!(
                    steps <= 1.0,
                    "{t:?} {out:?} exposure {exposure}: pixel ({x}, {y}) channel {c}: \
                     GPU {g:.5}, model {w:.5} (input {:?})",
                    input(x, y)
                );
                worst = worst.max(steps);
            }
        }
    }
    worst
}

const TONEMAPPERS: [Tonemapper; 5] = [
    Tonemapper::Agx,
    Tonemapper::Aces,
    Tonemapper::KhronosNeutral,
    Tonemapper::Reinhard,
    Tonemapper::None,
];

#[test]
fn opaque_srgb_outputs_match_the_model() {
    for format in [F::Rgba8Unorm, F::Bgra8Unorm, F::Rgba16Float] {
        for t in TONEMAPPERS {
            let out = Out {
                format,
                premultiplied: false,
                extended: false,
                p3: false,
            };
            let worst = compare(out, t, 1.5);
            eprintln!("{format:?} opaque {t:?}: worst {worst:.3} steps");
        }
    }
}

#[test]
fn premultiplied_outputs_match_the_model() {
    for format in [F::Rgba8Unorm, F::Rgba16Float] {
        for t in TONEMAPPERS {
            let out = Out {
                format,
                premultiplied: true,
                extended: false,
                p3: false,
            };
            let worst = compare(out, t, 0.75);
            eprintln!("{format:?} premultiplied {t:?}: worst {worst:.3} steps");
        }
    }
}

#[test]
fn extended_and_display_p3_outputs_match_the_model() {
    for t in [
        Tonemapper::None,
        Tonemapper::Reinhard,
        Tonemapper::Aces,
        Tonemapper::Agx,
        Tonemapper::KhronosNeutral,
    ] {
        let extended = Out {
            format: F::Rgba16Float,
            premultiplied: true,
            extended: true,
            p3: false,
        };
        compare(extended, t, 1.0);
        let p3 = Out {
            format: F::Rgba8Unorm,
            premultiplied: false,
            extended: false,
            p3: true,
        };
        compare(p3, t, 1.0);
    }
}

/// The model itself: a few values known from the formulas' sources.
#[test]
fn the_model_agrees_with_known_values() {
    // Linear 0.5 encodes to 0.7354 (188 of 255).
    assert!((srgb_encode(0.5) * 255.0 - 187.5).abs() < 0.6);
    // Reinhard maps 1 to 1/2; ACES maps 0 to (nearly) 0 and 1e4 to (nearly) white.
    assert_eq!(tonemap([1.0; 3], Tonemapper::Reinhard), [0.5; 3]);
    assert!(tonemap([0.0; 3], Tonemapper::Aces)[0] < 1e-3);
    assert!(tonemap([1e4; 3], Tonemapper::Aces)[0] > 0.99);
    // Khronos Neutral leaves mid greys almost unchanged.
    assert!((tonemap([0.5; 3], Tonemapper::KhronosNeutral)[0] - 0.46).abs() < 0.001);
    // Premultiplied: a half-covered white keeps rgb at alpha.
    let o = Out {
        format: F::Rgba8Unorm,
        premultiplied: true,
        extended: false,
        p3: false,
    };
    let m = model([0.5, 0.5, 0.5, 0.5], 1.0, Tonemapper::None, o);
    assert!(m.iter().all(|v| (v - 0.5).abs() < 1e-12), "{m:?}");
}
