// SMAA 1x, pass 2 of 3: blending weights (Jimenez et al. 2012).
// For each pixel with an edge on its left or top (pass 1), find how far
// the edge runs each way and how it ends (crossing edges), then look up
// in the area table how much of the pixel an antialiased line would cover.
// Writes rgba8unorm (every pixel, 0 without an edge): r, g for the edge
// on top (r: how much of this pixel takes the colour from above; g: how
// much of the pixel above takes this one's), b, a likewise for the edge on
// the left.
// Declared by Rust before this text: fx_linear_sampler, fx_point_sampler,
// smaa_edges (pass 1), smaa_area and smaa_search (src/effects/smaa_tables.rs),
// fx_out (where the generated entry point stores fx_smaa_find_weights).
//
// Every lookup uses textureSampleLevel: the searches are loops with
// data-dependent exits, where implicit derivatives are not allowed.
// Several edge fetches land between texels on purpose: one bilinear fetch
// reads two or four edge flags at once, told apart by their weights.

// SMAA's HIGH preset.
const smaa_max_search_steps = 16.0;
const smaa_max_search_steps_diag = 8.0;
const smaa_corner_rounding = 0.25;

// The area table's layout (see smaa_tables.rs).
const smaa_area_size = vec2f(160.0, 80.0);
const smaa_area_ortho = 16.0;
const smaa_area_diag = 20.0;
// The search table: 66x33 logically, 64x16 as stored (the rest is zero).
const smaa_search_size = vec2f(66.0, 33.0);
const smaa_search_stored = vec2f(64.0, 16.0);

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
// limit (no end found), the last fetch's g).
fn smaa_search_diag1(uv: vec2f, dir: vec2f, texel: vec2f) -> vec3f {
    var p = uv;
    var steps = -1.0;
    var on = 1.0;
    var e = vec2f(0.0);
    while steps < smaa_max_search_steps_diag - 1.0 && on > 0.9 {
        p += dir * texel;
        steps += 1.0;
        e = smaa_edge(p);
        on = dot(e, vec2f(0.5));
    }
    return vec3f(steps, on, e.y);
}

// The same for the other diagonal, whose steps are a top edge here and a
// left edge on the next pixel: one fetch a quarter texel right reads both.
fn smaa_search_diag2(uv: vec2f, dir: vec2f, texel: vec2f) -> vec3f {
    var p = uv + vec2f(0.25 * texel.x, 0.0);
    var steps = -1.0;
    var on = 1.0;
    var e = vec2f(0.0);
    while steps < smaa_max_search_steps_diag - 1.0 && on > 0.9 {
        p += dir * texel;
        steps += 1.0;
        e = smaa_decode_diag(smaa_edge(p));
        on = dot(e, vec2f(0.5));
    }
    return vec3f(steps, on, e.y);
}

// Area for a diagonal line: distances to its ends and each end's two-bit
// crossing code. The diagonal blocks fill the table's right half.
fn smaa_area_diag_lookup(dist: vec2f, code: vec2f) -> vec2f {
    var t = (smaa_area_diag * code + dist + 0.5) / smaa_area_size;
    t.x += 0.5;
    return textureSampleLevel(smaa_area, fx_linear_sampler, t, 0.0).rg;
}

// Crossing codes of a line's two ends (2 * first + second flag), cleared
// where the search stopped at its limit: that end is unknown.
fn smaa_diag_code(c: vec4f, open: vec2f) -> vec2f {
    let code = 2.0 * c.xz + c.yw;
    return select(code, vec2f(0.0), open >= vec2f(0.9));
}

fn smaa_diag_weights(uv: vec2f, e: vec2f, texel: vec2f) -> vec2f {
    var weights = vec2f(0.0);
    // Lines going down-left to up-right: this pixel has both edges.
    var d = vec4f(0.0); // xy: distances to the ends, zw: end not found
    if e.x > 0.0 {
        let s = smaa_search_diag1(uv, vec2f(-1.0, 1.0), texel);
        d.x = s.x + f32(s.z > 0.9);
        d.z = s.y;
    }
    let s1 = smaa_search_diag1(uv, vec2f(1.0, -1.0), texel);
    d.y = s1.x;
    d.w = s1.y;
    if d.x + d.y > 2.0 {
        // Line of 4 pixels or more: fetch both ends' crossing edges, two
        // flags per fetch (quarter texel offsets).
        let at = uv.xyxy + vec4f(-d.x + 0.25, d.x, d.y, -d.y - 0.25) * texel.xyxy;
        let c1 = smaa_edge(at.xy + vec2f(-texel.x, 0.0));
        let c2 = smaa_edge(at.zw + vec2f(texel.x, 0.0));
        let dc = vec4f(smaa_decode_diag(c1), smaa_decode_diag(c2));
        let code = smaa_diag_code(dc.yxwz, d.zw);
        weights += smaa_area_diag_lookup(d.xy, code);
    }
    // Lines going up-left to down-right: a top edge here, a left edge on
    // the pixel to the right.
    let s2 = smaa_search_diag2(uv, vec2f(-1.0, -1.0), texel);
    d.x = s2.x;
    d.z = s2.y;
    d.y = 0.0;
    d.w = 0.0;
    if smaa_edge(uv + vec2f(texel.x, 0.0)).x > 0.0 {
        let s3 = smaa_search_diag2(uv, vec2f(1.0, 1.0), texel);
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
        let code = smaa_diag_code(c, d.zw);
        weights += smaa_area_diag_lookup(d.xy, code).yx;
    }
    return weights;
}

