//! A user's own effect (`addEffect` in JavaScript,
//! [`crate::PostChain::add_effect`] in Rust): WGSL defining
//! `fn effect(color: vec4f, uv: vec2f) -> vec4f`, the uniforms it declared
//! and the textures it reads, fused into the composite like the built-in
//! effects (`crate::effect`).
//!
//! Everything about it is checked before the chain changes: its name, its
//! uniforms and textures (names, types), bindings it must not declare, and
//! its WGSL, compiled alone in a module of its own ([`check_source`]) so
//! that a compile error is reported at the line and column of the user's
//! own text. Fused into the composite, its top-level names are made its
//! own ([`fused_source`], `crate::wgsl::rename_top_level`), so two effects
//! may both define `fn effect`; the names it gets come from its serial,
//! never from its name, which may be any string of 1 to 64 characters.

use crate::effect::{Binding, BindingKind, Place};
use crate::error::{Error, ShaderError};
use crate::gpu::{Answer, Gpu};

/// Where a user's effect runs in the composite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EffectStage {
    /// On linear HDR light (exposure and bloom applied), before the curve,
    /// after the built-in effects there (vignette, grading). Its WGSL may
    /// read the light anywhere in the frame with `light_at(uv)`.
    Scene,
    /// On linear display light, after the curve and the anti-aliasing,
    /// before the lookup table, the grain and the output's encoding.
    Display,
}

impl EffectStage {
    pub(crate) fn place(self) -> Place {
        match self {
            EffectStage::Scene => Place::Scene,
            EffectStage::Display => Place::Display,
        }
    }

    /// `'scene'` or `'display'`.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))] // the web renderer's
    pub(crate) fn from_name(name: &str) -> Option<EffectStage> {
        match name {
            "scene" => Some(EffectStage::Scene),
            "display" => Some(EffectStage::Display),
            _ => None,
        }
    }
}

/// A value of an effect's uniform: WGSL `f32`, `vec2f`, `vec3f` or `vec4f`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum UniformValue {
    F32(f32),
    Vec2([f32; 2]),
    Vec3([f32; 3]),
    Vec4([f32; 4]),
}

impl UniformValue {
    fn floats(&self) -> &[f32] {
        match self {
            UniformValue::F32(x) => std::slice::from_ref(x),
            UniformValue::Vec2(v) => v,
            UniformValue::Vec3(v) => v,
            UniformValue::Vec4(v) => v,
        }
    }

    /// Its WGSL type, its size and its alignment in a uniform block.
    fn wgsl(components: usize) -> (&'static str, usize, usize) {
        match components {
            1 => ("f32", 4, 4),
            2 => ("vec2f", 8, 8),
            3 => ("vec3f", 12, 16),
            _ => ("vec4f", 16, 16),
        }
    }

    /// `a number`, `an array of 3 numbers`.
    fn describe(components: usize) -> String {
        match components {
            1 => "a number".into(),
            n => format!("an array of {n} numbers"),
        }
    }
}

/// A uniform as the effect declared it: its name, its number of
/// components and its byte offset in the block.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub name: String,
    pub components: usize,
    pub offset: usize,
}

/// A texture an effect reads, as the frame binds it.
#[derive(Clone, Debug)]
pub struct EffectTexture {
    /// Its WGSL name (a `texture_2d<f32>`).
    pub name: String,
    pub view: wgpu::TextureView,
    pub format: wgpu::TextureFormat,
    pub size: (u32, u32),
    /// Made by afterglow (an uploaded image): released with the effect.
    pub own: Option<wgpu::Texture>,
}

/// A user's effect, checked, with its uniform buffer.
pub struct UserEffect {
    /// The caller's name for it (see [`check_name`]); no WGSL sees it.
    pub name: String,
    /// Unique among the effects a chain ever had: its WGSL names end in
    /// `_fx<serial>`.
    pub serial: u64,
    pub stage: EffectStage,
    /// The user's WGSL as given.
    pub source: String,
    pub fields: Vec<Field>,
    /// The uniform block: its bytes, written into `buffer` (none without
    /// uniforms).
    pub values: Vec<u8>,
    pub buffer: Option<wgpu::Buffer>,
    pub textures: Vec<EffectTexture>,
}

/// The most uniforms and textures an effect may declare: what fits in the
/// composite's one bind group on any device, beside the built-ins'.
pub const MAX_UNIFORMS: usize = 16;
pub const MAX_TEXTURES: usize = 4;

/// Checks a uniform's or texture's name, which the effect's WGSL reads:
/// a WGSL identifier of ASCII letters, digits and `_`; `argument` is the
/// uniform's or texture's path.
fn check_identifier(argument: &str, name: &str, what: &str) -> Result<(), Error> {
    let b = name.as_bytes();
    let ok = !b.is_empty()
        && b.len() <= 64
        && (b[0].is_ascii_alphabetic())
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
        && !RESERVED.split(' ').any(|w| w == name);
    if ok {
        Ok(())
    } else {
        Err(Error::argument(
            argument,
            format!(
                "is '{name}'; {what} is a letter followed by letters, digits and '_' (at most 64), \
                 and not a WGSL keyword"
            ),
        ))
    }
}

