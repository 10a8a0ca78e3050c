// Chromatic aberration (src/effects/chromatic_aberration.rs): lateral lens
// fringing. Red is magnified and blue shrunk about the centre, so each is
// shifted radially by lens.chromaticAberration output pixels at the
// corners and proportionally less towards the centre, where there is none.
// Green stays. The first effect on the scene's light: it reads the light
// of the other places again (fx_light_at: the exposed scene and its
// bloom).

struct ChromaticAberrationParams {
    // Where red and blue are read, as a scale about the centre: red from
    // nearer the centre (its image grows), blue from farther (it shrinks).
    red: f32,
    blue: f32,
    _pad: vec2f,
}

fn fx_chromatic_aberration(color: vec4f, uv: vec2f) -> vec4f {
    let p = fx_chromatic_aberration_params;
    let r = fx_light_at(0.5 + (uv - 0.5) * p.red).r;
    let b = fx_light_at(0.5 + (uv - 0.5) * p.blue).b;
    return vec4f(r, color.g, b, color.a);
}
