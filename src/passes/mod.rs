//! One module per pass. Each owns its pipelines and uniform buffers and
//! implements [`crate::pass::Pass`]: given the frame builder it adds its
//! own steps and graph declarations, reading and publishing the frame's
//! slots (the HDR image, the bloom result). The chain only orders the
//! passes. This module lists them: the registries of their shaders and
//! uniform layouts that the tests validate.

pub mod auto_exposure;
pub mod bloom;
pub mod composite;
pub mod content;
pub mod depth_of_field;
#[cfg(test)]
pub mod example_effect;
#[cfg(test)]
pub mod fixtures;
pub mod look;
pub mod resolve;
pub mod scene;
pub mod user_shader;

use crate::pass::Registration;

/// Every pass the chain makes, each registered by its module. The chain
/// orders them by stage (registration order within one); a new pass is
/// its module and one line here.
pub const PASSES: &[&Registration] = &[
    &scene::PASS,
    &resolve::PASS,
    &depth_of_field::PASS,
    &auto_exposure::PASS,
    &bloom::PASS,
    &composite::PASS,
];

/// Every module the crate compiles, by name, as the GPU receives it.
#[cfg(test)]
pub fn shader_registry() -> Vec<(&'static str, String)> {
    let mut all: Vec<_> = PASSES.iter().flat_map(|p| (p.shaders)()).collect();
    all.push((
        "test fixtures",
        crate::shaders::compose(fixtures::SHADER_PARTS),
    ));
    all.extend((example_effect::PASS.shaders)());
    all
}

/// Every uniform block with the WGSL source that declares it.
#[cfg(test)]
pub fn uniform_layouts() -> Vec<crate::pass::UniformLayout> {
    PASSES.iter().flat_map(|p| (p.uniforms)()).collect()
}