/// WGSL keywords and the names every effect's module already declares,
/// between spaces (one string: smaller than a table of them). An
/// effect's uniforms and textures may not be named so.
const RESERVED: &str = "alias array bitcast bool break case const const_assert continue \
    continuing default diagnostic discard else enable f16 f32 false fn for i32 if let loop \
    mat2x2f mat3x3f mat4x4f override ptr requires return sampler struct switch texture_2d true \
    u32 var vec2f vec3f vec4f while uniforms Uniforms effect time resolution effect_sampler \
    effect_frame EffectFrame FullscreenOut vs_fullscreen texel light_at";

/// The most characters (Unicode scalar values) an effect's name has.
pub const MAX_NAME_CHARS: usize = 64;

/// Checks an effect's name, any string of 1 to [`MAX_NAME_CHARS`]
/// characters (`'film-look'`, `'Tint 2'`), against the names in use.
pub fn check_name(name: &str, taken: &[&str]) -> Result<(), Error> {
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
        return Err(Error::argument(
            "name",
            "must be any string of 1 to 64 characters ('film-look', 'Tint 2')",
        ));
    }
    if taken.contains(&name) {
        return Err(Error::argument(
            "name",
            format!(
                "is '{name}', which is already an effect; remove it first or choose another name"
            ),
        ));
    }
    Ok(())
}

/// The uniform block of `uniforms` (WGSL layout rules), with its values.
pub fn layout(uniforms: &[(String, UniformValue)]) -> Result<(Vec<Field>, Vec<u8>), Error> {
    if uniforms.len() > MAX_UNIFORMS {
        return Err(Error::argument(
            "uniforms",
            format!(
                "has {} entries; an effect may declare at most {MAX_UNIFORMS}",
                uniforms.len()
            ),
        ));
    }
    let mut fields: Vec<Field> = Vec::new();
    let mut end = 0usize;
    for (name, value) in uniforms {
        check_identifier(&format!("uniforms.{name}"), name, "a uniform's name")?;
        let components = value.floats().len();
        let (_, size, align) = UniformValue::wgsl(components);
        let offset = end.div_ceil(align) * align;
        end = offset + size;
        fields.push(Field {
            name: name.clone(),
            components,
            offset,
        });
    }
    let mut bytes = vec![0u8; end.div_ceil(16) * 16];
    for ((name, value), field) in uniforms.iter().zip(&fields) {
        write_value(&mut bytes, field, name, value)?;
    }
    Ok((fields, bytes))
}

/// Writes `value` into the block at `field`'s offset; refused when it is
/// not finite or not of the declared type.
fn write_value(
    bytes: &mut [u8],
    field: &Field,
    name: &str,
    value: &UniformValue,
) -> Result<(), Error> {
    let floats = value.floats();
    if floats.len() != field.components {
        return Err(Error::argument(
            &format!("uniforms.{name}"),
            format!(
                "was declared as {} and cannot take {}",
                UniformValue::describe(field.components),
                UniformValue::describe(floats.len())
            ),
        ));
    }
    if let Some(bad) = floats.iter().find(|x| !x.is_finite()) {
        return Err(Error::argument(
            &format!("uniforms.{name}"),
            format!(
                "must be finite, got {}",
                crate::options::value::format_number(f64::from(*bad))
            ),
        ));
    }
    let at = field.offset;
    bytes[at..at + 4 * floats.len()].copy_from_slice(bytemuck::cast_slice(floats));
    Ok(())
}

impl UserEffect {
    /// New values for some of the effect's uniforms: all are checked
    /// before any is written.
    pub fn set_uniforms(&mut self, values: &[(String, UniformValue)]) -> Result<(), Error> {
        let mut bytes = self.values.clone();
        for (name, value) in values {
            let field = self
                .fields
                .iter()
                .find(|f| f.name == *name)
                .ok_or_else(|| {
                    let declared: Vec<&str> = self.fields.iter().map(|f| f.name.as_str()).collect();
                    Error::argument(
                        &format!("uniforms.{name}"),
                        format!(
                            "is not a uniform of effect '{}'; it declared {}",
                            self.name,
                            if declared.is_empty() {
                                "none".to_string()
                            } else {
                                crate::options::value::quote_list(&declared)
                            }
                        ),
                    )
                })?;
            write_value(&mut bytes, field, name, value)?;
        }
        self.values = bytes;
        Ok(())
    }
}

