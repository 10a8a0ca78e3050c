//! The built-in effects fused into the composite, one module each (see
//! `crate::effect`). This module lists them, in the order they run within
//! their place; a new effect is its module, its WGSL file and one line
//! here, and its options, if it has its own, in the option table
//! (`crate::options`), which the effect reads.

pub mod chromatic_aberration;
pub mod film_grain;
pub mod fxaa;
pub mod grading;
pub mod lens_dirt;
pub mod lookup_table;
pub mod sharpen;
pub mod smaa;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod smaa_model;
pub mod vignette;

use crate::effect::Builtin;

/// Every built-in effect, in the order the composite runs those of one
/// place.
pub const BUILTINS: &[&Builtin] = &[
    &lens_dirt::EFFECT,
    &chromatic_aberration::EFFECT,
    &vignette::EFFECT,
    &grading::EFFECT,
    &fxaa::EFFECT,
    &smaa::EFFECT,
    &sharpen::EFFECT,
    &lookup_table::EFFECT,
    &film_grain::EFFECT,
];
