// SMAA 1x, pass 2 of 4: the area table the blending weights read (pass
// "smaa area", computed every frame SMAA runs: 22,704 texels, each a
// handful of arithmetic). For a pixel on an edge, how much of it an antialiased line
// would cover: r, the share of the pixel on its own side of the line that
// takes the colour across the edge; g, the share of the neighbour across
// the edge that takes this pixel's colour. The line joins the ends of the
// edge the weights pass finds, as their crossing edges place them. SMAA's
// reference ships this table as an image; src/effects/smaa_model.rs is the
// model on the CPU that these functions are tested against.
// Declared by Rust before this text: fx_linear_sampler, fx_out (where the generated entry point stores fx_smaa_area_table).
//
// Layout, in texels: orthogonal lines in 4 x 4 blocks of smaa_ortho_block
// squared (block column: the crossing code at the line's left or top end,
// block row: at its other end, each 0, 1, 3 or 4 in that order; within a
// block, the distances to the two ends in pixels), then diagonal lines
// right of them in 4 x 4 blocks of smaa_diag_block squared (the two ends'
// two-bit crossing codes; the distances in steps).

// Whole distances an orthogonal search can find, 0 to 32, and a diagonal
// one, 0 to 8 (a block of 10 leaves one spare).
const smaa_ortho_block = 33.0;
const smaa_diag_block = 10.0;

// U-shaped orthogonal lines shorter than this are rounded more than
// their straight revectorisation, so short bumps are not flattened.
const smaa_smooth_distance = 32.0;

// Where an orthogonal line ends across the edge, from the crossing codes
// at this end and at the other (see smaa_area_ortho): half a pixel below
// (the crossing edge goes down into the pixel's own row: negative), above
// (positive), or 0 when unknown. Crossings on both sides make the end the
// mirror of the other (a full step); code 2 is never read.
fn smaa_end(code: f32, other: f32) -> f32 {
    if code == 3.0 || (code == 4.0 && other == 1.0) {
        return -0.5;
    }
    if code == 1.0 || (code == 4.0 && other == 3.0) {
        return 0.5;
    }
    return 0.0;
}

// The area between the segment p -> q (x increasing, y the offset across
// the edge) and the edge itself over the pixel x .. x + 1, split into
// (below, above). Each side of a zero crossing is a triangle; with none,
// the span is one trapezoid.
fn smaa_line_area(p: vec2f, q: vec2f, x: f32) -> vec2f {
    let lo = max(x, p.x);
    let hi = min(x + 1.0, q.x);
    if hi <= lo {
        return vec2f(0.0);
    }
    let slope = (q.y - p.y) / (q.x - p.x);
    let ya = p.y + slope * (lo - p.x);
    let yb = p.y + slope * (hi - p.x);
    var parts = vec2f((ya + yb) * 0.5 * (hi - lo), 0.0);
    if ya * yb < 0.0 {
        let zero = lo + (hi - lo) * ya / (ya - yb);
        parts = vec2f(ya * (zero - lo), yb * (hi - zero)) * 0.5;
    }
    return vec2f(-min(parts.x, 0.0) - min(parts.y, 0.0), max(parts.x, 0.0) + max(parts.y, 0.0));
}

// Area for an orthogonal line (r: this pixel's share taking the colour
// across the edge, g: the neighbour's), from the distances to its ends in
// pixels and the crossing edges fetched a quarter texel off the line at
// each end: 0.75 for one below the line, 0.25 above, 1 both. The line
// joins the known ends: an L rises from one to the edge's middle (the half
// beyond stays sharp), a Z runs from end to end, a U meets the edge in the
// middle, rounded when short.
fn smaa_area_ortho(d: vec2f, e1: f32, e2: f32) -> vec2f {
    // Rounding the codes keeps filtering error out.
    let code = round(4.0 * vec2f(e1, e2));
    let hl = smaa_end(code.x, code.y);
    let hr = smaa_end(code.y, code.x);
    let len = d.x + d.y + 1.0;
    let mid = len * 0.5;
    let a = smaa_line_area(vec2f(0.0, hl), vec2f(mid, 0.0), d.x);
    let b = smaa_line_area(vec2f(mid, 0.0), vec2f(len, hr), d.x);
    if hl != 0.0 && hl == -hr {
        return smaa_line_area(vec2f(0.0, hl), vec2f(len, hr), d.x);
    }
    if hl != 0.0 && hl == hr {
        let p = min(len / smaa_smooth_distance, 1.0);
        let bump_a = sqrt(2.0 * a) * 0.5;
        let bump_b = sqrt(2.0 * b) * 0.5;
        return mix(bump_a, a, p) + mix(bump_b, b, p);
    }
    if hr == 0.0 && d.x <= d.y {
        return a;
    }
    if hl == 0.0 && d.x >= d.y {
        return b;
    }
    return vec2f(0.0);
}