/// Checks what an effect declares besides its uniforms: its textures'
/// names, and no bindings of its own in the WGSL.
pub fn check_declarations(
    source: &str,
    textures: &[&str],
    uniforms: &[Field],
) -> Result<(), Error> {
    if textures.len() > MAX_TEXTURES {
        return Err(Error::argument(
            "textures",
            format!(
                "has {} entries; an effect may read at most {MAX_TEXTURES}",
                textures.len()
            ),
        ));
    }
    for (i, name) in textures.iter().enumerate() {
        check_identifier(&format!("textures.{name}"), name, "a texture's name")?;
        if textures[..i].contains(name) || uniforms.iter().any(|f| f.name == *name) {
            return Err(Error::argument(
                &format!("textures.{name}"),
                "is declared twice (as a texture and a uniform, or twice as a texture)",
            ));
        }
    }
    if crate::wgsl::has_attribute(source, &["group", "binding"]) {
        return Err(Error::argument(
            "wgsl",
            "declares a binding (@group, @binding); an effect's values come from `uniforms` \
             (read as uniforms.<name>) and its textures from `textures` (read by their names)",
        ));
    }
    Ok(())
}

/// The struct of an effect's uniform block (nothing without uniforms),
/// with `suffix` on its name.
fn uniforms_struct(fields: &[Field], suffix: &str) -> String {
    use crate::effect::push_all;
    let mut s = String::new();
    if !fields.is_empty() {
        push_all(&mut s, &["struct Uniforms", suffix, " {\n"]);
        for f in fields {
            push_all(
                &mut s,
                &[
                    "    ",
                    &f.name,
                    ": ",
                    UniformValue::wgsl(f.components).0,
                    ",\n",
                ],
            );
        }
        s.push_str("}\n");
    }
    s
}

/// The bindings of an effect's uniform block (none without uniforms), then
/// of its textures, with `suffix` on their names.
fn bindings_of(fields: &[Field], textures: &[&str], suffix: &str) -> Vec<Binding> {
    let mut out = Vec::new();
    if !fields.is_empty() {
        out.push(Binding::uniform(
            format!("uniforms{suffix}"),
            format!("Uniforms{suffix}").into(),
        ));
    }
    for name in textures {
        out.push(Binding {
            name: format!("{name}{suffix}").into(),
            kind: BindingKind::Texture2d,
        });
    }
    out
}

/// The effect's bindings in the composite, as its fused WGSL names them
/// ([`fused_source`]): its uniform block (none without uniforms), then its
/// textures.
pub fn bindings(e: &UserEffect) -> Vec<Binding> {
    let textures: Vec<&str> = e.textures.iter().map(|t| t.name.as_str()).collect();
    bindings_of(&e.fields, &textures, &suffix(e))
}

/// What ends the effect's names in the composite: `_fx<serial>`.
fn suffix(e: &UserEffect) -> String {
    crate::wgsl::rename_suffix(e.serial)
}

/// `light_at(uv)` of an effect in the `'scene'` stage: the scene's light
/// and coverage at any point, as the stage sees it at its own pixel
/// (`fx_light_at` in the composite).
pub const LIGHT_AT: &str = "fn light_at(uv: vec2f) -> vec4f {\n    return fx_light_at(uv);\n}\n";

/// `light_at` where an effect is compiled alone, with no composite.
const LIGHT_AT_ALONE: &str =
    "fn light_at(uv: vec2f) -> vec4f {\n    return vec4f(uv, 0.0, 1.0);\n}\n";

/// `texel()`: one output pixel in uv, for every effect.
pub const TEXEL: &str = "fn texel() -> vec2f {\n    return 1.0 / effect_frame.resolution;\n}\n";

/// What an effect of `stage` whose WGSL is `source` sees besides what
/// every effect sees: `texel()`, and `light_at` in the scene stage, each
/// unless it declares that name itself (its own then stands; fused, its
/// names are its own anyway).
fn stage_declarations(source: &str, stage: EffectStage) -> String {
    let solid = crate::wgsl::lex::solid(source);
    let own = crate::wgsl::top_level_names(&solid);
    let mut s = String::new();
    if !own.contains(&"texel") {
        s.push_str(TEXEL);
    }
    if stage == EffectStage::Scene && !own.contains(&"light_at") {
        s.push_str(LIGHT_AT_ALONE);
    }
    s
}

/// The module an effect is first compiled in, alone: what every effect
/// sees, what its stage sees, its declarations, the user's WGSL, and an
/// entry point that calls `effect`. Returns it with the number of lines
/// before the user's.
pub fn check_source(
    source: &str,
    stage: EffectStage,
    fields: &[Field],
    textures: &[&str],
) -> (String, usize) {
    let declarations = format!(
        "{}{}",
        stage_declarations(source, stage),
        uniforms_struct(fields, "")
    );
    check_module(
        &bindings_of(fields, textures, ""),
        &declarations,
        source,
        "effect",
    )
}

