// Contrast-adaptive sharpening (src/effects/sharpen.rs), a hook on the
// display image (`fx_input`: linear display light, coverage in alpha,
// premultiplied). On a perceptual scale (the square root, close to sRGB's
// encoding), the display image's pixel moves away from the mean of its
// four neighbours by `strength` times its difference from it, limited to
// the neighbourhood's least and greatest value per channel: flat areas and
// edges already sharp are left as they are, and nothing overshoots into a
// halo. What that move adds is added to the colour so far, which is the
// display image's own pixel unless FXAA or SMAA ran before: an edge they
// smoothed keeps their blend (the aliased image's own pixel does not
// move there, as the limit holds it), and a soft edge still steepens.
// Coverage moves with the light, so a transparent canvas's edges stay
// premultiplied rather than gaining a dark fringe.

struct SharpenParams {
    strength: f32,
    _pad: f32,
    _pad2: vec2f,
}

fn fx_sharpen_tap(p: vec2i, size: vec2i) -> vec4f {
    return sqrt(max(textureLoad(fx_input, clamp(p, vec2i(0), size - 1), 0), vec4f(0.0)));
}

fn fx_sharpen(c: vec4f, uv: vec2f) -> vec4f {
    let size = vec2i(textureDimensions(fx_input));
    let p = vec2i(uv * vec2f(size));
    let e = fx_sharpen_tap(p, size);
    let n = fx_sharpen_tap(p + vec2i(0, -1), size);
    let s = fx_sharpen_tap(p + vec2i(0, 1), size);
    let w = fx_sharpen_tap(p + vec2i(-1, 0), size);
    let east = fx_sharpen_tap(p + vec2i(1, 0), size);
    let lo = min(e, min(min(n, s), min(w, east)));
    let hi = max(e, max(max(n, s), max(w, east)));
    let mean = 0.25 * (n + s + w + east);
    let moved = clamp(e + fx_sharpen_params.strength * (e - mean), lo, hi) - e;
    // Within the neighbourhood's range, or the colour so far's own.
    let so_far = sqrt(max(c, vec4f(0.0)));
    let out = clamp(so_far + moved, min(lo, so_far), max(hi, so_far));
    return out * out;
}
