//! What a fused effect is. The composite is one full-screen pass; the
//! looks that change a pixel from its own colour (a vignette, grading, a
//! lookup table, grain) run inside it, in order, as WGSL functions
//! `fn fx_<name>(color: vec4f, uv: vec2f) -> vec4f` that the composite's
//! shader is generated around (`crate::passes::composite`). An effect that
//! is off leaves no code in that shader.
//!
//! A built-in effect is one module of `crate::effects` and one WGSL file:
//! a [`Builtin`] with its function, its uniform block, the look textures
//! it reads and its entries in the option table. A user's effect
//! (`addEffect`, [`crate::PostChain::add_effect`]) is the same thing made
//! at run time (`crate::user_effect`).
//!
//! A leaf of the crate: the option table gathers the effects' entries, so
//! nothing here may reach the table back.

use crate::options::schema::OptionSpec;
use crate::options::types::Options;

/// What every effect's WGSL sees besides its own declarations: the
/// full-screen stage's output struct, and `time()`, `resolution()` and
/// `effect_sampler`.
pub const FULLSCREEN_FOR_EFFECTS: &str = wgsl!("fullscreen.wgsl");
pub const EFFECT_PRELUDE: &str = wgsl!("effect_prelude.wgsl");

/// Where in the composite an effect runs, in frame order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Place {
    /// On the bloom's light before it is added to the scene (lens dirt).
    Bloom,
    /// On linear HDR light, after exposure and bloom, before the curve.
    Scene,
    /// On linear display light, after the curve.
    Display,
    /// On display values sRGB-encoded in [0, 1], last: the lookup table
    /// and grain. On an opaque 8-bit output that encodes in the shader,
    /// the output takes this result as it is (no decode and encode again).
    Encoded,
}

impl Place {
    pub const ALL: [Place; 4] = [Place::Bloom, Place::Scene, Place::Display, Place::Encoded];

    /// Its hook in the composite's WGSL: `fx_<name>`, and `FX_<NAME>`
    /// (whether any effect runs there).
    pub fn hook(self) -> (&'static str, &'static str) {
        match self {
            Place::Bloom => ("fx_bloom", "FX_BLOOM"),
            Place::Scene => ("fx_scene", "FX_SCENE"),
            Place::Display => ("fx_display", "FX_DISPLAY"),
            Place::Encoded => ("fx_encoded", "FX_ENCODED"),
        }
    }
}

/// A texture of the look a built-in effect reads (set by `setLut` and
/// `setLensDirt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LookTexture {
    /// The 3D lookup table (`texture_3d<f32>`, read with `textureLoad`).
    Lut,
    /// The lens dirt (`texture_2d<f32>`, sampled).
    Dirt,
}

/// A lookup table's entries per side and its domain.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LutDomain {
    pub size: u32,
    pub min: [f32; 3],
    pub max: [f32; 3],
}

/// What an effect's switch and uniforms depend on besides the options.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Context {
    /// Size of the HDR image.
    pub size: (u32, u32),
    /// Size of the output the composite writes.
    pub output_size: (u32, u32),
    /// Bloom is on (its result is added).
    pub bloom: bool,
    /// The lookup table, if one is set.
    pub lut: Option<LutDomain>,
    /// The lens dirt texture's size, if one is set.
    pub dirt: Option<(u32, u32)>,
}

/// The layout of an effect's uniform block as Rust declares it: its WGSL
/// struct name, size and fields' offsets (compared to the WGSL by
/// `src/tests/shaders.rs`).
#[cfg(test)]
pub type ParamsLayout = (&'static str, usize, Vec<(&'static str, usize)>);

/// A built-in effect, as its module registers it (`crate::effects::BUILTINS`).
pub struct Builtin {
    /// Its name: the label of its uniform, and its WGSL function
    /// `fx_<name>(color: vec4f, uv: vec2f) -> vec4f`.
    pub name: &'static str,
    pub place: Place,
    /// Its WGSL: the function, its helpers and its uniform struct. Its
    /// uniform is bound as `fx_<name>_params`, its textures by the names in
    /// `textures`; the composite's own helpers (`srgb_encode`, `LUMA`,
    /// `effect_sampler`, `time()`, `resolution()`, `fx_light_at`) are in
    /// scope.
    pub wgsl: &'static str,
    /// The WGSL struct of its uniform and its size in bytes.
    pub params: Option<(&'static str, usize)>,
    /// The look textures it reads, with their WGSL names.
    pub textures: &'static [(&'static str, LookTexture)],
    /// Its entries in the option table.
    pub options: &'static [OptionSpec],
    /// Whether it runs for these options and this frame. Off, it leaves no
    /// code in the composite.
    pub on: fn(&Options, &Context) -> bool,
    /// Its uniform block's bytes.
    pub write: fn(&Options, &Context) -> Vec<u8>,
    /// Its uniform block's layout, for the tests.
    #[cfg(test)]
    pub layout: fn() -> ParamsLayout,
}

/// The layout of `U` (see [`Builtin::layout`]).
#[cfg(test)]
pub fn params_layout<U: crate::uniform::Uniform>() -> ParamsLayout {
    (U::WGSL_NAME, std::mem::size_of::<U>(), U::offsets())
}

/// Appends `parts` to `s`: generated WGSL, pieced without the formatter.
pub fn push_all(s: &mut String, parts: &[&str]) {
    for p in parts {
        s.push_str(p);
    }
}

/// Appends the declaration of binding `binding` of group 0: `var` and
/// then `rest` (`<uniform> name: Type`, ` name: texture_2d<f32>`).
pub fn declare_binding(s: &mut String, binding: u32, rest: &[&str]) {
    push_all(s, &["@group(0) @binding(", &binding.to_string(), ") var"]);
    push_all(s, rest);
    s.push_str(";\n");
}
