//! A model on the CPU of what SMAA 1x's weights pass computes at an edge
//! (Jimenez et al., "SMAA: Enhanced Subpixel Morphological Antialiasing",
//! 2012): the area an antialiased line covers, for orthogonal and diagonal
//! lines, and how far a search's last step reaches. SMAA's reference
//! ships the areas as a texture and reads the search's reach from another;
//! `shaders/smaa_area.wgsl` computes the area table on the GPU and
//! `shaders/smaa_weights.wgsl` the reach where it needs it. The tests
//! below hold those functions to this model, whose geometry they check
//! first.
//!
//! Only SMAA 1x is served: its subsample offsets are all zero.

/// U-shaped orthogonal patterns shorter than this are rounded more than
/// their straight revectorisation, so short bumps are not flattened.
const SMOOTH_DISTANCE: f64 = 32.0;

/// Where an orthogonal line's end sits, in pixels across the edge: half a
/// pixel below (the crossing edge goes down into the pixel's own row:
/// negative), above (positive), or 0 when the end is unknown. A crossing
/// edge on both sides makes the end the mirror of the other end (a full
/// step); codes 2 and none-with-both are unknown.
fn ortho_end(code: usize, other: usize) -> f64 {
    match (code, other) {
        (3, _) => -0.5,
        (1, _) => 0.5,
        (4, 3) => 0.5,
        (4, 1) => -0.5,
        _ => 0.0,
    }
}

/// `[r, g]` for a pixel `left` pixels from the left end and `right` from
/// the right end of a horizontal edge whose ends have the crossing codes
/// `cl` and `cr`: `3 * below + 1 * above` (0, 1, 3 or 4: what the shader's
/// bilinear fetch a quarter texel off the line reads, times four). `r` is
/// the share of the pixel on its own side of the antialiased line that
/// takes the colour across the edge, `g` the share of the neighbour across
/// the edge that takes this pixel's colour.
fn ortho_area(cl: usize, cr: usize, left: f64, right: f64) -> [f64; 2] {
    let (hl, hr) = (ortho_end(cl, cr), ortho_end(cr, cl));
    // The edge runs from x = 0 to x = d; the pixel covers left..left + 1.
    let d = left + right + 1.0;
    let mid = d / 2.0;
    if hl != 0.0 && hr == 0.0 {
        // L: the line rises from the known end to the edge at the middle;
        // the half beyond the middle is left sharp (its end is unknown).
        if left <= right {
            return line_area((0.0, hl), (mid, 0.0), left);
        }
    } else if hl == 0.0 && hr != 0.0 {
        if left >= right {
            return line_area((mid, 0.0), (d, hr), left);
        }
    } else if hl == -hr && hl != 0.0 {
        // Z: one straight line from end to end.
        return line_area((0.0, hl), (d, hr), left);
    } else if hl == hr && hl != 0.0 {
        // U: two halves meeting the edge in the middle, rounded when short.
        let p = (d / SMOOTH_DISTANCE).min(1.0);
        let round = |a: f64| {
            let bump = (2.0 * a).sqrt() * 0.5;
            bump + (a - bump) * p
        };
        let a = line_area((0.0, hl), (mid, 0.0), left);
        let b = line_area((mid, 0.0), (d, hr), left);
        return [round(a[0]) + round(b[0]), round(a[1]) + round(b[1])];
    }
    [0.0, 0.0]
}

/// The area between the segment `p` -> `q` (x increasing, y the offset
/// across the edge) and the edge itself over the pixel `x..x + 1`, split
/// into `[below, above]`.
fn line_area(p: (f64, f64), q: (f64, f64), x: f64) -> [f64; 2] {
    let (lo, hi) = (x.max(p.0), (x + 1.0).min(q.0));
    if hi <= lo {
        return [0.0, 0.0];
    }
    let at = |t: f64| p.1 + (q.1 - p.1) * (t - p.0) / (q.0 - p.0);
    let (ya, yb) = (at(lo), at(hi));
    // Integrate each side of the zero crossing as a triangle (or the whole
    // span as a trapezoid when there is none).
    let parts = if ya * yb >= 0.0 {
        [(ya + yb) * 0.5 * (hi - lo), 0.0]
    } else {
        let zero = lo + (hi - lo) * ya / (ya - yb);
        [ya * 0.5 * (zero - lo), yb * 0.5 * (hi - zero)]
    };
    let below = parts.iter().filter(|a| **a < 0.0).map(|a| -a).sum();
    let above = parts.iter().filter(|a| **a > 0.0).sum();
    [below, above]
}

