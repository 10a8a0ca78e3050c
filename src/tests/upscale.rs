//! Rendering fewer pixels (natively, lavapipe): the edge-adaptive
//! upscaler and sharpening against references. The scene is hard edges
//! at many angles and one-pixel lines, each pixel averaged over 4 x 4
//! samples of its own footprint (the scene supersamples itself), so a
//! frame at `renderScale: 0.5` holds what a camera would at that size and
//! the same scene at full size is the reference. Prints its figures
//! (`cargo test --lib tests::upscale -- --nocapture`; BENCHMARKS.md).

use crate::headless::Headless;
use crate::options::{Msaa, Options, Tonemapper, Upscale};
use crate::readback::Image;
use crate::Content;

use super::common::{frame, headless_with};

/// The output's side in pixels.
const SIDE: u32 = 256;

/// Squares turned by eight angles (top half) and one-pixel lines at eight
/// angles (bottom half), in cells of 64 output pixels, each pixel the
/// mean of 4 x 4 samples over its footprint (`dpdx`, `dpdy`: any size).
const SCENE: &str = "
fn lit_at(p: vec2f) -> f32 {
    let cell = min(vec2u(p / 64.0), vec2u(3u));
    let local = p - (vec2f(cell) * 64.0 + 32.0);
    let index = cell.y * 4u + cell.x;
    let angles = array<f32, 8>(2.0, 9.0, 17.0, 26.0, 37.0, 45.0, 63.0, 81.0);
    let a = radians(angles[index % 8u]);
    let along = vec2f(cos(a), sin(a));
    let across = vec2f(-along.y, along.x);
    if index < 8u {
        let q = vec2f(dot(local, along), dot(local, across));
        return select(0.0, 1.0, max(abs(q.x), abs(q.y)) < 17.0);
    }
    return select(0.0, 1.0, abs(dot(local, across)) < 0.5 && abs(dot(local, along)) < 26.0);
}

fn scene(uv: vec2f, time: f32) -> vec4f {
    let p = uv * 256.0;
    let step = vec2f(abs(dpdx(p).x), abs(dpdy(p).y));
    var lit = 0.0;
    for (var i = 0; i < 16; i++) {
        let o = (vec2f(f32(i % 4), f32(i / 4)) + 0.5) / 4.0 - 0.5;
        lit += lit_at(p + o * step);
    }
    return vec4f(mix(vec3f(0.05), vec3f(0.9, 0.8, 0.7), lit / 16.0), 1.0);
}
";

/// No curve (display values are the scene's), no bloom, no MSAA, no
/// dither: what is measured is the upscaling alone.
fn options(upscale: Upscale) -> Options {
    let mut o = Options::default();
    o.tonemapper = Tonemapper::None;
    o.bloom.enabled = false;
    o.msaa = Msaa::Off;
    o.dither = false;
    o.upscale = upscale;
    o
}

/// The frame at `scale` of the output's size, scaled up as `o` says.
fn render(o: Options, scale: f64) -> Image {
    let mut h: Headless = headless_with(o, wgpu::TextureFormat::Rgba8Unorm, (SIDE, SIDE));
    h.set_content(Content::Shader(SCENE.into())).expect("scene");
    let inner = (SIDE as f64 * scale).round() as u32;
    h.chain
        .resize_scaled(&h.gpu, (inner, inner), (SIDE, SIDE))
        .expect("resize");
    frame(&h, 0.0)
}

/// The red channel (the three move together) at `(x, y)`, 0 to 255.
fn at(img: &Image, x: u32, y: u32) -> i32 {
    i32::from(img.rgba8(x, y)[0])
}

/// The least and greatest of `img` within `r` pixels of `(x, y)`.
fn range(img: &Image, x: u32, y: u32, r: i32) -> (i32, i32) {
    let (mut lo, mut hi) = (255, 0);
    for dy in -r..=r {
        for dx in -r..=r {
            let (sx, sy) = (x as i32 + dx, y as i32 + dy);
            if sx >= 0 && sy >= 0 && sx < SIDE as i32 && sy < SIDE as i32 {
                let v = at(img, sx as u32, sy as u32);
                lo = lo.min(v);
                hi = hi.max(v);
            }
        }
    }
    (lo, hi)
}

/// Mean absolute error against `reference` over the pixels near an edge
/// (where the reference varies within 2 pixels), and the largest error
/// where it is flat within 3 pixels.
fn errors(img: &Image, reference: &Image) -> (f64, i32) {
    let (mut sum, mut n, mut flat) = (0.0, 0, 0);
    for y in 0..SIDE {
        for x in 0..SIDE {
            let e = (at(img, x, y) - at(reference, x, y)).abs();
            let (lo, hi) = range(reference, x, y, 2);
            if hi - lo > 8 {
                sum += f64::from(e);
                n += 1;
            }
            let (lo, hi) = range(reference, x, y, 3);
            if hi == lo {
                flat = flat.max(e);
            }
        }
    }
    (sum / f64::from(n.max(1)), flat)
}

