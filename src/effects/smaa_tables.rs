//! The two lookup tables of SMAA 1x (Jimenez et al., "SMAA: Enhanced
//! Subpixel Morphological Antialiasing", 2012), made in code at start-up
//! rather than shipped as images: `shaders/smaa_weights.wgsl` reads both.
//!
//! Only SMAA 1x is served: its subsample offsets are all zero, so the
//! tables hold the unshifted areas only (the reference's 160x560 area
//! texture is seven such layers; this is its first, 160x80).
//!
//! Standard library only, so the file can be tested on its own.

/// Width and height of [`area`] in texels.
pub const AREA_SIZE: (u32, u32) = (160, 80);

/// Width and height of [`search`] in texels.
pub const SEARCH_SIZE: (u32, u32) = (64, 16);

/// Texels per side of one orthogonal pattern's block; a texel `i` stands
/// for the distance `i * i` (the shader looks up `sqrt(distance)`), so the
/// block reaches 225 pixels.
const ORTHO: usize = 16;

/// Texels per side of one diagonal pattern's block (distances 0..19).
const DIAG: usize = 20;

/// U-shaped orthogonal patterns shorter than this are rounded more than
/// their straight revectorisation, so short bumps are not flattened.
const SMOOTH_DISTANCE: f64 = 32.0;

/// The area table, `rg8unorm`, [`AREA_SIZE`], rows top first, two bytes a
/// texel (`r` then `g`).
///
/// For a pixel on an edge, `r` is the share of the pixel on its own side
/// of the antialiased line that takes the colour across the edge, `g` the
/// share of the neighbour across the edge that takes this pixel's colour.
///
/// Left half (x < 80): orthogonal edges, a 5x5 grid of 16x16 blocks.
/// Block column = the crossing edge at the line's left (or top) end, block
/// row = the one at its right (or bottom) end, each coded `3 * below + 1 *
/// above` (0, 1, 3 or 4: what the shader's bilinear fetch at a quarter
/// texel off the line reads, times four). Within a block, x is
/// `sqrt(distance to the left end)`, y `sqrt(distance to the right end)`.
///
/// Right half (x >= 80): diagonal edges, a 4x4 grid of 20x20 blocks.
/// Block column and row are the two-bit crossing codes the shader builds
/// at the two ends (`2 * first + second`, see [`DIAG_STARTS`] and
/// [`DIAG_ENDS`]); within a block, x and y are the distances to the two
/// ends in pixels.
pub fn area() -> Vec<u8> {
    let width = AREA_SIZE.0 as usize;
    let mut out = vec![0u8; width * AREA_SIZE.1 as usize * 2];
    let mut put = |x: usize, y: usize, v: [f64; 2]| {
        let at = (y * width + x) * 2;
        out[at] = unorm8(v[0]);
        out[at + 1] = unorm8(v[1]);
    };
    for left in 0..5 {
        for right in 0..5 {
            // A bilinear fetch never reads 2/4: those blocks stay zero.
            if left == 2 || right == 2 {
                continue;
            }
            for i in 0..ORTHO {
                for j in 0..ORTHO {
                    let v = ortho_area(left, right, (i * i) as f64, (j * j) as f64);
                    put(left * ORTHO + i, right * ORTHO + j, v);
                }
            }
        }
    }
    for start in 0..4 {
        for end in 0..4 {
            for i in 0..DIAG {
                for j in 0..DIAG {
                    let v = diag_area(start, end, i as f64, j as f64);
                    put(5 * ORTHO + start * DIAG + i, end * DIAG + j, v);
                }
            }
        }
    }
    out
}

fn unorm8(v: f64) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0).round() as u8
}

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
/// `cl` and `cr` (see [`area`]).
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
/// end of a diagonal line with the start and end codes given (see
/// [`area`]).
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

