// Grading (src/effects/grading.rs) in scene-linear light, before the
// curve: the white balance (a chromatic adaptation, made on the CPU), then
// contrast of luminance in log space around mid grey (hue and saturation
// kept), then saturation around the pixel's luminance.

struct GradingParams {
    white_balance: mat3x3f,
    saturation: f32,
    contrast: f32,
    _pad: vec2f,
}

fn fx_grading(color: vec4f, uv: vec2f) -> vec4f {
    let p = fx_grading_params;
    // Bounded so that contrast's pow cannot overflow to inf (and inf * 0
    // to NaN) for extreme float content.
    let rgb = clamp(p.white_balance * color.rgb, vec3f(0.0), vec3f(1e12));
    let y = max(dot(rgb, LUMA), 1e-10);
    let graded_y = 0.18 * pow(y / 0.18, p.contrast);
    let contrasted = rgb * (graded_y / y);
    return vec4f(max(mix(vec3f(graded_y), contrasted, p.saturation), vec3f(0.0)), color.a);
}
