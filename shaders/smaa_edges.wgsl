// SMAA 1x, pass 1 of 4: edge detection (Jimenez et al. 2012).
// Writes rgba8unorm (a format compute may store): r = an edge between
// this pixel and the one on its left, g = one between it and the one
// above; b and a are 0.
// Declared by Rust before this text: fx_linear_sampler,
// smaa_color (the display image: linear display values, premultiplied),
// fx_out (where the generated entry point stores fx_smaa_find_edges).

// SMAA's HIGH preset.
const smaa_threshold = 0.1;
// An edge is kept only if it is at least half the strongest contrast
// around it: a faint edge beside a strong one would blur the strong one.
const smaa_local_contrast = 2.0;

// What the edge test compares for one pixel: perceptual luma (the square
// root stands in for the sRGB curve, which the thresholds were tuned on)
// and coverage, so that edges of a dark shape on a transparent canvas are
// found too. `p` is clamped to the image, as its edge pixels continue.
fn smaa_value(p: vec2i) -> vec2f {
    let last = vec2i(textureDimensions(smaa_color)) - 1;
    let c = textureLoad(smaa_color, clamp(p, vec2i(0), last), 0);
    let luma = dot(c.rgb, vec3f(0.2126, 0.7152, 0.0722));
    return vec2f(sqrt(max(luma, 0.0)), c.a);
}

fn smaa_contrast(a: vec2f, b: vec2f) -> f32 {
    let d = abs(a - b);
    return max(d.x, d.y);
}

// The edges of one pixel (cs_smaa_edges, generated, stores it in fx_out).
fn fx_smaa_find_edges(in: FullscreenOut) -> vec4f {
    let p = vec2i(in.position.xy);
    let here = smaa_value(p);
    let left = smaa_value(p - vec2i(1, 0));
    let top = smaa_value(p - vec2i(0, 1));
    let delta = vec2f(smaa_contrast(here, left), smaa_contrast(here, top));
    var edges = step(vec2f(smaa_threshold), delta);
    if edges.x + edges.y == 0.0 {
        return vec4f(0.0);
    }
    // Local contrast adaptation: the strongest contrast among the other
    // edges of this pixel and the next edges on from the left and top ones.
    let right = smaa_value(p + vec2i(1, 0));
    let bottom = smaa_value(p + vec2i(0, 1));
    let left2 = smaa_value(p - vec2i(2, 0));
    let top2 = smaa_value(p - vec2i(0, 2));
    let around = max(
        max(smaa_contrast(here, right), smaa_contrast(here, bottom)),
        max(smaa_contrast(left, left2), smaa_contrast(top, top2)),
    );
    let strongest = max(around, max(delta.x, delta.y));
    edges *= step(vec2f(strongest), smaa_local_contrast * delta);
    return vec4f(edges, 0.0, 0.0);
}
