// SMAA 1x, pass 2 of 3: blending weights (Jimenez et al. 2012).
// For each pixel with an edge on its left or top (pass 1), find how far
// the edge runs each way and how it ends (crossing edges), then look up
// how much of the pixel an antialiased line would cover: the area under
// the line that joins the ends, computed here (SMAA's reference reads it
// from a precomputed table; src/effects/smaa_model.rs is the model on the
// CPU these functions are tested against).
// Writes rgba8unorm (every pixel, 0 without an edge): r, g for the edge
// on top (r: how much of this pixel takes the colour from above; g: how
// much of the pixel above takes this one's), b, a likewise for the edge on
// the left.
// Declared by Rust before this text: fx_linear_sampler, fx_point_sampler,
// smaa_edges (pass 1), fx_out (where the generated entry point stores fx_smaa_find_weights).
//
// Every lookup uses textureSampleLevel: the searches are loops with
// data-dependent exits, where implicit derivatives are not allowed.
// Several edge fetches land between texels on purpose: one bilinear fetch
// reads two or four edge flags at once, told apart by their weights.

// SMAA's HIGH preset.
const smaa_max_search_steps = 16.0;
const smaa_max_search_steps_diag = 8.0;
const smaa_corner_rounding = 0.25;
// U-shaped orthogonal lines shorter than this are rounded more than
// their straight revectorisation, so short bumps are not flattened.
const smaa_smooth_distance = 32.0;

fn smaa_edge(uv: vec2f) -> vec2f {
    return textureSampleLevel(smaa_edges, fx_linear_sampler, uv, 0.0).rg;
}

// ---- Diagonal lines ----

// A fetch a quarter texel right of a centre mixes this pixel (3/4) and the
// next (1/4): r then says whether the next one has a left edge, g whether
// this one has a top edge. Maps 0.25 and 1 to 1 (red), and rounds green.
fn smaa_decode_diag(e: vec2f) -> vec2f {
    return round(vec2f(e.x * abs(5.0 * e.x - 3.75), e.y));
}

