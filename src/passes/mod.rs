//! One module per pass. Each owns its pipelines and uniform buffers and
//! implements [`crate::pass::Pass`]: given the frame builder it adds its
//! own steps and graph declarations, reading and publishing the frame's
//! slots (the HDR image, the bloom result). The chain only orders the
//! passes. This module lists them: the registries of their shaders and
//! uniform layouts that the tests validate.

pub mod bloom;
pub mod composite;
pub mod content;
#[cfg(feature = "fixtures")]
pub mod fixtures;
pub mod resolve;
pub mod scene;
pub mod user_shader;

#[cfg(feature = "fixtures")]
use crate::pass::Uniform;
#[cfg(feature = "fixtures")]
use crate::shaders::compose;

/// A uniform block as Rust lays it out: the WGSL source that declares it,
/// the struct name, its size and its fields' offsets.
#[cfg(feature = "fixtures")]
pub type UniformLayout = (String, &'static str, usize, Vec<(&'static str, usize)>);

/// Every uniform block with the WGSL source that declares it: the struct
/// name, its size and field offsets in Rust.
#[cfg(feature = "fixtures")]
pub fn uniform_layouts() -> Vec<UniformLayout> {
    fn entry<U: Uniform>(source: String) -> UniformLayout {
        (source, U::WGSL_NAME, std::mem::size_of::<U>(), U::offsets())
    }
    vec![
        entry::<bloom::BloomParams>(compose(bloom::SHADER_PARTS)),
        entry::<composite::CompositeParams>(compose(composite::SHADER_PARTS)),
        entry::<scene::SceneParams>(compose(scene::SHADER_PARTS)),
    ]
}

/// Every module the crate compiles, by name, as the GPU receives it. A
/// user's scene shader is represented by a minimal valid one.
#[cfg(feature = "fixtures")]
pub fn shader_registry() -> Vec<(&'static str, String)> {
    #[allow(unused_mut)]
    let mut all = vec![
        ("scene", compose(scene::SHADER_PARTS)),
        ("bloom", compose(bloom::SHADER_PARTS)),
        ("resolve", compose(resolve::SHADER_PARTS)),
        ("composite", compose(composite::SHADER_PARTS)),
        (
            "user scene wrapper",
            content::user_module_source(
                "fn scene(uv: vec2f, time: f32) -> vec4f { \
                 return vec4f(uv * resolution() / 100.0, time, 1.0); }",
            ),
        ),
        (
            "user scene wrapper with emissive",
            content::user_module_source(
                "fn scene(uv: vec2f, time: f32) -> vec4f { return vec4f(uv, time, 1.0); }\n\
                 fn emissive(uv: vec2f, time: f32) -> vec3f { return vec3f(uv, time); }",
            ),
        ),
    ];
    #[cfg(feature = "fixtures")]
    all.push(("test fixtures", compose(fixtures::SHADER_PARTS)));
    all
}
