// Lens dirt (src/effects/lens_dirt.rs): light scattered by dirt on the
// lens, only where there is bloom. Runs on the bloom's light before it is
// added to the scene.

struct LensDirtParams {
    intensity: f32,
    _pad: f32,
    // Frame to dirt texture coordinates around the centre: the dirt covers
    // the frame, cropped to its aspect ratio.
    scale: vec2f,
}

fn fx_lens_dirt(color: vec4f, uv: vec2f) -> vec4f {
    let at = (uv - 0.5) * fx_lens_dirt_params.scale + 0.5;
    let smudge = max(textureSampleLevel(fx_lens_dirt_texture, effect_sampler, at, 0.0).rgb, vec3f(0.0));
    return vec4f(color.rgb * (1.0 + fx_lens_dirt_params.intensity * smudge), color.a);
}
