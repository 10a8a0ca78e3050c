// Tonemap-aware MSAA resolve. The hardware resolve averages linear HDR
// samples, so an edge between a very bright and a dark surface averages to
// "still very bright" and aliases after tonemapping. Here each sample is
// compressed with c / (1 + max(c)) before averaging and the average is
// expanded with the inverse, c / (1 - max(c)): edges keep their coverage
// gradient. Multisampled textures take no sampler: textureLoad per sample.

@group(0) @binding(0) var scene_ms: texture_multisampled_2d<f32>;

fn max3(c: vec3f) -> f32 {
    return max(c.r, max(c.g, c.b));
}

@fragment
fn fs_resolve(in: FullscreenOut) -> @location(0) vec4f {
    let coord = vec2i(in.position.xy);
    let n = i32(textureNumSamples(scene_ms));
    var rgb = vec3f(0.0);
    var alpha = 0.0;
    for (var s = 0; s < n; s++) {
        let c = finite4(textureLoad(scene_ms, coord, s));
        rgb += c.rgb / (1.0 + max3(max(c.rgb, vec3f(0.0))));
        alpha += c.a;
    }
    rgb /= f32(n);
    let m = min(max3(rgb), 0.999);
    return vec4f(rgb / (1.0 - m), alpha / f32(n));
}