/// An effect in the `'display'` stage that reads `light_at`, which only
/// the `'scene'` stage has: a [`ShaderError`] where it does.
fn check_stage(source: &str, stage: EffectStage) -> Result<(), Error> {
    if stage != EffectStage::Display {
        return Ok(());
    }
    let solid = crate::wgsl::lex::solid(source);
    if crate::wgsl::top_level_names(&solid).contains(&"light_at") {
        return Ok(());
    }
    match crate::wgsl::find_call(source, "light_at") {
        Some(at) => {
            let (line, column) = line_and_column(source, at);
            Err(Error::Shader(ShaderError::new(
                line,
                column,
                "light_at is only in the 'scene' stage, before the curve: this effect's stage \
                 is 'display' (stage: 'scene' to read the light around a pixel)",
            )))
        }
        None => Ok(()),
    }
}

/// What every effect sees, the declarations of `bindings` after the
/// shared ones, `declarations`, `source`, and an entry point that calls
/// `function` as the composite calls an effect; with the number of lines
/// before `source`.
fn check_module(
    bindings: &[Binding],
    declarations: &str,
    source: &str,
    function: &str,
) -> (String, usize) {
    let mut prefix = format!(
        "{}\n{}\n{declarations}",
        crate::effect::FULLSCREEN_FOR_EFFECTS,
        crate::effect::EFFECT_PRELUDE,
    );
    let shared = crate::effect::shared_bindings();
    for (i, b) in shared.iter().enumerate() {
        b.declare(&mut prefix, 0, i as u32);
    }
    for (i, b) in bindings.iter().enumerate() {
        b.declare(&mut prefix, 0, (shared.len() + i) as u32);
    }
    let lines = line_count(&prefix);
    let text = format!(
        "{prefix}{source}\n@fragment\nfn afterglow_effect_check(in: FullscreenOut) -> @location(0) vec4f {{\n    \
         return {function}(vec4f(in.uv, 0.0, 1.0), in.uv);\n}}\n"
    );
    (text, lines)
}

/// The effect as the composite has it ([`fused_source`]), in a module
/// with what every effect sees: the part of the composite that fusing
/// makes. Its other names cannot meet the effect's, which all end in the
/// effect's own suffix.
pub fn fused_check_source(e: &UserEffect) -> String {
    let (part, function) = fused_source(e);
    // Fused, its names are suffixed: what every effect sees stands.
    let stage = if e.stage == EffectStage::Scene {
        LIGHT_AT_ALONE
    } else {
        ""
    };
    check_module(&bindings(e), &format!("{TEXEL}{stage}"), &part, &function).0
}

/// Lines of `text` as `str::lines` counts them (a final line counts
/// whether or not a newline ends it).
pub fn line_count(text: &str) -> usize {
    let newlines = text.bytes().filter(|&b| b == b'\n').count();
    newlines + usize::from(text.as_bytes().last().is_some_and(|&b| b != b'\n'))
}

/// The effect's part of the composite's module after the declarations of
/// its [`bindings`]: its uniform struct and WGSL with its names made its
/// own, and `fn fx_user<serial>` calling its `effect`. Returns the WGSL and
/// the function's name.
pub fn fused_source(e: &UserEffect) -> (String, String) {
    let textures: Vec<&str> = e.textures.iter().map(|t| t.name.as_str()).collect();
    fused_parts(&e.source, &e.fields, &textures, e.serial)
}

/// [`fused_source`] of an effect's WGSL, uniforms and textures' names.
fn fused_parts(source: &str, fields: &[Field], textures: &[&str], serial: u64) -> (String, String) {
    let suffix = crate::wgsl::rename_suffix(serial);
    let mut names = vec!["uniforms", "Uniforms"];
    names.extend_from_slice(textures);
    let function = format!("fx_user{serial}");
    let text = format!(
        "{}{}\nfn {function}(color: vec4f, uv: vec2f) -> vec4f {{\n    return effect{suffix}(color, uv);\n}}\n",
        uniforms_struct(fields, &suffix),
        crate::wgsl::rename_top_level(source, &names, serial),
    );
    (text, function)
}

/// An effect as the caller gave it, its textures already checked.
pub struct EffectSpec {
    pub name: String,
    pub stage: EffectStage,
    pub wgsl: String,
    pub uniforms: Vec<(String, UniformValue)>,
    pub textures: Vec<EffectTexture>,
}

