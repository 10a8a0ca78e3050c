//! Anti-aliasing against a reference (natively, lavapipe): a scene of
//! hard edges at many angles and one-pixel lines, drawn by a scene shader
//! once per pixel, against the same scene drawn at 4×4 the size and
//! box-filtered in linear display light, 8-bit after the curve. Prints
//! its figures (`cargo test --lib tests::antialias -- --nocapture`; the
//! table of BENCHMARKS.md "Anti-aliasing").

use crate::headless::Headless;
use crate::options::{Antialias, Msaa, Options};
use crate::readback::Image;
use crate::Content;

use super::common::{frame, headless_with, srgb_decode, srgb_encode};

/// The frame's side in pixels: 4 × 4 cells of 64.
const SIDE: u32 = 256;
/// The reference's samples per pixel along each axis.
const SUPER: u32 = 4;

/// Hard edges and lines in cells of 64 px: the top two rows of cells hold
/// squares turned by eight angles, the bottom two one-pixel lines at
/// eight angles. Lengths are in pixels of the 256-px frame, whatever size
/// it is drawn at.
const SCENE: &str = "
fn scene(uv: vec2f, time: f32) -> vec4f {
    let p = uv * 256.0;
    let cell = min(vec2u(p / 64.0), vec2u(3u));
    let local = p - (vec2f(cell) * 64.0 + 32.0);
    let index = cell.y * 4u + cell.x;
    let angles = array<f32, 8>(2.0, 9.0, 17.0, 26.0, 37.0, 45.0, 63.0, 81.0);
    let a = radians(angles[index % 8u]);
    let along = vec2f(cos(a), sin(a));
    let across = vec2f(-along.y, along.x);
    var lit = false;
    if index < 8u {
        let q = vec2f(dot(local, along), dot(local, across));
        lit = max(abs(q.x), abs(q.y)) < 17.0;
    } else {
        lit = abs(dot(local, across)) < 0.5 && abs(dot(local, along)) < 26.0;
    }
    return vec4f(select(vec3f(0.02), vec3f(4.0, 3.2, 2.4), lit), 1.0);
}
";

fn renderer(options: Options, size: u32) -> Headless {
    let mut h = headless_with(options, wgpu::TextureFormat::Rgba8Unorm, (size, size));
    h.set_content(Content::Shader(SCENE.into())).expect("scene");
    h
}

fn render(h: &Headless) -> Image {
    frame(h, 0.0)
}

/// The options the figures are measured with: the default curve, no
/// bloom (it would blur edges for every mode alike), no MSAA (a scene
/// shader runs once per pixel anyway), no dither (it is noise).
fn options(antialias: Antialias, dither: bool) -> Options {
    let mut o = Options::default();
    o.bloom.enabled = false;
    o.msaa = Msaa::Off;
    o.dither = dither;
    o.antialias = antialias;
    o
}

/// An image as encoded 8-bit RGB values, in [0, 255].
type Rgb = Vec<[f32; 3]>;

fn encoded(img: &Image) -> Rgb {
    let mut out = Vec::new();
    for y in 0..img.height {
        for x in 0..img.width {
            let p = img.rgba8(x, y);
            out.push([p[0], p[1], p[2]].map(f32::from));
        }
    }
    out
}

/// The reference: `big` box-filtered by `SUPER` in linear display light,
/// encoded again; and which pixels are on an edge (their samples differ).
fn reference(big: &Image) -> (Rgb, Vec<bool>) {
    let mut out = Vec::new();
    let mut edge = Vec::new();
    for y in 0..SIDE {
        for x in 0..SIDE {
            let mut sum = [0.0f32; 3];
            let (mut low, mut high) = (255u8, 0u8);
            for (sx, sy) in (0..SUPER * SUPER).map(|i| (i % SUPER, i / SUPER)) {
                let p = big.rgba8(x * SUPER + sx, y * SUPER + sy);
                low = low.min(p[1]);
                high = high.max(p[1]);
                for c in 0..3 {
                    sum[c] += srgb_decode(f32::from(p[c]) / 255.0);
                }
            }
            let n = (SUPER * SUPER) as f32;
            out.push(sum.map(|s| (srgb_encode(s / n) * 255.0).round()));
            edge.push(high - low > 2);
        }
    }
    (out, edge)
}

/// Mean absolute difference over the pixels `which` picks, per channel.
fn mean_error(a: &Rgb, b: &Rgb, which: impl Fn(usize) -> bool) -> f64 {
    let (mut sum, mut n) = (0.0f64, 0usize);
    for i in (0..a.len()).filter(|&i| which(i)) {
        for c in 0..3 {
            sum += f64::from((a[i][c] - b[i][c]).abs());
        }
        n += 3;
    }
    sum / n.max(1) as f64
}

