fn scene(uv: vec2f, time: f32) -> vec4f {
    let p = uv * resolution();
    var c = vec3f(0.0);
    for (var k = 0; k < 4; k++) {
        // One pixel lit at phase (k, k) of its 4×4 box of the bloom base.
        let centre = vec2f(40.5 + 80.0 * f32(k) + f32(k), 44.5 + f32(k));
        if length(p - centre) < 0.6 {
            c = vec3f(100.0);
        }
    }
    return vec4f(c, 1.0);
}