/// The search table, `r8unorm`, [`SEARCH_SIZE`], rows top first: how many
/// pixels (0, 1 or 2, stored as 0, 127 and 254) a horizontal search's last
/// two-pixel step still covers, looked up by the bilinear fetch it ended
/// on. That fetch, a quarter pixel from one pixel centre towards the next
/// and an eighth of a pixel up, mixes four edge flags with weights 1, 3,
/// 7 and 21 (in 32nds): see [`decode_mix`]. x is `32 * r` (the left
/// edges' mix), plus 33 for searches to the right; row `32 - 32 * g` (the
/// top edges' mix). Rows for `g` < 17/32 are left out: they are all zero,
/// and the shader's clamp lands on the last row, also zero.
pub fn search() -> Vec<u8> {
    let (w, h) = (SEARCH_SIZE.0 as usize, SEARCH_SIZE.1 as usize);
    let mut out = vec![0u8; w * h];
    for row in 0..h {
        for x in 0..w {
            let (rightward, r) = if x >= 33 { (true, x - 33) } else { (false, x) };
            if let (Some(left), Some(top)) = (decode_mix(r), decode_mix(32 - row)) {
                out[row * w + x] = 127 * search_step(rightward, left, top);
            }
        }
    }
    out
}

/// The four flags `[far above, near above, far, near]` whose bilinear mix
/// is `code / 32`, or `None` when no combination gives it. "Near" is the
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

    fn texel(table: &[u8], x: usize, y: usize) -> [u8; 2] {
        let at = (y * AREA_SIZE.0 as usize + x) * 2;
        [table[at], table[at + 1]]
    }

    /// Orthogonal block origin for the end codes `left`, `right`.
    fn ortho(t: &[u8], left: usize, right: usize, i: usize, j: usize) -> [u8; 2] {
        texel(t, left * ORTHO + i, right * ORTHO + j)
    }

    fn diag(t: &[u8], start: usize, end: usize, i: usize, j: usize) -> [u8; 2] {
        texel(t, 80 + start * DIAG + i, end * DIAG + j)
    }

    #[test]
    fn tables_have_their_sizes() {
        assert_eq!(area().len(), 160 * 80 * 2);
        assert_eq!(search().len(), 64 * 16);
    }

    #[test]
    fn orthogonal_areas_match_their_geometry() {
        let t = area();
        // L from below, one-pixel edge: a triangle of 1/2 x 1/2 / 2 below.
        assert_eq!(ortho(&t, 3, 0, 0, 0), [32, 0]);
        // Same from above.
        assert_eq!(ortho(&t, 1, 0, 0, 0), [0, 32]);
        // The L's far half stays sharp.
        assert_eq!(ortho(&t, 3, 0, 2, 1), [0, 0]);
        // Z from above to below, two pixels (d = 2): the first pixel holds
        // the trapezoid 0.5 -> 0, a quarter above.
        assert_eq!(ortho(&t, 1, 3, 0, 1), [0, 64]);
        // Z, one pixel: two triangles of 1/8 each side.
        assert_eq!(ortho(&t, 1, 3, 0, 0), [32, 32]);
        // U below, one pixel: 2 * lerp(1/4, 1/8, 1/32).
        let u = 2.0 * (0.25 - 0.125 / 32.0);
        assert_eq!(ortho(&t, 3, 3, 0, 0), [unorm8(u), 0]);
        // No crossing, or crossings both ways at both ends: sharp.
        for (l, r) in [(0, 0), (4, 0), (0, 4), (4, 4)] {
            for (i, j) in [(0, 0), (3, 5), (15, 15)] {
                assert_eq!(ortho(&t, l, r, i, j), [0, 0], "{l} {r} {i} {j}");
            }
        }
        // Long Z (225 + 225 + 1 pixels): the middle pixel is split evenly.
        let z = ortho(&t, 1, 3, 15, 15);
        assert_eq!(z[0], z[1]);
        assert!(z[0] <= 1);
    }

    #[test]
    fn orthogonal_areas_mirror() {
        let t = area();
        let flip = |c: usize| [0, 3, 2, 1, 4][c];
        for l in [0, 1, 3, 4] {
            for r in [0, 1, 3, 4] {
                for i in 0..ORTHO {
                    for j in 0..ORTHO {
                        let v = ortho(&t, l, r, i, j);
                        // Left and right swapped: the same areas.
                        assert_eq!(v, ortho(&t, r, l, j, i), "{l} {r} {i} {j}");
                        // Up and down swapped: below and above swap.
                        let f = ortho(&t, flip(l), flip(r), i, j);
                        assert_eq!(v, [f[1], f[0]], "{l} {r} {i} {j}");
                    }
                }
            }
        }
    }

    #[test]
    fn diagonal_areas_match_their_geometry() {
        let t = area();
        for (i, j) in [(0, 3), (2, 2), (7, 12), (19, 19)] {
            // Pinned to (1, 0) -> (1 + d, d): the line is the own pixel's
            // diagonal, half of it; the neighbour is untouched.
            assert_eq!(diag(&t, 1, 2, i, j), [128, 0]);
            // Pinned to (1, 1) -> (1 + d, 1 + d): the neighbour's diagonal.
            assert_eq!(diag(&t, 2, 1, i, j), [0, 128]);
            // Unknown ends: both lines averaged.
            assert_eq!(diag(&t, 0, 0, i, j), [64, 64]);
            assert_eq!(diag(&t, 0, 0, i, j), diag(&t, 3, 3, i, j));
        }
        // Unpinned start (lines from (0, 0) and (1, 0)), end pinned to
        // (1 + d, d), first pixel of d = 3. Line (0, 0) -> (4, 3): it
        // leaves 23/24 of the own square (1..2, 0..1) below it and 1/6 of
        // the neighbour (1..2, 1..2); line (1, 0) -> (4, 3) halves the own
        // square and misses the neighbour.
        let own = (1.0 - 23.0 / 24.0 + 0.5) * 0.5;
        let across = (1.0 / 6.0) * 0.5;
        assert_eq!(diag(&t, 0, 2, 0, 2), [unorm8(own), unorm8(across)]);
        assert_eq!(diag(&t, 0, 2, 0, 2), [69, 21]);
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

    #[test]
    fn search_steps_at_known_edges() {
        let s = search();
        let at = |x: usize, row: usize| s[row * 64 + x];
        // All four top edges on, no crossing edge: both pixels count.
        assert_eq!(at(0, 0), 254);
        assert_eq!(at(33, 0), 254);
        // Only the own pixel's top edge (21/32): one.
        assert_eq!(at(0, 11), 127);
        assert_eq!(at(33, 11), 127);
        // Near and far tops on (28/32), an edge crossing the line at the
        // near pixel's left (flag 1, r = 3/32): going left, that crossing
        // lies beyond the near pixel, which counts; going right it lies
        // before it, and nothing counts.
        assert_eq!(at(3, 4), 127);
        assert_eq!(at(33 + 3, 4), 0);
        // The crossing at the far pixel's left instead (flags 0 and 2,
        // r = 8/32): going left it lies beyond both; going right it lies
        // between them.
        assert_eq!(at(8, 4), 254);
        assert_eq!(at(33 + 8, 4), 127);
        // No near top edge: nothing, whatever else is on (g = 11/32 is
        // below the table; the last row, g = 17/32, is no mix at all).
        for x in 0..64 {
            assert_eq!(at(x, 15), 0);
        }
        // r = 2/32 is no mix: never read, zero.
        assert_eq!(at(2, 0), 0);
        assert_eq!(at(33 + 2, 0), 0);
    }

    #[test]
    fn every_mix_decodes_uniquely() {
        let valid: Vec<usize> = (0..=32).filter(|&c| decode_mix(c).is_some()).collect();
        assert_eq!(
            valid,
            [0, 1, 3, 4, 7, 8, 10, 11, 21, 22, 24, 25, 28, 29, 31, 32]
        );
    }
}