/// Checks everything about `spec` but its WGSL's compilation, against
/// the names of the effects in use (`taken`), and makes its uniform
/// buffer.
pub fn make(gpu: &Gpu, spec: EffectSpec, serial: u64, taken: &[&str]) -> Result<UserEffect, Error> {
    check_name(&spec.name, taken)?;
    check_stage(&spec.wgsl, spec.stage)?;
    let (fields, values) = layout(&spec.uniforms)?;
    let textures: Vec<&str> = spec.textures.iter().map(|t| t.name.as_str()).collect();
    check_declarations(&spec.wgsl, &textures, &fields)?;
    let buffer = (!fields.is_empty()).then(|| {
        let buffer = gpu.create_buffer(&wgpu::BufferDescriptor {
            label: Some("effect uniforms"),
            size: values.len() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        gpu.queue.write_buffer(&buffer, 0, &values);
        buffer
    });
    Ok(UserEffect {
        name: spec.name,
        serial,
        stage: spec.stage,
        source: spec.wgsl,
        fields,
        values,
        buffer,
        textures: spec.textures,
    })
}

/// The compilation of an effect's check module and of the effect fused,
/// under way.
pub struct Check {
    first_error: Answer<Option<Message>>,
    prefix_lines: usize,
}

/// Compiles `text` under a validation scope of its own, so a compile
/// error reaches neither the device's error handler nor a frame: the first
/// error, once the GPU has answered.
pub fn compile(gpu: &Gpu, label: &str, text: String) -> Answer<Option<Message>> {
    compile_with(gpu, label, text, None)
}

/// [`compile`], and `also` compiled under the same scope: its errors are
/// the scope's alone ([`Message::scope_only`]).
fn compile_with(
    gpu: &Gpu,
    label: &str,
    text: String,
    also: Option<String>,
) -> Answer<Option<Message>> {
    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let module = gpu.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(text.into()),
    });
    let info = module.get_compilation_info();
    if let Some(also) = also {
        gpu.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("effect fused check"),
            source: wgpu::ShaderSource::Wgsl(also.into()),
        });
    }
    let popped = scope.pop();
    Box::pin(async move {
        let info = info.await;
        let scope = popped.await;
        first_error(&info, scope.as_ref())
    })
}

/// Starts compiling `e`'s WGSL alone (see [`check_source`]), and fused
/// ([`fused_check_source`]) under the same scope: an error of the fused
/// module alone, the WGSL having compiled alone, is afterglow's.
pub fn start_check(gpu: &Gpu, e: &UserEffect) -> Check {
    let textures: Vec<&str> = e.textures.iter().map(|t| t.name.as_str()).collect();
    let (text, prefix_lines) = check_source(&e.source, e.stage, &e.fields, &textures);
    Check {
        first_error: compile_with(gpu, "effect check", text, Some(fused_check_source(e))),
        prefix_lines,
    }
}

/// Creates the composite's module with its effects fused in under a
/// validation scope of its own, so that a module that does not compile (a
/// bug in the fusing: each effect compiled alone and fused before it was
/// added, see [`start_check`]) is an error of the frame, not an
/// uncaptured GPU error. Natively wgpu has answered when this returns.
pub fn fused_module(gpu: &Gpu, text: String) -> Result<wgpu::ShaderModule, Error> {
    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let module = gpu.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("composite shader"),
        source: wgpu::ShaderSource::Wgsl(text.into()),
    });
    // A browser answers later: each effect was compiled fused when it was
    // added (`start_check`).
    let popped = scope.pop();
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(Some(e)) = answer_now(popped) {
        return Err(fusing_error(&e.to_string()));
    }
    #[cfg(target_arch = "wasm32")]
    drop(popped);
    Ok(module)
}

/// A composite that does not compile with effects that do alone.
fn fusing_error(compiler_message: &str) -> Error {
    Error::Shader(ShaderError::new(
        0,
        0,
        &format!(
            "fusing it into the composite failed, a bug in afterglow (please report it \
             with the effect's WGSL): {compiler_message}"
        ),
    ))
}

/// The answer of a future the GPU may have given already (natively it
/// has: wgpu answers on the calling thread); `None` in a browser, which
/// answers later.
pub fn answer_now<T>(future: impl std::future::Future<Output = T>) -> Option<T> {
    let mut future = std::pin::pin!(future);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match std::future::Future::poll(future.as_mut(), &mut cx) {
        std::task::Poll::Ready(r) => Some(r),
        std::task::Poll::Pending => None,
    }
}

impl Check {
    /// Waits for the answer: `Ok`, or the error in the user's WGSL.
    pub async fn result(self, source: &str) -> Result<(), Error> {
        compile_result(self.first_error.await, source, self.prefix_lines)
    }

    /// The answer if the GPU has given it already (see [`answer_now`]).
    pub fn now(self, source: &str) -> Option<Result<(), Error>> {
        answer_now(self.result(source))
    }
}

/// A compile message of the check module.
pub struct Message {
    pub text: String,
    /// Line and column in the check module (1-based; 0 when unknown).
    pub line: usize,
    pub column: usize,
    /// Reported by the validation scope alone, not by the module's
    /// compilation messages: another module's made under the scope.
    pub scope_only: bool,
}