/// Candidate start points of a diagonal line, per start code: the pair
/// averaged (one point twice when the crossing edges pin it). Coordinates
/// are in pixels, x along the staircase, y across it; the pixel studied is
/// the unit square at `(1 + left, left)`, its neighbour across the edge
/// the one at `(1 + left, 1 + left)`.
const DIAG_STARTS: [[(f64, f64); 2]; 4] = [
    [(0.0, 0.0), (1.0, 0.0)],
    [(1.0, 0.0), (1.0, 0.0)],
    [(1.0, 1.0), (1.0, 1.0)],
    [(1.0, 1.0), (1.0, 0.0)],
];

/// Candidate end points per end code, relative to `(d, d)` where `d` is
/// the line's length in steps; paired with [`DIAG_STARTS`] by position.
const DIAG_ENDS: [[(f64, f64); 2]; 4] = [
    [(0.0, 0.0), (1.0, 0.0)],
    [(1.0, 1.0), (1.0, 1.0)],
    [(1.0, 0.0), (1.0, 0.0)],
    [(1.0, 1.0), (1.0, 0.0)],
];

/// `[r, g]` for a pixel `left` steps from the start and `right` from the
/// end of a diagonal line with the start and end codes given: the two-bit
/// crossing codes the shader reads at the two ends (`2 * first + second`,
/// see [`DIAG_STARTS`] and [`DIAG_ENDS`]).
fn diag_area(start: usize, end: usize, left: f64, right: f64) -> [f64; 2] {
    // Neither end known: the line runs through the staircase's corners or
    // through its steps' middles just as likely, so take both.
    let (start, end) = if start == 0 && end == 0 {
        (3, 3)
    } else {
        (start, end)
    };
    let d = left + right + 1.0;
    let mut sum = [0.0, 0.0];
    for k in 0..2 {
        let p = DIAG_STARTS[start][k];
        let q = (DIAG_ENDS[end][k].0 + d, DIAG_ENDS[end][k].1 + d);
        let own = right_of(p, q, (1.0 + left, left));
        let across = right_of(p, q, (1.0 + left, 1.0 + left));
        sum[0] += (1.0 - own) * 0.5;
        sum[1] += across * 0.5;
    }
    sum
}

/// The fraction of the unit square at `corner` that lies strictly on the
/// clockwise side of the line through `p` and `q` (x right, y up); all of
/// it when the two points coincide.
fn right_of(p: (f64, f64), q: (f64, f64), corner: (f64, f64)) -> f64 {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    if dx == 0.0 && dy == 0.0 {
        return 1.0;
    }
    let side = |v: (f64, f64)| dy * (v.0 - p.0) - dx * (v.1 - p.1);
    let (x, y) = corner;
    let square = [(x, y), (x + 1.0, y), (x + 1.0, y + 1.0), (x, y + 1.0)];
    // Clip the square to the half plane (one Sutherland-Hodgman step), then
    // take the clipped polygon's area by the shoelace formula.
    let mut poly = [(0.0, 0.0); 5];
    let mut n = 0;
    for i in 0..4 {
        let (a, b) = (square[i], square[(i + 1) % 4]);
        let (sa, sb) = (side(a), side(b));
        if sa > 0.0 {
            poly[n] = a;
            n += 1;
        }
        if (sa > 0.0) != (sb > 0.0) && sa != sb {
            let t = sa / (sa - sb);
            poly[n] = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
            n += 1;
        }
    }
    let mut twice = 0.0;
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        twice += a.0 * b.1 - b.0 * a.1;
    }
    twice.abs() * 0.5
}

