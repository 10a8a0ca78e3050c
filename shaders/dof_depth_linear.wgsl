// Depth of field's depth: r32float holding the linear distance along the
// view direction (not filterable on every device: read texel by texel).

@group(0) @binding(1) var depth_map: texture_2d<f32>;

fn distance_at(p: vec2i) -> f32 {
    return textureLoad(depth_map, p, 0).r;
}
