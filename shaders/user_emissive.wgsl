
// Entry point wrapped around the user's optional
// `fn emissive(uv: vec2f, time: f32) -> vec3f`: the light that blooms
// (selective bloom), rendered into its own target for the bloom extract.
@fragment
fn afterglow_user_emissive(in: FullscreenOut) -> @location(0) vec4f {
    return vec4f(emissive(in.uv, params.time), 1.0);
}
