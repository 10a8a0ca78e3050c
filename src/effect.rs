//! What a fused effect is. The composite is one full-screen pass; the
//! looks that change a pixel from its own colour (a vignette, grading, a
//! lookup table, grain) run inside it, in order, as WGSL functions
//! `fn fx_<name>(color: vec4f, uv: vec2f) -> vec4f` that the composite's
//! shader is generated around (`crate::passes::composite`). An effect that
//! is off leaves no code in that shader.
//!
//! A built-in effect is one module of `crate::effects` and one WGSL file:
//! a [`Builtin`] with its function, its uniform block and the look
//! textures it reads. Its options are in the option table, below it: the
//! effect reads them, the table knows no effect. A user's effect
//! (`addEffect`, [`crate::PostChain::add_effect`]) is the same thing made
//! at run time (`crate::user_effect`).
//!
//! Every binding an effect takes in the composite's bind group is a
//! [`Binding`]: its WGSL name and what it holds. The composite declares
//! each in WGSL, lays it out and binds it from one list of them.

use std::borrow::Cow;
use std::fmt::Write;

use crate::options::types::Options;
use crate::pipeline::{FILTERABLE_TEXTURE, FILTERING_SAMPLER, UNIFORM};
use crate::uniform::{uniform, Uniform};

/// What every effect's WGSL sees besides its own declarations: the
/// full-screen stage's output struct, and `time()`, `resolution()` and
/// `effect_sampler` (declared with [`shared_bindings`]).
pub const FULLSCREEN_FOR_EFFECTS: &str = wgsl!("fullscreen.wgsl");
pub const EFFECT_PRELUDE: &str = wgsl!("effect_prelude.wgsl");

uniform! {
    /// `EffectFrame` in effect_prelude.wgsl: what every effect reads.
    struct EffectFrame {
        time: f32,
        _pad: f32,
        resolution: [f32; 2],
    }
}

/// The bindings every effect shares, before the effects' own: the frame
/// ([`EffectFrame`], read by `time()` and `resolution()`) and the linear,
/// clamping `effect_sampler`.
pub fn shared_bindings() -> [Binding; 2] {
    [
        Binding {
            name: Cow::Borrowed("effect_frame"),
            kind: BindingKind::Uniform(Cow::Borrowed(EffectFrame::WGSL_NAME)),
        },
        Binding {
            name: Cow::Borrowed("effect_sampler"),
            kind: BindingKind::Sampler,
        },
    ]
}

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
    /// The 3D lookup table (rgba32float, read with `textureLoad`).
    Lut,
    /// The lens dirt (sampled).
    Dirt,
}

impl LookTexture {
    /// How it is bound.
    pub fn kind(self) -> BindingKind {
        match self {
            LookTexture::Lut => BindingKind::Texture3d,
            LookTexture::Dirt => BindingKind::Texture2d,
        }
    }
}

/// A lookup table's entries per side and its domain.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LutDomain {
    pub size: u32,
    pub min: [f32; 3],
    pub max: [f32; 3],
}

/// The look's textures as the effects' switches and uniforms see them
/// (set by the chain, in the frame's info).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LookInfo {
    pub lut: Option<LutDomain>,
    /// The dirt texture's size in texels.
    pub dirt: Option<(u32, u32)>,
}

/// The views of the look's textures a frame binds (set by the chain).
#[derive(Clone, Default)]
pub struct LookViews {
    pub lut: Option<wgpu::TextureView>,
    pub dirt: Option<wgpu::TextureView>,
}

