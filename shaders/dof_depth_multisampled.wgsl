// Depth of field's depth: a multisampled depth buffer, read at its first
// sample, as three.js reads the depth of a multisampled render target
// (WebGPU resolves no depth), and turned into distance by the camera
// (view_distance, depth_of_field.wgsl).

@group(0) @binding(1) var depth_map: texture_depth_multisampled_2d;

fn distance_at(p: vec2i) -> f32 {
    return view_distance(textureLoad(depth_map, p, 0));
}