/// Where the reference changes: pixels on an edge, and those beside one
/// that lies on a pixel's border (its samples all agree, its neighbour's
/// differ).
fn changes(want: &Rgb, edge: &[bool]) -> Vec<bool> {
    let side = SIDE as usize;
    (0..want.len())
        .map(|i| {
            let (x, y) = (i % side, i / side);
            let differs = |j: usize| (want[i][1] - want[j][1]).abs() > 2.0;
            edge[i]
                || (x > 0 && differs(i - 1))
                || (x + 1 < side && differs(i + 1))
                || (y > 0 && differs(i - side))
                || (y + 1 < side && differs(i + side))
        })
        .collect()
}

/// Whether no pixel within 2 of `i` is where the reference changes.
fn flat(edge: &[bool], i: usize) -> bool {
    let (x, y) = ((i as u32 % SIDE) as i32, (i as u32 / SIDE) as i32);
    (-2..=2).all(|dy| {
        (-2..=2).all(|dx| {
            let (u, v) = (x + dx, y + dy);
            let inside = (0..SIDE as i32).contains(&u) && (0..SIDE as i32).contains(&v);
            !inside || !edge[(v as u32 * SIDE + u as u32) as usize]
        })
    })
}

/// The mean contrast of the one-pixel lines over the background: for each
/// row (steep lines) or column (flat ones) of a line's cell, the
/// brightest green within 4 px of the line's centre less the background's.
fn line_contrast(img: &Rgb) -> f64 {
    let angles = [2.0f64, 9.0, 17.0, 26.0, 37.0, 45.0, 63.0, 81.0];
    let (mut sum, mut n) = (0.0, 0);
    for (k, angle) in angles.iter().enumerate() {
        let (cx, cy) = (64 * (k as u32 % 4) + 32, 64 * (2 + k as u32 / 4) + 32);
        let a = angle.to_radians();
        let steep = *angle > 45.0;
        for t in -16i32..=16 {
            // The line's centre at this row (steep) or column.
            let (x, y) = if steep {
                (cx as f64 + t as f64 / a.tan(), cy as f64 + t as f64)
            } else {
                (cx as f64 + t as f64, cy as f64 + t as f64 * a.tan())
            };
            let mut brightest = 0.0f32;
            for d in -4i32..=4 {
                let (px, py) = if steep {
                    ((x.floor() as i32 + d) as u32, y.floor() as u32)
                } else {
                    (x.floor() as u32, (y.floor() as i32 + d) as u32)
                };
                brightest = brightest.max(img[(py * SIDE + px) as usize][1]);
            }
            let background = img[((cy - 30) * SIDE + cx - 30) as usize][1];
            sum += f64::from(brightest - background);
            n += 1;
        }
    }
    sum / f64::from(n)
}

#[test]
fn antialiasing_approaches_the_supersampled_reference() {
    let big = render(&renderer(options(Antialias::None, false), SIDE * SUPER));
    let (want, edge) = reference(&big);
    let edges = edge.iter().filter(|e| **e).count();
    assert!(edges > 1000, "the scene has edges: {edges}");
    let want_contrast = line_contrast(&want);
    let changing = changes(&want, &edge);
    let mut h = renderer(options(Antialias::None, false), SIDE);
    let none = encoded(&render(&h));
    let base = mean_error(&none, &want, |i| edge[i]);
    println!("antialias: mean error on {edges} edge pixels (8-bit), line contrast kept");
    println!(
        "  none: {base:.2}, {:.0} %",
        100.0 * line_contrast(&none) / want_contrast
    );
    for (mode, most) in [(Antialias::Fxaa, 0.65), (Antialias::Smaa, 0.45)] {
        h.set_settings(options(mode, false)).expect("options");
        let got = encoded(&render(&h));
        let error = mean_error(&got, &want, |i| edge[i]);
        let kept = line_contrast(&got) / want_contrast;
        println!(
            "  {mode:?}: {error:.2} ({:.2}× none), {:.0} %",
            error / base,
            100.0 * kept
        );
        let half = (SIDE * SIDE / 2) as usize;
        let lines = mean_error(&got, &want, |i| edge[i] && i >= half);
        let squares = mean_error(&got, &want, |i| edge[i] && i < half);
        println!("    squares {squares:.2}, lines {lines:.2}");
        assert!(
            error <= most * base,
            "{mode:?}: edge error {error:.2} against {base:.2} without"
        );
        assert!(
            kept >= 0.6,
            "{mode:?}: one-pixel lines keep {kept:.2} of their contrast"
        );
        // Flat areas are the frame without anti-aliasing, dither and all.
        let mut dithered = renderer(options(Antialias::None, true), SIDE);
        let plain = encoded(&render(&dithered));
        dithered.set_settings(options(mode, true)).expect("options");
        let smoothed = encoded(&render(&dithered));
        for i in (0..plain.len()).filter(|&i| flat(&changing, i)) {
            for c in 0..3 {
                let d = (plain[i][c] - smoothed[i][c]).abs();
                assert!(d <= 1.0, "{mode:?}: flat pixel {i} moved by {d}");
            }
        }
    }
}

