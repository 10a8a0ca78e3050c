// SMAA 1x, pass 3 of 4: blending weights (Jimenez et al. 2012).
// For each pixel with an edge on its left or top (pass 1), find how far
// the edge runs each way and how it ends (crossing edges), then look up
// how much of the pixel an antialiased line would cover: the area under
// the line that joins the ends, from the area table (pass "smaa area",
// smaa_area.wgsl, whose text this pass's module starts with).
// Writes rgba8unorm (every pixel, 0 without an edge): r, g for the edge
// on top (r: how much of this pixel takes the colour from above; g: how
// much of the pixel above takes this one's), b, a likewise for the edge on
// the left.
// Declared by Rust before this text: fx_linear_sampler,
// smaa_edges (pass 1), smaa_area (the table), fx_out (where the generated entry point stores fx_smaa_find_weights).
//
// Every edge fetch uses textureSampleLevel: the searches are loops with
// data-dependent exits, where implicit derivatives are not allowed. The
// area table is read with textureLoad, at whole distances.
// Several edge fetches land between texels on purpose: one bilinear fetch
// reads two or four edge flags at once, told apart by their weights.

// SMAA's HIGH preset.
const smaa_max_search_steps = 16.0;
const smaa_max_search_steps_diag = 8.0;
const smaa_corner_rounding = 0.25;

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
        weights += smaa_area_diag_at(d.xy, smaa_diag_flags(dc.yxwz, d.zw));
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
        weights += smaa_area_diag_at(d.xy, smaa_diag_flags(c, d.zw)).yx;
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

// The area table at an orthogonal line's whole distances to its ends and
// the crossing edges fetched at them (0, 0.25, 0.75 or 1: its blocks, in
// that order).
fn smaa_area_ortho_at(d: vec2f, e1: f32, e2: f32) -> vec2f {
    // Rounding the codes keeps filtering error out.
    let code = round(4.0 * vec2f(e1, e2));
    let block = code - step(vec2f(3.0), code);
    let at = block * smaa_ortho_block + min(d, vec2f(smaa_ortho_block - 1.0));
    return textureLoad(smaa_area, vec2i(at), 0).rg;
}

// The area table at a diagonal line's distances and its ends' crossing
// flags (first and second of the start, then of the end).
fn smaa_area_diag_at(d: vec2f, flags: vec4f) -> vec2f {
    let code = 2.0 * flags.xz + flags.yw;
    let at = code * smaa_diag_block + min(d, vec2f(smaa_diag_block - 1.0));
    return textureLoad(smaa_area, vec2i(at) + vec2i(4 * i32(smaa_ortho_block), 0), 0).rg;
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
    return smaa_corners(smaa_area_ortho_at(d, e1, e2), uv, ends, d, texel, vertical);
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