impl LookViews {
    /// The view of `texture`, if it is set.
    pub fn get(&self, texture: LookTexture) -> Option<&wgpu::TextureView> {
        match texture {
            LookTexture::Lut => self.lut.as_ref(),
            LookTexture::Dirt => self.dirt.as_ref(),
        }
    }
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
    /// Its name, which its WGSL names are made of: the function
    /// `fx_<name>` ([`Builtin::function`]) and its uniform
    /// `fx_<name>_params` ([`Builtin::params_binding`]). Also the label of
    /// its uniform buffer.
    pub name: &'static str,
    pub place: Place,
    /// Its WGSL: the function, its helpers and its uniform struct. Its
    /// bindings are declared before it; the composite's own helpers
    /// (`srgb_encode`, `LUMA`, `effect_sampler`, `time()`, `resolution()`,
    /// `fx_light_at`) are in scope.
    pub wgsl: &'static str,
    /// Its uniform block.
    pub params: Option<Params>,
    /// The look textures it reads, with their WGSL names.
    pub textures: &'static [(&'static str, LookTexture)],
    /// Whether it runs for these options and this frame. Off, it leaves no
    /// code in the composite.
    pub on: fn(&Options, &Context) -> bool,
    /// Its uniform block's bytes.
    pub write: fn(&Options, &Context) -> Vec<u8>,
    /// Set for an effect that reads around its pixel; its function is then
    /// `fn fx_<name>(uv: vec2f) -> vec4f` (see [`Neighbours`]).
    pub neighbours: Option<&'static Neighbours>,
}

/// What an effect that reads the display image around its pixel needs
/// (anti-aliasing). The composite stops before the first such effect and
/// writes the display image (linear display light and coverage,
/// `rgba16float`); the effect's passes run on it in order; then a pass of
/// the composite's resumes the frame at the effect, whose function,
/// `fn fx_<name>(uv: vec2f) -> vec4f`, reads the image (`fx_input`) and
/// what its passes made wherever it likes, and the effects after it and
/// the output's encoding follow. Scheduled and bound by the composite
/// (`crate::passes::composite`) from this description alone.
pub struct Neighbours {
    /// Full-screen passes between the display image and the effect, in
    /// order.
    pub passes: &'static [Prepass],
    /// What the effect's function reads besides `fx_input`, by WGSL name.
    pub reads: &'static [(&'static str, Input)],
    /// The function is a hook's instead, `fn fx_<name>(c: vec4f, uv:
    /// vec2f) -> vec4f`: it changes the colour so far (after the effect
    /// the frame was split at, if any) from the display image around its
    /// pixel. It needs the frame split, but not started by it: where it is
    /// the first such effect, the pass that resumes the frame starts from
    /// the display image at its pixel (sharpening).
    pub hook: bool,
}

/// A pass of a [`Neighbours`] effect: a module of its own (the
/// full-screen stage, then the declarations of `fx_linear_sampler`
/// (clamping), of its reads, in order, and of
/// `fx_out`, its target, then its WGSL), run as compute: the generated
/// entry point `entry` stores `function` at every pixel of `fx_out`
/// (`crate::shaders::image_entry`), the output's size or its own.
pub struct Prepass {
    /// Its label, and its target's.
    pub name: &'static str,
    /// Its WGSL, in parts.
    pub wgsl: &'static [&'static str],
    /// Its generated compute entry point's name.
    pub entry: &'static str,
    /// `fn <function>(in: FullscreenOut) -> vec4f`: the pass at one pixel.
    pub function: &'static str,
    /// Its target's format (the output's size), one a compute pass may
    /// write (`crate::formats::is_storage`).
    pub format: wgpu::TextureFormat,
    /// Where it is a table, its size: a table reads nothing and never
    /// changes, so it is computed once per device, when a frame first
    /// needs it, and every frame samples it. Otherwise the target has the
    /// output's size and the pass runs in every frame.
    pub table: Option<(u32, u32)>,
    /// The textures it reads, by WGSL name.
    pub reads: &'static [(&'static str, Input)],
}

/// A texture a [`Neighbours`] effect's pass or function reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// The display image the composite wrote before the effect.
    Display,
    /// The target of the effect's pass at this index.
    Pass(usize),
}