/// On a transparent canvas a shape's edge is in its coverage: each mode
/// smooths alpha along the edge as it smooths colour, and every pixel
/// stays premultiplied (colour at most alpha).
#[test]
fn antialiasing_smooths_coverage_on_a_transparent_canvas() {
    // A bright disc's edge, drawn once per pixel over nothing.
    const DISC: &str = "
fn scene(uv: vec2f, time: f32) -> vec4f {
    let inside = length(uv - 0.5) < 0.3;
    return select(vec4f(0.0), vec4f(0.9, 0.6, 0.3, 1.0), inside);
}
";
    let mut o = options(Antialias::None, false);
    o.canvas.alpha_mode = crate::options::AlphaMode::Premultiplied;
    let mut h = renderer(o, 64);
    h.set_content(Content::Shader(DISC.into())).expect("scene");
    let partial = |img: &Image| {
        let mut n = 0;
        for y in 0..img.height {
            for x in 0..img.width {
                let a = img.rgba8(x, y)[3];
                n += usize::from(a > 8 && a < 247);
            }
        }
        n
    };
    let none = render(&h);
    super::common::check_premultiplied(&none, "none");
    let hard = partial(&none);
    for mode in [Antialias::Fxaa, Antialias::Smaa] {
        o.antialias = mode;
        h.set_settings(o).expect("options");
        let img = render(&h);
        super::common::check_premultiplied(&img, &format!("{mode:?}"));
        let soft = partial(&img);
        assert!(
            soft >= hard + 40,
            "{mode:?}: {soft} partly covered pixels, {hard} without"
        );
    }
}

/// SMAA's area table never changes: it is computed once per device, the
/// first time a frame needs it. No frame runs a pass for it (the frame
/// samples it as a texture made outside it), and a frame built again
/// creates its own targets and not the table.
#[test]
fn smaa_computes_its_table_once_per_device() {
    use crate::graph::Owner;
    let smaa = Options {
        antialias: Antialias::Smaa,
        msaa: Msaa::Off,
        ..Options::default()
    };
    let mut h = headless_with(smaa, wgpu::TextureFormat::Rgba8Unorm, (64, 48));
    assert!(h.render(0.0));
    let passes = h.chain.pass_names();
    assert!(passes.iter().any(|p| p == "smaa weights"), "{passes:?}");
    assert!(!passes.iter().any(|p| p == "smaa area"), "{passes:?}");
    // The frame's own textures, by label.
    let own = |h: &Headless| -> Vec<String> {
        let graph = h.chain.graph().expect("a built frame");
        let table = graph.textures.iter().find(|t| t.label == "smaa area");
        assert_eq!(table.map(|t| t.owner), Some(Owner::Caller));
        let mine = graph.textures.iter().filter(|t| t.owner == Owner::Chain);
        mine.map(|t| t.label.clone()).collect()
    };
    let first = own(&h);
    // Off, then on again: the targets SMAA's frame has beyond the other
    // are made again; nothing else is.
    h.set_settings(Options {
        msaa: Msaa::Off,
        ..Options::default()
    })
    .expect("options");
    assert!(h.render(0.0));
    let graph = h.chain.graph().expect("a built frame");
    let without: Vec<String> = graph.textures.iter().map(|t| t.label.clone()).collect();
    let before = h.gpu.counters.snapshot().textures;
    h.set_settings(smaa).expect("options");
    assert!(h.render(0.0));
    let made = h.gpu.counters.snapshot().textures - before;
    assert_eq!(own(&h), first);
    let new = first.iter().filter(|l| !without.contains(l)).count() as u64;
    assert!(new >= 3, "{first:?} against {without:?}");
    assert_eq!(made, new, "textures made for {first:?} against {without:?}");
    assert_eq!(h.gpu.error_count(), 0, "{:?}", h.gpu.last_error());
}
