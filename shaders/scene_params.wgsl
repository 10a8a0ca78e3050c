// The uniform block of every scene content, the user's WGSL included.
// SceneParams is checked against src/passes/scene.rs by src/tests/shaders.rs.

struct SceneParams {
    // Premultiplied linear colour of the solid and shape content.
    color: vec4f,
    time: f32,
    // Width / height of the target.
    aspect: f32,
    // Image content: multiplier, and width / height of the image.
    gain: f32,
    image_aspect: f32,
    // Target size in pixels.
    resolution: vec2f,
    instances: u32,
    _pad: u32,
}

@group(0) @binding(0) var<uniform> params: SceneParams;