// ---- Horizontal and vertical lines ----

// How far the last two-pixel step of a search still reaches (0, 1 or 2
// pixels), from the bilinear edge mix it read; `half` picks the table's
// half for searches going left/up (0) or right/down (0.5).
fn smaa_search_length(e: vec2f, half: f32) -> f32 {
    // Texel centres of the logical 66x33 table, y flipped, then the
    // stored crop's size.
    let scale = smaa_search_size * vec2f(0.5, -1.0) + vec2f(-1.0, 1.0);
    let bias = smaa_search_size * vec2f(half, 1.0) + vec2f(0.5, -0.5);
    let t = (scale * e + bias) / smaa_search_stored;
    // Stored as 127 per pixel.
    return textureSampleLevel(smaa_search, fx_point_sampler, t, 0.0).r * (255.0 / 127.0);
}

// The searches step two pixels at a time, fetching between four pixels
// (offset by -0.25, -0.125 texel) so that one fetch tells whether both
// pixels still have the edge and no edge crosses it. They stop at `end`.
// Each returns the coordinate of the line's last pixel on that side.
fn smaa_search_left(start: vec2f, end: f32, texel: vec2f) -> f32 {
    var p = start;
    var e = vec2f(0.0, 1.0);
    while p.x > end && e.y > 0.8281 && e.x == 0.0 {
        e = smaa_edge(p);
        p.x -= 2.0 * texel.x;
    }
    // Undo the last step and the fetch's offsets, then add what the last
    // fetch still covered.
    return p.x + texel.x * (3.25 - smaa_search_length(e, 0.0));
}

fn smaa_search_right(start: vec2f, end: f32, texel: vec2f) -> f32 {
    var p = start;
    var e = vec2f(0.0, 1.0);
    while p.x < end && e.y > 0.8281 && e.x == 0.0 {
        e = smaa_edge(p);
        p.x += 2.0 * texel.x;
    }
    return p.x - texel.x * (3.25 - smaa_search_length(e, 0.5));
}

fn smaa_search_up(start: vec2f, end: f32, texel: vec2f) -> f32 {
    var p = start;
    var e = vec2f(1.0, 0.0);
    while p.y > end && e.x > 0.8281 && e.y == 0.0 {
        e = smaa_edge(p);
        p.y -= 2.0 * texel.y;
    }
    return p.y + texel.y * (3.25 - smaa_search_length(e.yx, 0.0));
}

fn smaa_search_down(start: vec2f, end: f32, texel: vec2f) -> f32 {
    var p = start;
    var e = vec2f(1.0, 0.0);
    while p.y < end && e.x > 0.8281 && e.y == 0.0 {
        e = smaa_edge(p);
        p.y += 2.0 * texel.y;
    }
    return p.y - texel.y * (3.25 - smaa_search_length(e.yx, 0.5));
}

