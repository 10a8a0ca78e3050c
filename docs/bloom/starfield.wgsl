fn hash2(p: vec2f) -> f32 {
    return fract(sin(dot(p, vec2f(127.1, 311.7))) * 43758.5453);
}
fn scene(uv: vec2f, time: f32) -> vec4f {
    let px = uv * resolution();
    let cell = floor(px / 12.0);
    let h = hash2(cell);
    let center = (cell + vec2f(hash2(cell + 7.0), hash2(cell + 13.0))) * 12.0;
    let r = 0.4 + 0.8 * hash2(cell + 3.0);
    let radiance = 2.0 * pow(200.0, h);
    let star = select(0.0, radiance, length(px - center) < r && h > 0.35);
    let sky = vec3f(0.004, 0.006, 0.015) * (1.0 - uv.y);
    return vec4f(sky + star * mix(vec3f(1.0, 0.8, 0.6), vec3f(0.7, 0.8, 1.0), hash2(cell + 21.0)), 1.0);
}
