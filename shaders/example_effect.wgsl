// A full-screen HDR effect as ARCHITECTURE.md's recipe writes one, kept as a
// test fixture (the `fixtures` feature): it doubles the HDR image. It reads
// the current image texel by texel and writes the next one.

@group(0) @binding(0) var source: texture_2d<f32>;

@fragment
fn fs_double(in: FullscreenOut) -> @location(0) vec4f {
    let c = textureLoad(source, vec2i(in.position.xy), 0);
    return vec4f(c.rgb * 2.0, c.a);
}
