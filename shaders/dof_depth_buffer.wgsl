// Depth of field's depth: a depth buffer (depth32float, depth24plus, the
// depth of depth24plus-stencil8, depth16unorm), read texel by texel.

@group(0) @binding(1) var depth_map: texture_depth_2d;

fn distance_at(p: vec2i) -> f32 {
    return view_distance(textureLoad(depth_map, p, 0));
}

// Distance along the view direction of a raw depth value.
fn view_distance(raw: f32) -> f32 {
    let span = dof.far - dof.near;
    if dof.orthographic == 1u {
        return select(dof.near + raw * span, dof.far - raw * span, dof.reversed == 1u);
    }
    // Perspective: a standard buffer holds far (z - near) / (z (far - near));
    // a reversed one near (far - z) / (z (far - near)). Each solved for z
    // from its own value, so the reversed one keeps its precision far away.
    if dof.reversed == 1u {
        return dof.near * dof.far / (dof.near + raw * span);
    }
    return dof.near * dof.far / (dof.far - raw * span);
}