/// The four flags `[far above, near above, far, near]` whose bilinear mix
/// is `code / 32` (the fetch a horizontal search ends on sits a quarter
/// pixel from one pixel centre towards the next and an eighth of a pixel
/// up, and mixes the four with weights 1, 3, 7 and 21 in 32nds), or `None` when no combination gives it. "Near" is the
/// pixel next to the sample point weighted 3/4, "far" the one weighted
/// 1/4; "above" the row above the edge, weighted 1/8.
fn decode_mix(code: usize) -> Option<[bool; 4]> {
    const WEIGHTS: [usize; 4] = [1, 3, 7, 21];
    (0..16usize)
        .map(|bits| std::array::from_fn(|i| bits >> i & 1 == 1))
        .find(|flags: &[bool; 4]| {
            (0..4)
                .filter(|&i| flags[i])
                .map(|i| WEIGHTS[i])
                .sum::<usize>()
                == code
        })
}

/// Pixels the last step still counts, from the left-edge (`left`) and
/// top-edge (`top`) flags it read (see [`decode_mix`]). The near pixel
/// counts if its top edge is on and, going right, no edge crosses the line
/// at its left (the step's start side); the far one too if its top edge
/// is on and no edge crosses the line between the two. A pixel's left edge
/// is the boundary on its left, so the flags that mean "between" differ
/// with the direction.
fn search_step(rightward: bool, left: [bool; 4], top: [bool; 4]) -> u8 {
    let near_blocked = rightward && (left[1] || left[3]);
    if !top[3] || near_blocked {
        return 0;
    }
    let far_blocked = if rightward {
        left[0] || left[2]
    } else {
        left[1] || left[3]
    };
    if top[2] && !far_blocked {
        2
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: [f64; 2], b: [f64; 2]) -> bool {
        (a[0] - b[0]).abs() < 1e-9 && (a[1] - b[1]).abs() < 1e-9
    }

    #[test]
    fn orthogonal_areas_match_their_geometry() {
        let o = ortho_area;
        // L from below, one-pixel edge: a triangle of 1/2 x 1/2 / 2 below.
        assert!(close(o(3, 0, 0.0, 0.0), [0.125, 0.0]));
        // Same from above.
        assert!(close(o(1, 0, 0.0, 0.0), [0.0, 0.125]));
        // The L's far half stays sharp.
        assert_eq!(o(3, 0, 4.0, 1.0), [0.0, 0.0]);
        // Z from above to below, two pixels (d = 2): the first pixel holds
        // the trapezoid 0.5 -> 0, a quarter above.
        assert!(close(o(1, 3, 0.0, 1.0), [0.0, 0.25]));
        // Z, one pixel: two triangles of 1/8 each side.
        assert!(close(o(1, 3, 0.0, 0.0), [0.125, 0.125]));
        // U below, one pixel: 2 * lerp(1/4, 1/8, 1/32).
        assert!(close(o(3, 3, 0.0, 0.0), [2.0 * (0.25 - 0.125 / 32.0), 0.0]));
        // No crossing, or crossings both ways at both ends: sharp.
        for (l, r) in [(0, 0), (4, 0), (0, 4), (4, 4)] {
            for (i, j) in [(0.0, 0.0), (9.0, 25.0), (225.0, 225.0)] {
                assert_eq!(o(l, r, i, j), [0.0, 0.0], "{l} {r} {i} {j}");
            }
        }
        // Long Z: the middle pixel is split evenly, almost nothing each.
        let z = o(1, 3, 225.0, 225.0);
        assert!((z[0] - z[1]).abs() < 1e-12 && z[0] < 1.0 / 255.0, "{z:?}");
    }

    #[test]
    fn orthogonal_areas_mirror() {
        let flip = |c: usize| [0, 3, 2, 1, 4][c];
        for l in [0, 1, 3, 4] {
            for r in [0, 1, 3, 4] {
                for i in 0..40 {
                    for j in 0..40 {
                        let (a, b) = (i as f64, j as f64);
                        let v = ortho_area(l, r, a, b);
                        // Left and right swapped: the same areas.
                        assert!(close(v, ortho_area(r, l, b, a)), "{l} {r} {i} {j}");
                        // Up and down swapped: below and above swap.
                        let f = ortho_area(flip(l), flip(r), a, b);
                        assert!(close(v, [f[1], f[0]]), "{l} {r} {i} {j}");
                    }
                }
            }
        }
    }

    #[test]
    fn diagonal_areas_match_their_geometry() {
        for (i, j) in [(0.0, 3.0), (2.0, 2.0), (7.0, 12.0), (19.0, 19.0)] {
            // Pinned to (1, 0) -> (1 + d, d): the line is the own pixel's
            // diagonal, half of it; the neighbour is untouched.
            assert!(close(diag_area(1, 2, i, j), [0.5, 0.0]));
            // Pinned to (1, 1) -> (1 + d, 1 + d): the neighbour's diagonal.
            assert!(close(diag_area(2, 1, i, j), [0.0, 0.5]));
            // Unknown ends: both lines averaged.
            assert!(close(diag_area(0, 0, i, j), [0.25, 0.25]));
            assert_eq!(diag_area(0, 0, i, j), diag_area(3, 3, i, j));
        }
        // Unpinned start (lines from (0, 0) and (1, 0)), end pinned to
        // (1 + d, d), first pixel of d = 3. Line (0, 0) -> (4, 3): it
        // leaves 23/24 of the own square (1..2, 0..1) below it and 1/6 of
        // the neighbour (1..2, 1..2); line (1, 0) -> (4, 3) halves the own
        // square and misses the neighbour.
        let own = (1.0 - 23.0 / 24.0 + 0.5) * 0.5;
        let across = (1.0 / 6.0) * 0.5;
        assert!(close(diag_area(0, 2, 0.0, 2.0), [own, across]));
    }

    #[test]
    fn clipped_square_areas() {
        // A horizontal line through the middle: half the square.
        assert!((right_of((0.0, 0.5), (4.0, 0.5), (1.0, 0.0)) - 0.5).abs() < 1e-12);
        // Direction reversed: the other side, still half.
        assert!((right_of((4.0, 0.5), (0.0, 0.5), (1.0, 0.0)) - 0.5).abs() < 1e-12);
        // Line above the square, pointing right: the square is clockwise.
        assert_eq!(right_of((0.0, 2.0), (4.0, 2.0), (1.0, 0.0)), 1.0);
        assert_eq!(right_of((4.0, 2.0), (0.0, 2.0), (1.0, 0.0)), 0.0);
    }

    /// The pixels a search's last step counts, from its fetch's mixes in
    /// 32nds: `r` the crossing edges', `g` the line's.
    fn length(rightward: bool, r: usize, g: usize) -> Option<u8> {
        Some(search_step(rightward, decode_mix(r)?, decode_mix(g)?))
    }

    #[test]
    fn search_steps_at_known_edges() {
        for rightward in [false, true] {
            // All four line edges on, no crossing edge: both pixels count.
            assert_eq!(length(rightward, 0, 32), Some(2));
            // Only the near pixel's line edge (21/32): one.
            assert_eq!(length(rightward, 0, 21), Some(1));
            // No near line edge: nothing, whatever else is on.
            for r in 0..=32 {
                for g in [0, 11] {
                    assert_eq!(length(rightward, r, g).unwrap_or(0), 0, "{r} {g}");
                }
            }
        }
        // Near and far line edges on (28/32), an edge crossing the line at
        // the near pixel's left (flag 1, r = 3/32): going left, that
        // crossing lies beyond the near pixel, which counts; going right it
        // lies before it, and nothing counts.
        assert_eq!(length(false, 3, 28), Some(1));
        assert_eq!(length(true, 3, 28), Some(0));
        // The crossing at the far pixel's left instead (flags 0 and 2,
        // r = 8/32): going left it lies beyond both; going right it lies
        // between them.
        assert_eq!(length(false, 8, 28), Some(2));
        assert_eq!(length(true, 8, 28), Some(1));
    }

    #[test]
    fn every_mix_decodes_uniquely() {
        let valid: Vec<usize> = (0..=32).filter(|&c| decode_mix(c).is_some()).collect();
        assert_eq!(
            valid,
            [0, 1, 3, 4, 7, 8, 10, 11, 21, 22, 24, 25, 28, 29, 31, 32]
        );
    }

    /// The crossing flags (first, second) of a diagonal end's code.
    fn flags(code: usize) -> [f32; 2] {
        [(code >> 1) as f32, (code & 1) as f32]
    }

    /// The shaders' area and search functions, run on the GPU (lavapipe)
    /// for every case the area table is made of and the weights pass
    /// meets, give what the model gives, to f32 precision.
    #[test]
    fn the_weights_shader_computes_what_the_model_does() {
        let mut cases = area_cases([0.0, 1.0], 40, 10);
        // Only mixes a fetch can give.
        let mixes: Vec<usize> = (0..=32).filter(|&c| decode_mix(c).is_some()).collect();
        for rightward in [false, true] {
            for (&r, &g) in mixes.iter().flat_map(|r| mixes.iter().map(move |g| (r, g))) {
                let step = length(rightward, r, g).unwrap_or(0) as f64;
                let (x, y, right) = (
                    r as f32 / 32.0,
                    g as f32 / 32.0,
                    f32::from(u8::from(rightward)),
                );
                cases.push(([x, y, right, 2.0, 0.0, 0.0, 0.0, 0.0], [step, step]));
            }
        }
        check("smaa shader against the model", &cases, 1e-4);
    }

    /// The table the "smaa area" pass writes, read through the weights
    /// pass's own lookups at every crossing code and whole distance its
    /// searches find, holds the model's areas, to its 16-bit floats'
    /// precision: its layout and the lookups agree.
    #[test]
    fn the_area_table_holds_the_models_areas_where_the_weights_read_them() {
        let cases = area_cases([3.0, 4.0], 32, 8);
        check("smaa area table against the model", &cases, 1e-3);
    }

    /// The cases of two `vec4f`s [`run_weights_functions`] takes, with the
    /// model's answers, for the areas run as the two `kinds` (orthogonal,
    /// diagonal): every crossing code with distances to each end up to
    /// `ortho`, every pair of diagonal end codes up to `diag` (the lines
    /// the shader measures: 4 pixels or longer). The first `vec4f` is
    /// (d.x, d.y, 0, kind), the second the codes as the shader takes them.
    fn area_cases(kinds: [f32; 2], ortho: usize, diag: usize) -> Vec<([f32; 8], [f64; 2])> {
        let pairs = |n: usize| (0..=n).flat_map(move |i| (0..=n).map(move |j| (i, j)));
        let mut cases = Vec::new();
        for (cl, cr) in [0, 1, 3, 4]
            .into_iter()
            .flat_map(|l| [0, 1, 3, 4].map(|r| (l, r)))
        {
            for (i, j) in pairs(ortho) {
                let (e1, e2) = (cl as f32 / 4.0, cr as f32 / 4.0);
                let args = [i as f32, j as f32, 0.0, kinds[0], e1, e2, 0.0, 0.0];
                cases.push((args, ortho_area(cl, cr, i as f64, j as f64)));
            }
        }
        for (start, end) in pairs(3) {
            for (i, j) in pairs(diag).filter(|(i, j)| i + j > 2) {
                let ([a, b], [c, d]) = (flags(start), flags(end));
                let args = [i as f32, j as f32, 0.0, kinds[1], a, b, c, d];
                cases.push((args, diag_area(start, end, i as f64, j as f64)));
            }
        }
        cases
    }

    /// Runs `cases` through [`run_weights_functions`] and compares the
    /// first two components with the model's, within `tolerance`.
    fn check(what: &str, cases: &[([f32; 8], [f64; 2])], tolerance: f64) {
        let inputs: Vec<f32> = cases.iter().flat_map(|(a, _)| *a).collect();
        let got = run_weights_functions(&inputs, cases.len());
        let mut worst = 0.0f64;
        for (k, ((args, want), got)) in cases.iter().zip(got.chunks(4)).enumerate() {
            for c in 0..2 {
                let err = (got[c] as f64 - want[c]).abs();
                assert!(
                    err < tolerance,
                    "case {k} {args:?}: shader {got:?}, model {want:?}"
                );
                worst = worst.max(err);
            }
        }
        println!("{what}: {} cases, worst {worst:.2e}", cases.len());
    }

    /// Makes the area table with the "smaa area" pass, then evaluates the
    /// weights shader's functions (kind 0: `smaa_area_ortho`, 1:
    /// `smaa_area_diag`, 2: `smaa_search_length`, 3 and 4: the table read
    /// through `smaa_area_ortho_at` and `smaa_area_diag_at`) for `n`
    /// cases of two `vec4f`s each and reads back a `vec4f` per case.
    fn run_weights_functions(inputs: &[f32], n: usize) -> Vec<f32> {
        use crate::effect::Prepass;
        use wgpu::util::DeviceExt;
        // Unminified, so their functions keep their names.
        const AREA: &str = include_str!("../../shaders/smaa_area.wgsl");
        // SMAA's own passes, with their WGSL unminified.
        let passes = crate::effects::smaa::EFFECT
            .neighbours
            .map_or(&[][..], |n| n.passes);
        let table = Prepass {
            wgsl: &[AREA],
            ..passes[1]
        };
        let weights = Prepass {
            wgsl: &[AREA, include_str!("../../shaders/smaa_weights.wgsl")],
            ..passes[2]
        };
        assert_eq!((table.name, weights.name), ("smaa area", "smaa weights"));
        let mut source = crate::passes::composite::neighbour_source(&weights);
        source.push_str(
            "@group(0) @binding(98) var<storage, read> fx_test_in: array<vec4f>;
            @group(0) @binding(99) var<storage, read_write> fx_test_out: array<vec4f>;
            @compute @workgroup_size(64)
            fn fx_test(@builtin(global_invocation_id) id: vec3u) {
                let i = id.x;
                if i >= arrayLength(&fx_test_out) {
                    return;
                }
                let a = fx_test_in[2u * i];
                let b = fx_test_in[2u * i + 1u];
                var r = vec4f(0.0);
                switch u32(a.w) {
                    case 0u: { r = vec4f(smaa_area_ortho(a.xy, b.x, b.y), 0.0, 0.0); }
                    case 1u: { r = vec4f(smaa_area_diag(a.xy, b), 0.0, 0.0); }
                    case 2u: { r = vec4f(smaa_search_length(a.xy, a.z > 0.0)); }
                    case 3u: { r = vec4f(smaa_area_ortho_at(a.xy, b.x, b.y), 0.0, 0.0); }
                    default: { r = vec4f(smaa_area_diag_at(a.xy, b), 0.0, 0.0); }
                }
                fx_test_out[i] = r;
            }",
        );
        let gpu = pollster::block_on(crate::headless::vulkan_gpu()).expect("a Vulkan adapter");
        let device = &gpu.device;
        let pipeline = |source: String, entry: &str| {
            let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: None,
                source: wgpu::ShaderSource::Wgsl(source.into()),
            });
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: None,
                layout: None,
                module: &module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            })
        };
        // The table, as the frame makes it (its size from the pass's data).
        let (w, h) = crate::effects::smaa::AREA_SIZE;
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: None,
            size: wgpu::Extent3d {
                width: w,
                height: h,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba16Float,
            usage: wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
        let view = texture.create_view(&Default::default());
        let make_table = pipeline(
            crate::passes::composite::neighbour_source(&table),
            "cs_smaa_area",
        );
        let table_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &make_table.get_bind_group_layout(0),
            // After the sampler: fx_out.
            entries: &[wgpu::BindGroupEntry {
                binding: 1,
                resource: wgpu::BindingResource::TextureView(&view),
            }],
        });
        let test = pipeline(source, "fx_test");
        let input = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: bytemuck::cast_slice(inputs),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let size = (n * 16) as u64;
        let output = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let read = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &test.get_bind_group_layout(0),
            entries: &[
                // smaa_area, after the sampler and smaa_edges.
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::TextureView(&view),
                },
                wgpu::BindGroupEntry {
                    binding: 98,
                    resource: input.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 99,
                    resource: output.as_entire_binding(),
                },
            ],
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&make_table);
            pass.set_bind_group(0, &table_group, &[]);
            pass.dispatch_workgroups(w.div_ceil(8), h.div_ceil(8), 1);
        }
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&test);
            pass.set_bind_group(0, &group, &[]);
            pass.dispatch_workgroups(n.div_ceil(64) as u32, 1, 1);
        }
        encoder.copy_buffer_to_buffer(&output, 0, &read, 0, size);
        gpu.queue.submit([encoder.finish()]);
        read.slice(..)
            .map_async(wgpu::MapMode::Read, |r| r.expect("mapped"));
        device
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("the GPU finishes");
        let data = read.slice(..).get_mapped_range().expect("mapped");
        let out = bytemuck::cast_slice::<u8, f32>(&data).to_vec();
        assert_eq!(gpu.error_count(), 0, "GPU errors: {:?}", gpu.last_error());
        out
    }
}
