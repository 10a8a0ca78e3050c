// Built-in pattern content: an animated HDR test image, or one solid
// colour (used by image tests). Writes premultiplied linear radiance.
// Keep PatternParams in sync with src/passes/pattern.rs.

struct PatternParams {
    // Premultiplied linear colour used when mode == 1.
    color: vec4f,
    time: f32,
    // 0: animated pattern, 1: solid colour.
    mode: u32,
    aspect: f32,
    _pad: f32,
}

@group(0) @binding(0) var<uniform> params: PatternParams;

fn orb(p: vec2f, center: vec2f, radius: f32) -> f32 {
    let d = length(p - center) / radius;
    return exp(-d * d * 4.0);
}

@fragment
fn fs_pattern(in: FullscreenOut) -> @location(0) vec4f {
    if params.mode == 1u {
        return params.color;
    }
    let t = params.time;
    let p = vec2f((in.uv.x - 0.5) * params.aspect, in.uv.y - 0.5);
    // Dim gradient background, well below 1.
    var c = vec3f(0.02, 0.025, 0.05) + vec3f(0.03, 0.02, 0.06) * (1.0 - in.uv.y);
    // Three orbs circling, peaking far above 1 (HDR).
    for (var i = 0u; i < 3u; i++) {
        let phase = t * (0.6 + 0.25 * f32(i)) + f32(i) * 2.094;
        let center = vec2f(cos(phase), sin(phase * 1.3)) * 0.28;
        let hue = vec3f(
            0.5 + 0.5 * cos(f32(i) * 2.094),
            0.5 + 0.5 * cos(f32(i) * 2.094 + 2.094),
            0.5 + 0.5 * cos(f32(i) * 2.094 + 4.189),
        );
        c += hue * 8.0 * orb(p, center, 0.09);
    }
    return vec4f(c, 1.0);
}