/// The outcome of compiling an effect's check module (`prefix_lines`
/// before the user's text): `Ok`, or the error at its line and column in
/// the user's own WGSL (see [`user_wgsl_result`]).
pub fn compile_result(
    first_error: Option<Message>,
    source: &str,
    prefix_lines: usize,
) -> Result<(), Error> {
    if let Some(m) = first_error.as_ref().filter(|m| m.scope_only) {
        // The fused module's: the effect's WGSL compiled alone.
        return Err(fusing_error(&m.text));
    }
    let signature = "fn effect(color: vec4f, uv: vec2f) -> vec4f";
    user_wgsl_result(first_error, source, prefix_lines, ("effect", signature))
        .map_err(Error::Shader)
}

/// The outcome of compiling a module made of `prefix_lines` lines of
/// afterglow's, the user's `source`, and afterglow's call of the user's
/// function (`function`: its name and the signature afterglow calls it
/// with): `Ok`, or the first error at its line and column in the user's
/// own text. An error outside it is the call's: the user's declaration
/// does not match it, so the error points at that declaration (0, 0 when
/// there is none) and says the signature to use.
pub fn user_wgsl_result(
    first_error: Option<Message>,
    source: &str,
    prefix_lines: usize,
    function: (&str, &str),
) -> Result<(), ShaderError> {
    let Some(m) = first_error else { return Ok(()) };
    let user_lines = line_count(source).max(1);
    let line = m
        .line
        .checked_sub(prefix_lines)
        .filter(|l| (1..=user_lines).contains(l));
    if let Some(line) = line {
        return Err(ShaderError::new(line as u32, m.column as u32, &m.text));
    }
    let (name, signature) = function;
    let at = crate::wgsl::find_fn(source, name);
    let (line, column) = at.map_or((0, 0), |at| line_and_column(source, at));
    let hint = if at.is_some() {
        "declare it as"
    } else {
        "the shader must define"
    };
    let mut error = ShaderError::new(line, column, &m.text);
    error.message = format!("{} ({hint} {signature})", error.message);
    Err(error)
}

/// Whether the first error is on one of the user's lines.
pub fn in_user_lines(m: &Message, source: &str, prefix_lines: usize) -> bool {
    m.line
        .checked_sub(prefix_lines)
        .is_some_and(|l| (1..=line_count(source).max(1)).contains(&l))
}

/// The 1-based line and column (in bytes) of byte offset `at` in `text`.
fn line_and_column(text: &str, at: usize) -> (u32, u32) {
    let before = &text.as_bytes()[..at];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    (line as u32, (at - start + 1) as u32)
}

