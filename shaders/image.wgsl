// A full-screen pass run as compute (shaders::image_entry), one
// invocation per pixel of the image it writes (a storage texture), in
// IMAGE_GROUP x IMAGE_GROUP workgroups. Compute runs at the full rate where
// the raster path is narrow (on a data-centre GPU, many times the fragment
// stage's) and costs what a draw does elsewhere. Prepended to every
// internal shader by the Rust side; users' shaders never see it.

// The input a full-screen draw would give pixel `p` of a `size` image.
fn fx_fullscreen_at(p: vec2u, size: vec2u) -> FullscreenOut {
    var out: FullscreenOut;
    out.position = vec4f(vec2f(p) + 0.5, 0.0, 1.0);
    out.uv = (vec2f(p) + 0.5) / vec2f(size);
    return out;
}
