// FXAA (src/effects/fxaa.rs), after Lottes's FXAA 3.11, its quality path
// at its default preset (12): a pixel whose neighbourhood's luma contrast
// is high enough is on an edge; the edge runs along the axis of the larger second
// difference; walking along it both ways (5 steps, growing) finds where
// it ends, and the pixel is read shifted across the edge by how far it
// lies from the nearer end, as the edge would have covered it. A
// one-pixel feature that is not an edge gets a blend towards its
// neighbourhood instead (the sub-pixel term).
// Reads the display image, `fx_input`: linear display light, coverage in
// alpha, blended linearly; edges are judged on a perceptual luma.

// How much the sub-pixel term may blend (0 off, 1 full); 0.75 is the
// reference's default, which softens single-pixel detail a little.
const FXAA_SUBPIX = 0.75;
// The least local contrast, relative to the brightest, that is an edge.
const FXAA_THRESHOLD = 0.125;
// Below this contrast nothing is an edge (dark noise).
const FXAA_THRESHOLD_MIN = 0.0625;

// Luma on a perceptual scale (square root: close to sRGB's encoding).
fn fx_fxaa_luma(c: vec4f) -> f32 {
    return sqrt(max(dot(c.rgb, vec3f(0.2126, 0.7152, 0.0722)), 0.0));
}

fn fx_fxaa_at(uv: vec2f) -> vec4f {
    return textureSampleLevel(fx_input, effect_sampler, uv, 0.0);
}

fn fx_fxaa_luma_at(uv: vec2f) -> f32 {
    return fx_fxaa_luma(fx_fxaa_at(uv));
}

// The luma of the pixel `offset` from `p`, clamped to the image: a load,
// which costs less than a filtered read (on a software rasterizer, much
// less).
fn fx_fxaa_luma_near(p: vec2i, offset: vec2i) -> f32 {
    let last = vec2i(textureDimensions(fx_input)) - 1;
    return fx_fxaa_luma(textureLoad(fx_input, clamp(p + offset, vec2i(0), last), 0));
}

// The steps of the walk along an edge, in pixels.
fn fx_fxaa_step(i: u32) -> f32 {
    return select(select(12.0, 4.0, i < 4u), select(2.0, 1.5, i < 2u), i < 3u);
}

fn fx_fxaa(uv: vec2f) -> vec4f {
    let size = vec2f(textureDimensions(fx_input));
    let texel = 1.0 / size;
    let p = vec2i(uv * size);
    let last = vec2i(size) - 1;
    let centre = textureLoad(fx_input, clamp(p, vec2i(0), last), 0);
    let m = fx_fxaa_luma(centre);
    var n = fx_fxaa_luma_near(p, vec2i(0, -1));
    var s = fx_fxaa_luma_near(p, vec2i(0, 1));
    let w = fx_fxaa_luma_near(p, vec2i(-1, 0));
    let e = fx_fxaa_luma_near(p, vec2i(1, 0));
    let high = max(max(max(n, s), max(w, e)), m);
    let low = min(min(min(n, s), min(w, e)), m);
    let range = high - low;
    if range < max(FXAA_THRESHOLD_MIN, high * FXAA_THRESHOLD) {
        return centre;
    }
    let nw = fx_fxaa_luma_near(p, vec2i(-1, -1));
    let se = fx_fxaa_luma_near(p, vec2i(1, 1));
    let ne = fx_fxaa_luma_near(p, vec2i(1, -1));
    let sw = fx_fxaa_luma_near(p, vec2i(-1, 1));

    // The sub-pixel term: how far the pixel stands out from the weighted
    // average of its neighbourhood, eased.
    let average = (2.0 * (n + s + w + e) + (nw + ne + sw + se)) / 12.0;
    let stand_out = clamp(abs(average - m) / range, 0.0, 1.0);
    let eased = (3.0 - 2.0 * stand_out) * stand_out * stand_out;
    let subpixel = eased * eased * FXAA_SUBPIX;

    // A horizontal edge changes luma vertically: compare the second
    // differences across rows and across columns.
    let across_rows = abs(nw + sw - 2.0 * w) + 2.0 * abs(n + s - 2.0 * m) + abs(ne + se - 2.0 * e);
    let across_columns = abs(nw + ne - 2.0 * n) + 2.0 * abs(w + e - 2.0 * m) + abs(sw + se - 2.0 * s);
    let horizontal = across_rows >= across_columns;
    // Across the edge: the two neighbours on that axis (n before s).
    if !horizontal {
        n = w;
        s = e;
    }
    var across = select(texel.x, texel.y, horizontal);
    let gradient_n = abs(n - m);
    let gradient_s = abs(s - m);
    // The side across the edge with the larger step is the other side.
    var pair = s;
    if gradient_n >= gradient_s {
        across = -across;
        pair = n;
    }
    let gradient = max(gradient_n, gradient_s) * 0.25;
    let local = 0.5 * (pair + m);

    // Walk along the edge from the middle of the pixel's side towards the
    // other one, both ways, until the luma there leaves the edge's.
    var start = uv;
    var along = vec2f(texel.x, 0.0);
    if horizontal {
        start.y += across * 0.5;
    } else {
        start.x += across * 0.5;
        along = vec2f(0.0, texel.y);
    }
    var pos_n = start - along;
    var pos_p = start + along;
    var end_n = fx_fxaa_luma_at(pos_n) - local;
    var end_p = fx_fxaa_luma_at(pos_p) - local;
    for (var i = 1u; i < 5u; i++) {
        let done_n = abs(end_n) >= gradient;
        let done_p = abs(end_p) >= gradient;
        if done_n && done_p {
            break;
        }
        let stride = along * fx_fxaa_step(i);
        if !done_n {
            pos_n -= stride;
            end_n = fx_fxaa_luma_at(pos_n) - local;
        }
        if !done_p {
            pos_p += stride;
            end_p = fx_fxaa_luma_at(pos_p) - local;
        }
    }
    var distance_n = uv.x - pos_n.x;
    var distance_p = pos_p.x - uv.x;
    if !horizontal {
        distance_n = uv.y - pos_n.y;
        distance_p = pos_p.y - uv.y;
    }
    let nearer_n = distance_n < distance_p;
    let distance = min(distance_n, distance_p);
    let span = distance_n + distance_p;
    // The edge covers this pixel only if, at its nearer end, luma changes
    // the other way than at the pixel.
    let end = select(end_p, end_n, nearer_n);
    let covered = (end < 0.0) != (m - local < 0.0);
    let edge = select(0.0, 0.5 - distance / span, covered);
    let offset = max(edge, subpixel);
    var at = uv;
    if horizontal {
        at.y += offset * across;
    } else {
        at.x += offset * across;
    }
    return fx_fxaa_at(at);
}
