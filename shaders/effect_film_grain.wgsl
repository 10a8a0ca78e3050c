// Film grain (src/effects/film_grain.rs), on the encoded display values,
// after the lookup table: value noise with cells of grain.size output
// pixels (one cell per pixel at size 1, whatever the resolution), a new
// pattern for every time, strongest in the mid-tones and fading to none at
// black and white.

struct FilmGrainParams {
    intensity: f32,
    size: f32,
    _pad: vec2f,
}

// A hash of three integers to [0, 1) (a PCG-style permutation).
fn grain_hash(p: vec3u) -> f32 {
    var v = p * 1664525u + 1013904223u;
    v.x += v.y * v.z;
    v.y += v.z * v.x;
    v.z += v.x * v.y;
    v ^= v >> vec3u(16u);
    v.x += v.y * v.z;
    v.y += v.z * v.x;
    v.z += v.x * v.y;
    return f32(v.x >> 8u) / 16777216.0;
}

fn fx_film_grain(color: vec4f, uv: vec2f) -> vec4f {
    let p = fx_film_grain_params;
    // Cell coordinates with cell centres on whole numbers: at size 1 every
    // pixel centre is one cell's, so neighbouring pixels are independent.
    let at = uv * resolution() / p.size - 0.5;
    let cell = floor(at);
    let f = at - cell;
    let seed = bitcast<u32>(time());
    let c = vec2u(vec2i(cell) + vec2i(1 << 20u));
    let n00 = grain_hash(vec3u(c, seed));
    let n10 = grain_hash(vec3u(c + vec2u(1u, 0u), seed));
    let n01 = grain_hash(vec3u(c + vec2u(0u, 1u), seed));
    let n11 = grain_hash(vec3u(c + vec2u(1u, 1u), seed));
    let s = f * f * (3.0 - 2.0 * f);
    let n = mix(mix(n00, n10, s.x), mix(n01, n11, s.x), s.y) - 0.5;
    let y = clamp(dot(color.rgb, LUMA), 0.0, 1.0);
    let weight = 4.0 * y * (1.0 - y);
    return vec4f(color.rgb + p.intensity * 0.4 * weight * n, color.a);
}