// The fraction of the unit square at `corner` below the line through p
// and q (x right, y up; q.x > p.x, as every line the weights pass
// measures runs). Over the square's width the line's height above its
// bottom is a linear a t + b; the area is the integral of that height
// clamped to the square, which `smaa_clamped_integral` gives in closed
// form.
fn smaa_right_of(p: vec2f, q: vec2f, corner: vec2f) -> f32 {
    let a = (q.y - p.y) / (q.x - p.x);
    let b = p.y + a * (corner.x - p.x) - corner.y;
    if abs(a) < 1.0e-6 {
        return saturate(b + 0.5 * a);
    }
    return (smaa_clamped_integral(a + b) - smaa_clamped_integral(b)) / a;
}

// The integral from 0 to u of clamp(t, 0, 1) dt, for any u.
fn smaa_clamped_integral(u: f32) -> f32 {
    let c = saturate(u);
    return 0.5 * c * c + max(u - 1.0, 0.0);
}

// The two candidate points (xy, zw) of a diagonal line's end, in pixels
// from the end's step, from the end's crossing flags: pinned to one corner
// of the step (twice) where a flag says so, the corner and the step's
// middle where both are set, either where neither is.
fn smaa_diag_end(first: f32, second: f32) -> vec4f {
    if first + second == 0.0 {
        return vec4f(0.0, 0.0, 1.0, 0.0);
    }
    return vec4f(1.0, first, 1.0, first * (1.0 - second));
}

// Area for a diagonal line (r: this pixel's share taking the colour across
// the edge, g: the neighbour's), from the distances to its ends and their
// crossing flags (first and second of the start, then of the end; zero
// where the end is unknown). Two lines through the candidate ends are
// averaged. Coordinates run along the staircase: the pixel studied is the
// unit square at (1 + d.x, d.x), its neighbour across the edge the one
// above it.
fn smaa_area_diag(d: vec2f, flags: vec4f) -> vec2f {
    // Neither end known: the line runs through the staircase's corners or
    // through its steps' middles just as likely, so take both.
    let f = select(flags, vec4f(1.0), all(flags == vec4f(0.0)));
    let len = d.x + d.y + 1.0;
    let start = smaa_diag_end(f.x, f.y);
    let end = smaa_diag_end(f.w, f.z) + len;
    var sum = vec2f(0.0);
    for (var k = 0u; k < 2u; k++) {
        let p = select(start.xy, start.zw, k == 1u);
        let q = select(end.xy, end.zw, k == 1u);
        sum.x += 1.0 - smaa_right_of(p, q, vec2f(1.0 + d.x, d.x));
        sum.y += smaa_right_of(p, q, vec2f(1.0 + d.x, 1.0 + d.x));
    }
    return sum * 0.5;
}

// The table at one texel (cs_smaa_area, generated, stores it in fx_out).
fn fx_smaa_area_table(in: FullscreenOut) -> vec4f {
    let t = floor(in.position.xy);
    let ortho = 4.0 * smaa_ortho_block;
    if t.x < ortho {
        let block = floor(t / smaa_ortho_block);
        // Blocks 0 to 3 are the codes 0, 1, 3 and 4, read as fetched.
        let e = (block + step(vec2f(2.0), block)) / 4.0;
        let d = t - block * smaa_ortho_block;
        return vec4f(smaa_area_ortho(d, e.x, e.y), 0.0, 1.0);
    }
    let u = t - vec2f(ortho, 0.0);
    let code = floor(u / smaa_diag_block);
    let d = u - code * smaa_diag_block;
    // The weights pass measures diagonal lines of 4 pixels or more.
    if d.x + d.y <= 2.0 {
        return vec4f(0.0, 0.0, 0.0, 1.0);
    }
    let flags = vec4f(floor(code.x / 2.0), code.x % 2.0, floor(code.y / 2.0), code.y % 2.0);
    return vec4f(smaa_area_diag(d, flags), 0.0, 1.0);
}
