// Chromatic aberration (src/effects/chromatic_aberration.rs): lateral lens
// fringing. Red is magnified and blue shrunk about the centre, so each is
// shifted radially by lens.chromaticAberration output pixels at the
// corners and proportionally less towards the centre, where there is none.
// Green stays. The first effect on the scene's light: it reads the light
// of the other places again (fx_light_at: the exposed scene and its
// bloom).

struct ChromaticAberrationParams {
    // The shift in uv per uv away from the centre.
    scale: f32,
    _pad0: f32,
    _pad1: vec2f,
}

fn fx_chromatic_aberration(color: vec4f, uv: vec2f) -> vec4f {
    let d = (uv - 0.5) * fx_chromatic_aberration_params.scale;
    let r = fx_light_at(uv - d).r;
    let b = fx_light_at(uv + d).b;
    return vec4f(r, color.g, b, color.a);
}