/// A built-in effect's uniform block, from its Rust type.
pub struct Params {
    /// The WGSL struct, named as the Rust one.
    pub struct_name: &'static str,
    /// Its size in bytes.
    pub size: usize,
    /// Its layout, for the tests.
    #[cfg(test)]
    pub layout: fn() -> ParamsLayout,
}

impl Params {
    /// The block of `U` (declared with `uniform!`).
    pub const fn of<U: Uniform>() -> Params {
        Params {
            struct_name: U::WGSL_NAME,
            size: std::mem::size_of::<U>(),
            #[cfg(test)]
            layout: params_layout::<U>,
        }
    }
}

#[cfg(test)]
fn params_layout<U: Uniform>() -> ParamsLayout {
    (U::WGSL_NAME, std::mem::size_of::<U>(), U::offsets())
}

impl Builtin {
    /// Its WGSL function, `fx_<name>`.
    pub fn function(&self) -> String {
        format!("fx_{}", self.name)
    }

    /// The binding of its uniform block, `fx_<name>_params`.
    pub fn params_binding(&self) -> Option<Binding> {
        let p = self.params.as_ref()?;
        Some(Binding::uniform(
            format!("fx_{}_params", self.name),
            Cow::Borrowed(p.struct_name),
        ))
    }
}

/// What a binding holds.
#[derive(Clone, Debug, PartialEq)]
pub enum BindingKind {
    /// A uniform block of this WGSL struct.
    Uniform(Cow<'static, str>),
    /// A linear, filtering sampler.
    Sampler,
    /// A 2D texture, sampled with filtering.
    Texture2d,
    /// A 3D texture read with `textureLoad` (rgba32float, which WebGPU
    /// does not filter).
    Texture3d,
}

/// One binding of an effect in the composite's bind group: its WGSL name
/// and what it holds, which give its declaration and its layout entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Binding {
    pub name: Cow<'static, str>,
    pub kind: BindingKind,
}

impl Binding {
    /// A uniform block `name` of the WGSL struct `struct_name`.
    pub fn uniform(name: String, struct_name: Cow<'static, str>) -> Binding {
        Binding {
            name: name.into(),
            kind: BindingKind::Uniform(struct_name),
        }
    }

    /// The look texture `texture`, named `name`.
    pub fn look(name: &'static str, texture: LookTexture) -> Binding {
        Binding {
            name: Cow::Borrowed(name),
            kind: texture.kind(),
        }
    }

    /// Appends its WGSL declaration as binding `binding` of `group`.
    pub fn declare(&self, s: &mut String, group: u32, binding: u32) {
        let (space, ty) = match &self.kind {
            BindingKind::Uniform(name) => ("<uniform>", &**name),
            BindingKind::Sampler => ("", "sampler"),
            BindingKind::Texture2d => ("", "texture_2d<f32>"),
            BindingKind::Texture3d => ("", "texture_3d<f32>"),
        };
        let name = &self.name;
        // Writing to a String cannot fail.
        let _ = writeln!(
            s,
            "@group({group}) @binding({binding}) var{space} {name}: {ty};"
        );
    }

    /// Its entry's type in the bind group layout.
    pub fn layout(&self) -> wgpu::BindingType {
        match self.kind {
            BindingKind::Uniform(_) => UNIFORM,
            BindingKind::Sampler => FILTERING_SAMPLER,
            BindingKind::Texture2d => FILTERABLE_TEXTURE,
            BindingKind::Texture3d => wgpu::BindingType::Texture {
                sample_type: wgpu::TextureSampleType::Float { filterable: false },
                view_dimension: wgpu::TextureViewDimension::D3,
                multisampled: false,
            },
        }
    }
}

/// Appends `parts` to `s`: generated WGSL, pieced without the formatter.
pub fn push_all(s: &mut String, parts: &[&str]) {
    for p in parts {
        s.push_str(p);
    }
}