#[test]
fn the_edge_upscaler_keeps_edges_closer_to_the_full_size_frame() {
    let reference = render(options(Upscale::Bilinear), 1.0);
    let bilinear = render(options(Upscale::Bilinear), 0.5);
    let edge = render(options(Upscale::Edge), 0.5);
    let (bilinear_error, _) = errors(&bilinear, &reference);
    let (edge_error, flat) = errors(&edge, &reference);
    let ratio = edge_error / bilinear_error;
    println!(
        "renderScale 0.5, edge error (mean |8-bit| near edges): bilinear {bilinear_error:.2}, \
         edge {edge_error:.2} ({ratio:.2}x); flat areas off by at most {flat}/255"
    );
    assert!(
        ratio <= 0.75,
        "edge {edge_error:.2} against bilinear {bilinear_error:.2}"
    );
    assert!(flat <= 1, "a flat area moved by {flat}/255");
    // No ringing: no pixel beyond what the full-size frame holds around it.
    let mut worst = 0;
    for y in 0..SIDE {
        for x in 0..SIDE {
            let (lo, hi) = range(&reference, x, y, 2);
            let v = at(&edge, x, y);
            worst = worst.max(lo - v).max(v - hi);
        }
    }
    assert!(
        worst <= 2,
        "a pixel lies {worst}/255 outside its neighbourhood's range"
    );
    // The option does nothing at full size: the frame is loaded as it is.
    let full = render(options(Upscale::Edge), 1.0);
    assert_eq!(
        full.data, reference.data,
        "upscale: 'edge' at renderScale 1"
    );
}

/// A soft vertical edge: linear light rising from 0.05 to 0.8 along a
/// smoothstep 6 pixels wide, centred on the output's middle column.
const SOFT_EDGE: &str = "
fn scene(uv: vec2f, time: f32) -> vec4f {
    let t = smoothstep(-3.0, 3.0, uv.x * 256.0 - 128.0);
    return vec4f(vec3f(mix(0.05, 0.8, t)), 1.0);
}
";

fn render_soft(o: Options) -> Image {
    let mut h: Headless = headless_with(o, wgpu::TextureFormat::Rgba8Unorm, (SIDE, 32));
    h.set_content(Content::Shader(SOFT_EDGE.into()))
        .expect("scene");
    frame(&h, 0.0)
}

/// Pixels between where row `y` crosses 10 % and 90 % of its range.
fn rise(img: &Image, y: u32) -> f64 {
    let row: Vec<f64> = (0..img.width).map(|x| f64::from(at(img, x, y))).collect();
    let (lo, hi) = (row[0], row[row.len() - 1]);
    let cross = |f: f64| {
        let level = lo + f * (hi - lo);
        let i = row.iter().position(|&v| v >= level).unwrap_or(0).max(1);
        (i - 1) as f64 + (level - row[i - 1]) / (row[i] - row[i - 1]).max(1e-9)
    };
    cross(0.9) - cross(0.1)
}

#[test]
fn sharpening_steepens_a_soft_edge_without_a_halo() {
    let mut o = options(Upscale::Bilinear);
    let soft = render_soft(o);
    o.sharpen.amount = 0.5;
    let sharp = render_soft(o);
    let (before, after) = (rise(&soft, 16), rise(&sharp, 16));
    println!(
        "sharpen 0.5: a soft edge's 10-90 % rise {before:.2} px -> {after:.2} px ({:.2}x)",
        after / before
    );
    assert!(after <= 0.8 * before, "rise {before:.2} -> {after:.2} px");
    let (mut flat, mut halo) = (0, 0);
    for y in 0..32 {
        for x in 0..SIDE {
            let v = at(&sharp, x, y);
            let (lo, hi) = {
                let row = |dx: i32| at(&soft, (x as i32 + dx).clamp(0, SIDE as i32 - 1) as u32, y);
                let n = [row(-1), row(0), row(1)];
                (
                    n.iter().copied().min().unwrap_or(0),
                    n.iter().copied().max().unwrap_or(0),
                )
            };
            halo = halo.max(lo - v).max(v - hi);
            if lo == hi {
                flat = flat.max((v - at(&soft, x, y)).abs());
            }
        }
    }
    assert!(flat <= 1, "a flat area moved by {flat}/255");
    assert!(
        halo <= 2,
        "a pixel lies {halo}/255 outside its neighbourhood's range"
    );
    // With anti-aliasing, after it; the frame draws without a GPU error.
    for antialias in [
        crate::options::Antialias::Fxaa,
        crate::options::Antialias::Smaa,
    ] {
        o.antialias = antialias;
        let with = render_soft(o);
        let r = rise(&with, 16);
        assert!(
            r <= 0.8 * before,
            "{antialias:?}: rise {before:.2} -> {r:.2} px"
        );
    }
}

