// Test content for the image tests (built only with the `fixtures`
// feature): a solid colour, a tilted square with geometric edges, and an
// image shown one texel per pixel with its values as given.
// SceneParams and its binding come from scene_params.wgsl.

// Pixels content: one texel per output pixel (nearest), rgba32float.
@group(1) @binding(0) var pixels: texture_2d<f32>;

// One square, tilted by 30 degrees, covering the middle of the target: its
// edges are the geometric edges of the MSAA tests.
@vertex
fn vs_shape(@builtin(vertex_index) vi: u32) -> @builtin(position) vec4f {
    let corner = array<vec2f, 6>(
        vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0),
        vec2f(-1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0),
    )[vi % 6u] * 0.5;
    let a = radians(30.0);
    let p = vec2f(corner.x * cos(a) - corner.y * sin(a), corner.x * sin(a) + corner.y * cos(a));
    return vec4f(p.x / params.aspect, p.y, 0.5, 1.0);
}

@fragment
fn fs_solid() -> @location(0) vec4f {
    return params.color;
}

@fragment
fn fs_pixels(in: FullscreenOut) -> @location(0) vec4f {
    let dims = vec2f(textureDimensions(pixels));
    let coord = vec2i(clamp(floor(in.uv * dims), vec2f(0.0), dims - 1.0));
    return textureLoad(pixels, coord, 0);
}

