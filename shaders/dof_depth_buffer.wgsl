// Depth of field's depth: a depth buffer (depth32float, depth24plus, the
// depth of depth24plus-stencil8, depth16unorm), read texel by texel and
// turned into distance by the camera (view_distance, depth_of_field.wgsl).

@group(0) @binding(1) var depth_map: texture_depth_2d;

fn distance_at(p: vec2i) -> f32 {
    return view_distance(textureLoad(depth_map, p, 0));
}