/// The picture of docs/performance.md "Render fewer pixels": parts of the
/// test scene (a turned square, a one-pixel line) magnified three times,
/// as the full-size frame, then at renderScale 0.5 scaled up
/// bilinearly, edge-adaptively, and edge-adaptively with sharpening 0.5:
/// `cargo test --lib tests::upscale::pictures -- --ignored`.
#[test]
#[ignore = "a tool: writes docs/render-fewer-pixels.png"]
fn pictures() -> Result<(), Box<dyn std::error::Error>> {
    let mut sharpened = options(Upscale::Edge);
    sharpened.sharpen.amount = 0.5;
    let frames = [
        render(options(Upscale::Bilinear), 1.0),
        render(options(Upscale::Bilinear), 0.5),
        render(options(Upscale::Edge), 0.5),
        render(sharpened, 0.5),
    ];
    // 64 × 64 pixels around the 17° square (top row) and the 17° line
    // (bottom row), magnified three times.
    let (side, zoom, gap) = (64u32, 3u32, 6u32);
    let cell = side * zoom + gap;
    let width = frames.len() as u32 * cell - gap;
    let height = 2 * cell - gap;
    let mut data = vec![255u8; (width * height * 4) as usize];
    for (row, (x0, y0)) in [(128u32, 0u32), (128, 128)].into_iter().enumerate() {
        for (i, img) in frames.iter().enumerate() {
            for y in 0..side * zoom {
                for x in 0..side * zoom {
                    let px = img.rgba8(x0 + x / zoom, y0 + y / zoom);
                    let (ox, oy) = (i as u32 * cell + x, row as u32 * cell + y);
                    let at = ((oy * width + ox) * 4) as usize;
                    data[at..at + 4].copy_from_slice(&px);
                }
            }
        }
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/render-fewer-pixels.png");
    let file = std::fs::File::create(path)?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), width, height);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header()?.write_image_data(&data)?;
    println!("wrote {path}");
    Ok(())
}

/// Sharpening after anti-aliasing keeps its blend: a hard edge leaning
/// 30° that FXAA or SMAA smoothed is smoothed as much with sharpening at
/// 0.5 (the aliased image's own pixel is held by its neighbourhood's
/// range, so sharpening adds nothing there).
#[test]
fn sharpening_keeps_what_anti_aliasing_smoothed() {
    const HARD: &str = "
fn scene(uv: vec2f, time: f32) -> vec4f {
    let p = uv * 256.0;
    let lit = p.x - 128.0 > (p.y - 16.0) * 0.577;
    return vec4f(select(vec3f(0.05), vec3f(0.8), lit), 1.0);
}
";
    let draw = |o: Options| {
        let mut h: Headless = headless_with(o, wgpu::TextureFormat::Rgba8Unorm, (SIDE, 32));
        h.set_content(Content::Shader(HARD.into())).expect("scene");
        frame(&h, 0.0)
    };
    // Pixels strictly between the two sides' values.
    let between = |img: &Image| {
        let (lo, hi) = (at(img, 0, 16), at(img, SIDE - 1, 16));
        let mut n = 0;
        for y in 0..32 {
            for x in 0..SIDE {
                let v = at(img, x, y);
                n += usize::from(v > lo + 8 && v < hi - 8);
            }
        }
        n
    };
    for antialias in [
        crate::options::Antialias::Fxaa,
        crate::options::Antialias::Smaa,
    ] {
        let mut o = options(Upscale::Bilinear);
        o.antialias = antialias;
        let smoothed = draw(o);
        o.sharpen.amount = 0.5;
        let sharpened = draw(o);
        let (before, after) = (between(&smoothed), between(&sharpened));
        assert!(before >= 16, "{antialias:?}: {before} pixels smoothed");
        assert!(
            after * 10 >= before * 9,
            "{antialias:?}: {before} pixels smoothed, {after} with sharpening"
        );
    }
}

/// On a transparent canvas coverage moves with the light: every pixel
/// stays premultiplied (colour at most alpha) and no edge pixel turns
/// darker than both sides while still partly covered.
#[test]
fn sharpening_keeps_a_transparent_canvas_premultiplied() {
    const SOFT_DISC: &str = "
fn scene(uv: vec2f, time: f32) -> vec4f {
    let cover = 1.0 - smoothstep(0.26, 0.34, length(uv - 0.5));
    return vec4f(vec3f(0.9, 0.6, 0.3) * cover, cover);
}
";
    let mut o = options(Upscale::Bilinear);
    o.canvas.alpha_mode = crate::options::AlphaMode::Premultiplied;
    o.sharpen.amount = 1.0;
    let mut h: Headless = headless_with(o, wgpu::TextureFormat::Rgba8Unorm, (64, 64));
    h.set_content(Content::Shader(SOFT_DISC.into()))
        .expect("scene");
    let img = frame(&h, 0.0);
    super::common::check_premultiplied(&img, "sharpen 1");
    let mut partial = 0;
    for y in 0..64 {
        for x in 0..64 {
            let [r, _, _, a] = img.rgba8(x, y);
            if a > 16 && a < 240 {
                partial += 1;
                // Light in proportion to coverage, as drawn: 0.9 of it.
                let want = f64::from(a) * 0.9;
                let got = f64::from(r);
                assert!(
                    (got - want).abs() <= 0.12 * want + 3.0,
                    "({x}, {y}): red {r}, alpha {a}"
                );
            }
        }
    }
    assert!(partial >= 20, "{partial} partly covered pixels");
}
