
// Entry point wrapped around the user's `fn scene(uv: vec2f, time: f32) -> vec4f`.
@fragment
fn afterglow_user_scene(in: FullscreenOut) -> @location(0) vec4f {
    return scene(in.uv, params.time);
}