// Walk diagonally from uv in dir while both edges of each step are on.
// Returns (steps taken, 1 if still on a line when the walk stopped at its
// limit (no end found), the last fetch's g). On the `other` diagonal the
// steps are a top edge here and a left edge on the next pixel: one fetch a
// quarter texel right reads both.
fn smaa_search_diag(uv: vec2f, dir: vec2f, texel: vec2f, other: bool) -> vec3f {
    var p = uv + vec2f(select(0.0, 0.25 * texel.x, other), 0.0);
    var steps = -1.0;
    var on = 1.0;
    var e = vec2f(0.0);
    while steps < smaa_max_search_steps_diag - 1.0 && on > 0.9 {
        p += dir * texel;
        steps += 1.0;
        e = smaa_edge(p);
        if other {
            e = smaa_decode_diag(e);
        }
        on = dot(e, vec2f(0.5));
    }
    return vec3f(steps, on, e.y);
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

// The crossing flags of a line's two ends, cleared where the search
// stopped at its limit: that end is unknown.
fn smaa_diag_flags(c: vec4f, open: vec2f) -> vec4f {
    return select(c, vec4f(0.0), (open >= vec2f(0.9)).xxyy);
}

fn smaa_diag_weights(uv: vec2f, e: vec2f, texel: vec2f) -> vec2f {
    var weights = vec2f(0.0);
    // Lines going down-left to up-right: this pixel has both edges.
    var d = vec4f(0.0); // xy: distances to the ends, zw: end not found
    if e.x > 0.0 {
        let s = smaa_search_diag(uv, vec2f(-1.0, 1.0), texel, false);
        d.x = s.x + f32(s.z > 0.9);
        d.z = s.y;
    }
    let s1 = smaa_search_diag(uv, vec2f(1.0, -1.0), texel, false);
    d.y = s1.x;
    d.w = s1.y;
    if d.x + d.y > 2.0 {
        // Line of 4 pixels or more: fetch both ends' crossing edges, two
        // flags per fetch (quarter texel offsets).
        let at = uv.xyxy + vec4f(-d.x + 0.25, d.x, d.y, -d.y - 0.25) * texel.xyxy;
        let c1 = smaa_edge(at.xy + vec2f(-texel.x, 0.0));
        let c2 = smaa_edge(at.zw + vec2f(texel.x, 0.0));
        let dc = vec4f(smaa_decode_diag(c1), smaa_decode_diag(c2));
        weights += smaa_area_diag(d.xy, smaa_diag_flags(dc.yxwz, d.zw));
    }
    // Lines going up-left to down-right: a top edge here, a left edge on
    // the pixel to the right.
    let s2 = smaa_search_diag(uv, vec2f(-1.0, -1.0), texel, true);
    d.x = s2.x;
    d.z = s2.y;
    d.y = 0.0;
    d.w = 0.0;
    if smaa_edge(uv + vec2f(texel.x, 0.0)).x > 0.0 {
        let s3 = smaa_search_diag(uv, vec2f(1.0, 1.0), texel, true);
        d.y = s3.x + f32(s3.z > 0.9);
        d.w = s3.y;
    }
    if d.x + d.y > 2.0 {
        let at = uv.xyxy + vec4f(-d.x, -d.x, d.y, d.y) * texel.xyxy;
        let c = vec4f(
            smaa_edge(at.xy + vec2f(-texel.x, 0.0)).y,
            smaa_edge(at.xy + vec2f(0.0, -texel.y)).x,
            smaa_edge(at.zw + vec2f(texel.x, 0.0)).yx,
        );
        weights += smaa_area_diag(d.xy, smaa_diag_flags(c, d.zw)).yx;
    }
    return weights;
}

// ---- Horizontal and vertical lines ----

// The four edge flags a bilinear fetch mixed, from the mix: [far above,
// near above, far, near], weighted 1, 3, 7 and 21 in 32nds ("near": the
// pixel the fetch sits a quarter texel from; "above": the row above the
// edge, an eighth of a texel away). Every set of flags gives its own sum.
fn smaa_unmix(v: f32) -> vec4f {
    // Each weight is more than the others below it together, so the
    // flags come off greedily, largest first.
    var code = round(32.0 * v);
    let near = step(21.0, code);
    code -= 21.0 * near;
    let far = step(7.0, code);
    code -= 7.0 * far;
    let near_above = step(3.0, code);
    code -= 3.0 * near_above;
    return vec4f(step(1.0, code), near_above, far, near);
}

// How many pixels (0, 1 or 2) the last two-pixel step of a search still
// covers, from the crossing (r) and line (g) edges its fetch mixed. The
// near pixel counts if its line edge is on and, going right, no edge
// crosses the line at its left (the step's start side); the far one too if
// its line edge is on and no edge crosses the line between the two. A
// pixel's crossing edge is the one on its left, so which flags lie
// "between" differs with the direction.
fn smaa_search_length(e: vec2f, rightward: bool) -> f32 {
    let cross = smaa_unmix(e.x);
    let line = smaa_unmix(e.y);
    let near = max(cross.y, cross.w);
    let far = max(cross.x, cross.z);
    if line.w == 0.0 || (rightward && near > 0.0) {
        return 0.0;
    }
    return 1.0 + line.z * (1.0 - select(near, far, rightward));
}

// The edges `offset` pixels from uv, the offset given along the line and
// across it, and the edges as (crossing, line): for a line on the pixels'
// top edges, as stored (left, top); for one on their left edges
// (`vertical`), swapped both ways.
fn smaa_edge_at(uv: vec2f, offset: vec2f, texel: vec2f, vertical: bool) -> vec2f {
    let e = smaa_edge(uv + select(offset, offset.yx, vertical) * texel);
    return select(e, e.yx, vertical);
}

// A search along the line from `start` pixels off uv, towards its start
// (`sign` -1: left or up) or its end (1), two pixels a step, each fetch
// between four pixels (an eighth of a pixel across, a quarter along) so
// that it tells whether both pixels still have the line's edge and no edge
// crosses it. Returns the offset of the line's last pixel that way: the
// last step undone with the fetch's offset, plus what its fetch still
// covered.
fn smaa_search(uv: vec2f, start: f32, sign: f32, texel: vec2f, vertical: bool) -> f32 {
    var at = start;
    var e = vec2f(0.0, 1.0);
    for (var i = 0.0; i < smaa_max_search_steps && e.y > 0.8281 && e.x == 0.0; i += 1.0) {
        e = smaa_edge_at(uv, vec2f(at, -0.125), texel, vertical);
        at += 2.0 * sign;
    }
    return at - sign * (3.25 - smaa_search_length(e, sign > 0.0));
}

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

// Corners: where a crossing edge continues past the line's end on the
// nearer side, the line ends in a sharp corner that should stay mostly
// sharp. `near` is 1 for the nearer end (0.5 each when centred).
fn smaa_corner_factor(d: vec2f) -> vec2f {
    let near = step(d, d.yx);
    return (1.0 - smaa_corner_rounding) * near / (near.x + near.y);
}

// A crossing edge counts as a corner only where it runs straight on. Where
// the edge that joins it to the line is set as well, the two meet at a
// step of a line one pixel wide, not at a corner: SMAA's own test keeps
// such a step sharp, which leaves half of every step of a thin line at
// full brightness. `crossing` and `joint` are the two edges' values.
fn smaa_straight(crossing: f32, joint: f32) -> f32 {
    return crossing * (1.0 - joint);
}

// The corners at the line's ends (`ends`: their offsets along it) as
// SMAA tests them, with `smaa_straight`: on the pixel's side of the line,
// each end pixel's crossing edge, joined by its line edge; on the other
// side, the crossing edge two rows across, joined by the line edge of the
// row between.
fn smaa_corners(w: vec2f, uv: vec2f, ends: vec2f, d: vec2f, texel: vec2f, vertical: bool) -> vec2f {
    let r = smaa_corner_factor(d);
    var f = vec2f(1.0);
    for (var k = 0; k < 2; k++) {
        let along = select(ends.x, ends.y + 1.0, k == 1);
        let own = smaa_edge_at(uv, vec2f(along, 1.0), texel, vertical);
        let crossing = smaa_edge_at(uv, vec2f(along, -2.0), texel, vertical).x;
        let joint = smaa_edge_at(uv, vec2f(along, -1.0), texel, vertical).y;
        f -= r[k] * vec2f(smaa_straight(own.x, own.y), smaa_straight(crossing, joint));
    }
    return w * saturate(f);
}

// The line on the pixel's top edge (on its left edge where `vertical`):
// searched both ways, its area read from how it ends (the crossing edges
// at each end, fetched a quarter pixel across: 0.75 for one below the
// line, 0.25 above, 1 both), its corners kept sharper.
fn smaa_line(uv: vec2f, texel: vec2f, vertical: bool) -> vec2f {
    let ends = vec2f(smaa_search(uv, -0.25, -1.0, texel, vertical), smaa_search(uv, 1.25, 1.0, texel, vertical));
    let e1 = smaa_edge_at(uv, vec2f(ends.x, -0.25), texel, vertical).x;
    let e2 = smaa_edge_at(uv, vec2f(ends.y + 1.0, -0.25), texel, vertical).x;
    let d = abs(round(ends));
    return smaa_corners(smaa_area_ortho(d, e1, e2), uv, ends, d, texel, vertical);
}

// The weights of one pixel (cs_smaa_weights, generated, stores them in
// fx_out).
fn fx_smaa_find_weights(in: FullscreenOut) -> vec4f {
    // Pixel centre, exact (the interpolated uv may be off by rounding).
    let texel = 1.0 / vec2f(textureDimensions(smaa_edges));
    let uv = in.position.xy * texel;
    var weights = vec4f(0.0);
    var e = smaa_edge(uv);
    if e.y > 0.0 {
        // A diagonal has both edges, so looking from top edges finds it;
        // when one is found it wins over the orthogonal reading of both.
        let diag = smaa_diag_weights(uv, e, texel);
        if diag.x + diag.y == 0.0 {
            weights = vec4f(smaa_line(uv, texel, false), 0.0, 0.0);
        } else {
            weights = vec4f(diag, 0.0, 0.0);
            e.x = 0.0;
        }
    }
    if e.x > 0.0 {
        weights = vec4f(weights.xy, smaa_line(uv, texel, true));
    }
    return weights;
}