/// The first error of a compilation, as a [`Message`]; else the error
/// the validation scope caught.
pub fn first_error(info: &wgpu::CompilationInfo, scope: Option<&wgpu::Error>) -> Option<Message> {
    let first = info
        .messages
        .iter()
        .find(|m| m.message_type == wgpu::CompilationMessageType::Error);
    match (first, scope) {
        (Some(m), _) => {
            let (line, column) = m.location.map_or((0, 0), |l| {
                (l.line_number as usize, l.line_position as usize)
            });
            Some(Message {
                text: m.message.clone(),
                line,
                column,
                scope_only: false,
            })
        }
        (None, Some(e)) => Some(Message {
            text: e.to_string(),
            line: 0,
            column: 0,
            scope_only: true,
        }),
        (None, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniforms_are_laid_out_as_wgsl_does() {
        let (fields, bytes) = layout(&[
            ("a".into(), UniformValue::F32(1.0)),
            ("b".into(), UniformValue::Vec3([2.0, 3.0, 4.0])),
            ("c".into(), UniformValue::Vec2([5.0, 6.0])),
            ("d".into(), UniformValue::F32(7.0)),
        ])
        .unwrap();
        let offsets: Vec<usize> = fields.iter().map(|f| f.offset).collect();
        assert_eq!(offsets, [0, 16, 32, 40]);
        assert_eq!(bytes.len(), 48);
        let floats: &[f32] = bytemuck::cast_slice(&bytes);
        assert_eq!(floats[4..7], [2.0, 3.0, 4.0]);
        assert_eq!(floats[10], 7.0);
    }

    #[test]
    fn bad_names_and_values_are_refused_by_name() {
        let e = |r: Result<(), Error>| match r {
            Err(Error::Argument(a)) => a.argument,
            other => panic!("{other:?}"),
        };
        assert_eq!(e(check_name("tint", &["tint"])), "name");
        assert!(check_name("tint", &["other"]).is_ok());
        let bad = layout(&[("x y".into(), UniformValue::F32(1.0))]).map(|_| ());
        assert_eq!(e(bad), "uniforms.x y");
        let nan = layout(&[("k".into(), UniformValue::F32(f32::NAN))]).map(|_| ());
        assert_eq!(e(nan), "uniforms.k");
        assert_eq!(
            e(check_declarations(
                "@group(0) @binding(0) var t: texture_2d<f32>;",
                &[],
                &[]
            )),
            "wgsl"
        );
        assert_eq!(e(check_declarations("", &["t", "t"], &[])), "textures.t");
    }

    #[test]
    fn an_effects_name_is_any_string_of_1_to_64_characters() {
        let (long, long_wide) = ("x".repeat(64), "é".repeat(64));
        let fine = [
            "film-look",
            "Tint 2",
            "1abc",
            "fn",
            "effect",
            "✓ ünïcödé",
            "a\u{2028}b",
            &long,
            &long_wide,
        ];
        for name in fine {
            assert!(check_name(name, &["other"]).is_ok(), "{name}");
        }
        let (over, over_wide) = ("x".repeat(65), "é".repeat(65));
        for bad in ["", over.as_str(), over_wide.as_str()] {
            match check_name(bad, &[]) {
                Err(Error::Argument(a)) => {
                    assert_eq!(a.argument, "name");
                    assert!(
                        a.message.contains("any string of 1 to 64 characters"),
                        "{}",
                        a.message
                    );
                }
                other => panic!("{bad}: {other:?}"),
            }
        }
        match check_name("film-look", &["film-look"]) {
            Err(Error::Argument(a)) => {
                assert!(a.message.contains("already an effect"), "{}", a.message)
            }
            other => panic!("{other:?}"),
        }
    }

    /// A composite that does not compile with an effect that does alone is
    /// a `ShaderError` that says whose bug it is.
    #[test]
    fn a_fusing_failure_is_a_shader_error_of_afterglows() {
        match fusing_error("no definition in scope for identifier: `k_fx3`") {
            Error::Shader(e) => {
                assert_eq!((e.line, e.column), (0, 0));
                assert!(
                    e.message.contains("a bug in afterglow") && e.message.contains("`k_fx3`"),
                    "{e}"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    /// Fusing, checked by naga (a native dev-dependency).
    #[cfg(not(target_arch = "wasm32"))]
    mod fused {
        use super::*;

        /// An effect's WGSL compiled by naga as the composite's module is.
        fn naga_check(what: &str, text: &str) {
            let module = naga::front::wgsl::parse_str(text)
                .unwrap_or_else(|e| panic!("{what}: {}\n{text}", e.emit_to_string(text)));
            let flags = naga::valid::ValidationFlags::all();
            naga::valid::Validator::new(flags, naga::valid::Capabilities::empty())
                .validate(&module)
                .unwrap_or_else(|e| panic!("{what}: {}\n{text}", e.emit_to_string(text)));
        }

        /// A user's effect as the chain keeps it, without GPU resources (none
        /// of the fusing reads them).
        fn effect(serial: u64, source: &str, uniforms: &[(&str, UniformValue)]) -> UserEffect {
            let uniforms: Vec<(String, UniformValue)> =
                uniforms.iter().map(|(n, v)| (n.to_string(), *v)).collect();
            let (fields, values) = layout(&uniforms).unwrap();
            UserEffect {
                name: format!("effect {serial}"),
                serial,
                stage: if serial % 2 == 0 {
                    EffectStage::Display
                } else {
                    EffectStage::Scene
                },
                source: source.into(),
                fields,
                values,
                buffer: None,
                textures: Vec::new(),
            }
        }

        /// Awkward effects: each compiles alone, as `addEffect` checks it.
        const CORPUS: &[&str] = &[
            // Attributes whose arguments are WGSL's own names, beside
            // constants named like them, and attributes of functions.
            "const position = 0.5;\nconst flat = 2u;\nconst ALIGN = 16;\n\
             struct Varying { @builtin(position) p: vec4f, @location(0) @interpolate(flat) k: u32, @align(ALIGN) w: f32, position: f32 }\n\
             @must_use fn scale(x: f32) -> f32 { return x * position * f32(flat); }\n\
             @diagnostic(off, derivative_uniformity) fn effect(color: vec4f, uv: vec2f) -> vec4f {\n\
             var v: Varying; v.w = scale(color.r); v.position = v.w; v.p = vec4f(v.position); return vec4f(v.p.xyz, color.a);\n}",
            // Nested comments hiding declarations, and a line comment ended
            // by U+2028 with code after it on the same line of `\n`s.
            "/* fn effect( /* nested */ fn helper() */\n// fn effect(color: vec4f) {\n\
             const K = 0.5; // a comment\u{2028}const J = 0.25;\n\
             fn effect(color: vec4f, uv: vec2f) -> vec4f { return color * K + J; /* } */ }",
            // Non-ASCII identifiers and every WGSL blank character.
            "const Δ = 0.25;\nfn éclat(c: vec3f) -> vec3f { return c * (1.0 + Δ); }\n\
             fn\u{2028}effect(\u{85}color: vec4f,\u{200e}uv: vec2f\u{200f}) -> vec4f\u{2029}{\n\
             let naïve = éclat(color.rgb);\u{b}return vec4f(naïve, color.a);\u{c}}\r\n",
            // Shadowed names: locals and parameters named like the effect's
            // own top-level names, and locals named like what renaming makes
            // of them (this effect is fused with serials 4 and 13 below).
            "const k = 0.5;\nfn helper(k: f32) -> f32 { return k * 2.0; }\n\
             fn effect(color: vec4f, uv: vec2f) -> vec4f {\n\
             let helper_fx4 = 0.5; let k_fx13 = vec2f(0.25); var effect = color; \
             { let k = 3.0; effect.r = effect.r * k; }\n\
             return effect * helper(k) * helper_fx4 * k_fx13.x * k;\n}",
            // A helper named like a built-in function, which the composite's
            // own WGSL calls too; names like the composite's short names.
            "fn smoothstep(x: f32) -> f32 { return x * x; }\nconst a = 1.0;\nfn b(x: f32) -> f32 { return x + a; }\n\
             fn effect(color: vec4f, uv: vec2f) -> vec4f { return vec4f(smoothstep(color.r), b(color.g), color.b, color.a); }",
            // Uniforms named like WGSL's own names and members, aliases,
            // overrides, structs, private variables.
            "alias V = vec4f;\nstruct Uniforms2 { position: f32 }\noverride gain: f32 = 1.0;\nvar<private> seen: f32;\n\
             fn effect(color: vec4f, uv: vec2f) -> V { seen = uniforms.position * gain; \
             let u = Uniforms2(uniforms.flat.x); return V(color.rgb * seen * u.position, color.a); }",
        ];

        const CORPUS_UNIFORMS: &[(&str, UniformValue)] = &[
            ("position", UniformValue::F32(1.0)),
            ("flat", UniformValue::Vec2([1.0, 2.0])),
        ];

        /// Every built-in effect and every corpus effect, fused into one
        /// composite in every pairing (two effects with the same helper names
        /// included), validated by naga.
        #[test]
        fn awkward_effects_fuse_into_a_composite_naga_accepts() {
            use crate::passes::composite::{all_builtins, fused_source, plan, Active};
            let builtins = all_builtins();
            naga_check(
                "every built-in effect",
                &fused_source(&builtins, &plan(&builtins), None),
            );
            let uniforms = |i: usize| if i == 5 { CORPUS_UNIFORMS } else { &[] };
            for (i, source) in CORPUS.iter().enumerate() {
                let (alone, _) = check_source(
                    source,
                    EffectStage::Scene,
                    &effect(0, source, uniforms(i)).fields,
                    &[],
                );
                naga_check(&format!("corpus effect {i} alone"), &alone);
                let fused = fused_check_source(&effect(7, source, uniforms(i)));
                naga_check(
                    &format!("corpus effect {i} fused with what every effect sees"),
                    &fused,
                );
            }
            for (i, a) in CORPUS.iter().enumerate() {
                for (j, b) in CORPUS.iter().enumerate() {
                    let (first, second) = (
                        effect(1 + i as u64, a, uniforms(i)),
                        effect(10 + j as u64, b, uniforms(j)),
                    );
                    let mut all = builtins.clone();
                    all.extend([Active::User(&first), Active::User(&second)]);
                    naga_check(
                        &format!("corpus effects {i} and {j} with every built-in"),
                        &fused_source(&all, &plan(&all), None),
                    );
                }
            }
        }

        /// An effect's textures are declared and renamed with it.
        #[test]
        fn an_effects_textures_are_its_own_in_the_composite() {
            let source = "fn effect(color: vec4f, uv: vec2f) -> vec4f {\n\
                          return color * textureSampleLevel(mask, effect_sampler, uv, 0.0) * uniforms.k;\n}";
            let (fields, _) = layout(&[("k".into(), UniformValue::F32(1.0))]).unwrap();
            let mut text = format!(
                "{}\n{}\n",
                crate::effect::FULLSCREEN_FOR_EFFECTS,
                crate::effect::EFFECT_PRELUDE
            );
            let shared = crate::effect::shared_bindings();
            for (i, b) in shared.iter().enumerate() {
                b.declare(&mut text, 0, i as u32);
            }
            let mut next = shared.len() as u32;
            for serial in [3, 4] {
                for b in bindings_of(&fields, &["mask"], &crate::wgsl::rename_suffix(serial)) {
                    b.declare(&mut text, 0, next);
                    next += 1;
                }
                let (part, function) = fused_parts(source, &fields, &["mask"], serial);
                assert!(
                    part.contains(&format!(
                        "textureSampleLevel(mask_fx{serial}, effect_sampler"
                    )),
                    "{part}"
                );
                text.push_str(&part);
                text.push_str(&format!(
                    "fn call{serial}() -> vec4f {{ return {function}(vec4f(1.0), vec2f(0.5)); }}\n"
                ));
            }
            naga_check("two effects reading a texture of the same name", &text);
        }
    }
}
