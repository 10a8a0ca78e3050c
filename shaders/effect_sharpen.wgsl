// Contrast-adaptive sharpening (src/effects/sharpen.rs), a hook on the
// display image (`fx_input`: linear display light, coverage in alpha).
// On a perceptual scale (the square root, close to sRGB's encoding), the
// colour so far moves away from the mean of the four neighbours by
// `strength` times its difference from it, then is limited to the
// neighbourhood's least and greatest value per channel: flat areas and
// edges already sharp are left as they are, and nothing overshoots into a
// halo.

struct SharpenParams {
    strength: f32,
    _pad: f32,
    _pad2: vec2f,
}

fn fx_sharpen_tap(p: vec2i, size: vec2i) -> vec3f {
    return sqrt(max(textureLoad(fx_input, clamp(p, vec2i(0), size - 1), 0).rgb, vec3f(0.0)));
}

fn fx_sharpen(c: vec4f, uv: vec2f) -> vec4f {
    let size = vec2i(textureDimensions(fx_input));
    let p = vec2i(uv * vec2f(size));
    let e = sqrt(max(c.rgb, vec3f(0.0)));
    let n = fx_sharpen_tap(p + vec2i(0, -1), size);
    let s = fx_sharpen_tap(p + vec2i(0, 1), size);
    let w = fx_sharpen_tap(p + vec2i(-1, 0), size);
    let east = fx_sharpen_tap(p + vec2i(1, 0), size);
    let lo = min(e, min(min(n, s), min(w, east)));
    let hi = max(e, max(max(n, s), max(w, east)));
    let mean = 0.25 * (n + s + w + east);
    let sharp = clamp(e + fx_sharpen_params.strength * (e - mean), lo, hi);
    return vec4f(sharp * sharp, c.a);
}
