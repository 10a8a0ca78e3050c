// Vignette (src/effects/vignette.rs): what is left of the light at uv, 1
// within `radius` of the centre (a fraction of the distance to a corner,
// measured round on any aspect ratio), falling smoothly to
// 1 - intensity over `smoothness`. Before the curve.

struct VignetteParams {
    intensity: f32,
    radius: f32,
    smoothness: f32,
    // The output's width over its height.
    aspect: f32,
}

fn fx_vignette(color: vec4f, uv: vec2f) -> vec4f {
    let p = fx_vignette_params;
    let scale = vec2f(p.aspect, 1.0);
    let d = length((uv - 0.5) * scale) / length(0.5 * scale);
    let t = clamp((d - p.radius) / p.smoothness, 0.0, 1.0);
    return vec4f(color.rgb * (1.0 - p.intensity * t * t * (3.0 - 2.0 * t)), color.a);
}
