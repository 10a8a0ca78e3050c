// Full-screen pass: one triangle generated from vertex_index, no vertex
// buffer. One oversized triangle rather than a two-triangle quad avoids the
// diagonal seam where 2x2 shading quads would run twice.
// Prepended to every full-screen shader by the Rust side.

struct FullscreenOut {
    @builtin(position) position: vec4f,
    // 0..1, y down (texture convention)
    @location(0) uv: vec2f,
}

@vertex
fn vs_fullscreen(@builtin(vertex_index) index: u32) -> FullscreenOut {
    // (0,0), (2,0), (0,2) in uv: covers the whole [0,1]^2 viewport.
    let uv = vec2f(f32((index << 1u) & 2u), f32(index & 2u));
    var out: FullscreenOut;
    out.position = vec4f(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, 0.0, 1.0);
    out.uv = uv;
    return out;
}