// Area for an orthogonal line: sqrt of the distances to its ends, and the
// crossing edges fetched a quarter texel off the line (0, 0.25, 0.75, 1).
fn smaa_area_ortho_lookup(sqrt_dist: vec2f, e1: f32, e2: f32) -> vec2f {
    // Rounding the codes keeps filtering error from blending blocks.
    let t = smaa_area_ortho * round(4.0 * vec2f(e1, e2)) + sqrt_dist;
    return textureSampleLevel(smaa_area, fx_linear_sampler, (t + 0.5) / smaa_area_size, 0.0).rg;
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

fn smaa_corner_horizontal(w: vec2f, at: vec4f, d: vec2f, texel: vec2f) -> vec2f {
    let r = smaa_corner_factor(d);
    // Below the line at each end: the pixel's left edge crosses, its top
    // edge joins. Above: the left edge two rows up crosses, the top edge
    // of the row between joins.
    let below_left = smaa_edge(at.xy + vec2f(0.0, 1.0) * texel);
    let below_right = smaa_edge(at.zw + vec2f(1.0, 1.0) * texel);
    let above_left = smaa_straight(
        smaa_edge(at.xy + vec2f(0.0, -2.0) * texel).x,
        smaa_edge(at.xy + vec2f(0.0, -1.0) * texel).y,
    );
    let above_right = smaa_straight(
        smaa_edge(at.zw + vec2f(1.0, -2.0) * texel).x,
        smaa_edge(at.zw + vec2f(1.0, -1.0) * texel).y,
    );
    var f = vec2f(1.0);
    f.x -= r.x * smaa_straight(below_left.x, below_left.y);
    f.x -= r.y * smaa_straight(below_right.x, below_right.y);
    f.y -= r.x * above_left + r.y * above_right;
    return w * saturate(f);
}

fn smaa_corner_vertical(w: vec2f, at: vec4f, d: vec2f, texel: vec2f) -> vec2f {
    let r = smaa_corner_factor(d);
    // The same across: right of the line the pixel's top edge crosses and
    // its left edge joins; left of it, two columns over.
    let right_up = smaa_edge(at.xy + vec2f(1.0, 0.0) * texel);
    let right_down = smaa_edge(at.zw + vec2f(1.0, 1.0) * texel);
    let left_up = smaa_straight(
        smaa_edge(at.xy + vec2f(-2.0, 0.0) * texel).y,
        smaa_edge(at.xy + vec2f(-1.0, 0.0) * texel).x,
    );
    let left_down = smaa_straight(
        smaa_edge(at.zw + vec2f(-2.0, 1.0) * texel).y,
        smaa_edge(at.zw + vec2f(-1.0, 1.0) * texel).x,
    );
    var f = vec2f(1.0);
    f.x -= r.x * smaa_straight(right_up.y, right_up.x);
    f.x -= r.y * smaa_straight(right_down.y, right_down.x);
    f.y -= r.x * left_up + r.y * left_down;
    return w * saturate(f);
}

// The edge on top of the pixel: search left and right along it.
fn smaa_horizontal(uv: vec2f, pix: vec2f, texel: vec2f, size: vec2f) -> vec2f {
    let ends = vec2f(-2.0, 2.0) * smaa_max_search_steps * texel.x;
    let left = smaa_search_left(uv + vec2f(-0.25, -0.125) * texel, uv.x - 0.25 * texel.x + ends.x, texel);
    let right = smaa_search_right(uv + vec2f(1.25, -0.125) * texel, uv.x + 1.25 * texel.x + ends.y, texel);
    // Crossing edges at each end, a quarter texel up: 0.75 for one below
    // the line, 0.25 above, 1 both.
    let y = uv.y - 0.25 * texel.y;
    let e1 = smaa_edge(vec2f(left, y)).x;
    let e2 = smaa_edge(vec2f(right + texel.x, y)).x;
    let d = abs(round(size.x * vec2f(left, right) - pix.x));
    let w = smaa_area_ortho_lookup(sqrt(d), e1, e2);
    return smaa_corner_horizontal(w, vec4f(left, uv.y, right, uv.y), d, texel);
}

// The edge on the left of the pixel: search up and down along it.
fn smaa_vertical(uv: vec2f, pix: vec2f, texel: vec2f, size: vec2f) -> vec2f {
    let ends = vec2f(-2.0, 2.0) * smaa_max_search_steps * texel.y;
    let up = smaa_search_up(uv + vec2f(-0.125, -0.25) * texel, uv.y - 0.25 * texel.y + ends.x, texel);
    let down = smaa_search_down(uv + vec2f(-0.125, 1.25) * texel, uv.y + 1.25 * texel.y + ends.y, texel);
    let x = uv.x - 0.25 * texel.x;
    let e1 = smaa_edge(vec2f(x, up)).y;
    let e2 = smaa_edge(vec2f(x, down + texel.y)).y;
    let d = abs(round(size.y * vec2f(up, down) - pix.y));
    let w = smaa_area_ortho_lookup(sqrt(d), e1, e2);
    return smaa_corner_vertical(w, vec4f(uv.x, up, uv.x, down), d, texel);
}

// The weights of one pixel (cs_smaa_weights, generated, stores them in
// fx_out).
fn fx_smaa_find_weights(in: FullscreenOut) -> vec4f {
    // Pixel centre, exact (the interpolated uv may be off by rounding).
    let pix = in.position.xy;
    let size = vec2f(textureDimensions(smaa_edges));
    let texel = 1.0 / size;
    let uv = pix * texel;
    var weights = vec4f(0.0);
    var e = smaa_edge(uv);
    if e.y > 0.0 {
        // A diagonal has both edges, so looking from top edges finds it;
        // when one is found it wins over the orthogonal reading of both.
        let diag = smaa_diag_weights(uv, e, texel);
        if diag.x + diag.y == 0.0 {
            weights = vec4f(smaa_horizontal(uv, pix, texel, size), 0.0, 0.0);
        } else {
            weights = vec4f(diag, 0.0, 0.0);
            e.x = 0.0;
        }
    }
    if e.x > 0.0 {
        weights = vec4f(weights.xy, smaa_vertical(uv, pix, texel, size));
    }
    return weights;
}
