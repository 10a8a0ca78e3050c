// Depth of field's depth: r32float holding the linear distance along the
// view direction (not filterable on every device: read texel by texel).
// 0, negative or not finite means no geometry there (a cleared texture):
// as far as can be, 3.0e38 to coc_of.

@group(0) @binding(1) var depth_map: texture_2d<f32>;

fn distance_at(p: vec2i) -> f32 {
    let z = textureLoad(depth_map, p, 0).r;
    return select(3.0e38, z, z > 0.0);
}
