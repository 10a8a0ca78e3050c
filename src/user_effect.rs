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
//! own ([`fused_source`]), so two effects may both define `fn effect`.

use crate::effect::{Binding, BindingKind, Place};
use crate::error::{Error, ShaderError};
use crate::gpu::{Answer, Gpu};

/// Where a user's effect runs in the composite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EffectStage {
    /// On linear HDR light (exposure and bloom applied), before the curve,
    /// after the built-in effects there (vignette, grading).
    Scene,
    /// On linear display light, after the curve and before the lookup
    /// table, the grain and the output's encoding.
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

/// How a name is refused: `name` for the effect's, the uniform's or
/// texture's path otherwise.
fn check_identifier(argument: &str, name: &str, what: &str) -> Result<(), Error> {
    let b = name.as_bytes();
    let ok = !b.is_empty()
        && b.len() <= 64
        && (b[0].is_ascii_alphabetic())
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
        && !RESERVED.contains(&name);
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

/// WGSL keywords and the names every effect's module already declares.
const RESERVED: &[&str] = &[
    "alias",
    "array",
    "bitcast",
    "bool",
    "break",
    "case",
    "const",
    "const_assert",
    "continue",
    "continuing",
    "default",
    "diagnostic",
    "discard",
    "else",
    "enable",
    "f16",
    "f32",
    "false",
    "fn",
    "for",
    "i32",
    "if",
    "let",
    "loop",
    "mat2x2f",
    "mat3x3f",
    "mat4x4f",
    "override",
    "ptr",
    "requires",
    "return",
    "sampler",
    "struct",
    "switch",
    "texture_2d",
    "true",
    "u32",
    "var",
    "vec2f",
    "vec3f",
    "vec4f",
    "while",
    "uniforms",
    "Uniforms",
    "effect",
    "time",
    "resolution",
    "effect_sampler",
    "effect_frame",
    "EffectFrame",
    "FullscreenOut",
    "vs_fullscreen",
];

/// Checks an effect's name against the names in use.
pub fn check_name(name: &str, taken: &[&str]) -> Result<(), Error> {
    check_identifier("name", name, "an effect's name")?;
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
    let toks = tokens(source);
    let binds = toks
        .windows(2)
        .any(|w| w[0].text == "@" && matches!(w[1].text, "group" | "binding"));
    if binds {
        return Err(Error::argument(
            "wgsl",
            "declares a binding (@group, @binding); an effect's values come from `uniforms` \
             (read as uniforms.<name>) and its textures from `textures` (read by their names)",
        ));
    }
    Ok(())
}

/// A token of WGSL: an identifier, a comment, blank space or one other
/// character, with its text.
struct Token<'a> {
    text: &'a str,
    ident: bool,
}

/// `source` as tokens; comments and blank space are tokens of their own
/// and are skipped by the callers that look for neighbours.
fn tokens(source: &str) -> Vec<Token<'_>> {
    let b = source.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let c = b[i];
        let ident = c.is_ascii_alphabetic() || c == b'_' || c >= 0x80;
        if ident || c.is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80) {
                i += 1;
            }
        } else if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c.is_ascii_whitespace() {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
        } else {
            i += 1;
        }
        // Never inside a character: every boundary above is an ASCII byte
        // or the end.
        let text = source.get(start..i).unwrap_or("");
        out.push(Token { text, ident });
    }
    out
}

fn blank(t: &Token<'_>) -> bool {
    t.text.starts_with(|c: char| c.is_ascii_whitespace())
        || t.text.starts_with("//")
        || t.text.starts_with("/*")
}

/// The names `source` declares at module scope (functions, structs,
/// constants, variables, aliases, overrides).
fn top_level_names<'a>(toks: &[Token<'a>]) -> Vec<&'a str> {
    let solid: Vec<&Token<'a>> = toks.iter().filter(|t| !blank(t)).collect();
    let mut names = Vec::new();
    let mut depth = 0usize;
    for (i, t) in solid.iter().enumerate() {
        match t.text {
            "{" => depth += 1,
            "}" => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth > 0 {
            continue;
        }
        let last = i.checked_sub(1).map(|k| solid[k].text);
        if t.ident
            && matches!(
                last,
                Some("fn" | "struct" | "const" | "var" | "alias" | "override")
            )
        {
            names.push(t.text);
        } else if t.text == "var" && solid.get(i + 1).is_some_and(|n| n.text == "<") {
            // `var<private> name`: the name after the address space.
            let close = solid[i..].iter().position(|n| n.text == ">").map(|k| i + k);
            if let Some(name) = close.and_then(|k| solid.get(k + 1)).filter(|n| n.ident) {
                names.push(name.text);
            }
        }
    }
    names
}

/// `source` with every use of `names` given `suffix`, except members
/// (after `.`, or declared in a struct body) and attributes.
fn renamed(source: &str, toks: &[Token<'_>], names: &[&str], suffix: &str) -> String {
    let mut out = String::with_capacity(source.len() + 64);
    let mut prev = "";
    let mut depth = 0usize;
    let mut struct_body: Option<usize> = None;
    let mut pending_struct = false;
    for (i, t) in toks.iter().enumerate() {
        if blank(t) {
            out.push_str(t.text);
            continue;
        }
        match t.text {
            "{" => {
                if pending_struct {
                    struct_body = Some(depth);
                    pending_struct = false;
                }
                depth += 1;
            }
            "}" => {
                depth = depth.saturating_sub(1);
                if struct_body == Some(depth) {
                    struct_body = None;
                }
            }
            "struct" => pending_struct = true,
            _ => {}
        }
        let next = toks[i + 1..]
            .iter()
            .find(|t| !blank(t))
            .map_or("", |t| t.text);
        let member = struct_body.is_some() && next == ":";
        if t.ident && names.contains(&t.text) && prev != "." && prev != "@" && !member {
            out.push_str(t.text);
            out.push_str(suffix);
        } else {
            out.push_str(t.text);
        }
        prev = t.text;
    }
    out
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
    format!("_fx{}", e.serial)
}

/// The module an effect is first compiled in, alone: what every effect
/// sees, its declarations, the user's WGSL, and an entry point that calls
/// `effect`. Returns it with the number of lines before the user's.
pub fn check_source(source: &str, fields: &[Field], textures: &[&str]) -> (String, usize) {
    let mut prefix = format!(
        "{}\n{}\n{}",
        crate::effect::FULLSCREEN_FOR_EFFECTS,
        crate::effect::EFFECT_PRELUDE,
        uniforms_struct(fields, "")
    );
    let shared = crate::effect::shared_bindings();
    for (i, b) in shared.iter().enumerate() {
        b.declare(&mut prefix, i as u32);
    }
    for (i, b) in bindings_of(fields, textures, "").iter().enumerate() {
        b.declare(&mut prefix, (shared.len() + i) as u32);
    }
    let lines = line_count(&prefix);
    let text = format!(
        "{prefix}{source}\n@fragment\nfn afterglow_effect_check(in: FullscreenOut) -> @location(0) vec4f {{\n    \
         return effect(vec4f(in.uv, 0.0, 1.0), in.uv);\n}}\n"
    );
    (text, lines)
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
    let suffix = suffix(e);
    let textures: Vec<&str> = e.textures.iter().map(|t| t.name.as_str()).collect();
    let toks = tokens(&e.source);
    let mut names = top_level_names(&toks);
    names.extend(["uniforms", "Uniforms"]);
    names.extend(textures.iter().copied());
    let function = format!("fx_user{}", e.serial);
    let text = format!(
        "{}{}\nfn {function}(color: vec4f, uv: vec2f) -> vec4f {{\n    return effect{suffix}(color, uv);\n}}\n",
        uniforms_struct(&e.fields, &suffix),
        renamed(&e.source, &toks, &names, &suffix),
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

/// The compilation of an effect's check module, under way.
pub struct Check {
    first_error: Answer<Option<Message>>,
    prefix_lines: usize,
}

/// Compiles `text` under a validation scope of its own, so a compile
/// error reaches neither the device's error handler nor a frame: the first
/// error, once the GPU has answered.
pub fn compile(gpu: &Gpu, label: &str, text: String) -> Answer<Option<Message>> {
    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let module = gpu.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(text.into()),
    });
    let info = module.get_compilation_info();
    let popped = scope.pop();
    Box::pin(async move {
        let info = info.await;
        let scope = popped.await;
        first_error(&info, scope.as_ref())
    })
}

/// Starts compiling `e`'s WGSL alone (see [`check_source`]).
pub fn start_check(gpu: &Gpu, e: &UserEffect) -> Check {
    let textures: Vec<&str> = e.textures.iter().map(|t| t.name.as_str()).collect();
    let (text, prefix_lines) = check_source(&e.source, &e.fields, &textures);
    Check {
        first_error: compile(gpu, "effect check", text),
        prefix_lines,
    }
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
}

/// The outcome of compiling an effect's check module (`prefix_lines`
/// before the user's text): `Ok`, or the error at its line and column in
/// the user's own WGSL (see [`user_wgsl_result`]).
pub fn compile_result(
    first_error: Option<Message>,
    source: &str,
    prefix_lines: usize,
) -> Result<(), Error> {
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
    let at = crate::passes::content::find_fn(source, name);
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
            })
        }
        (None, Some(e)) => Some(Message {
            text: e.to_string(),
            line: 0,
            column: 0,
        }),
        (None, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_level_names_are_found_and_renamed_but_not_members() {
        let src = "struct S { effect: f32, k: vec2f }\n\
                   const K = 2.0; // effect\n\
                   var<private> state: f32;\n\
                   fn helper(x: f32) -> f32 { let k = x * K; return k; }\n\
                   fn effect(color: vec4f, uv: vec2f) -> vec4f {\n\
                   var s: S; s.effect = helper(uniforms.k) + state;\n\
                   return color * s.effect * textureSampleLevel(tex, effect_sampler, uv, 0.0);\n}";
        let toks = tokens(src);
        let names = top_level_names(&toks);
        assert_eq!(names, ["S", "K", "state", "helper", "effect"]);
        let mut all = names.clone();
        all.extend(["uniforms", "tex"]);
        let out = renamed(src, &toks, &all, "_fx7");
        assert!(
            out.contains("struct S_fx7 { effect: f32, k: vec2f }"),
            "{out}"
        );
        assert!(out.contains("const K_fx7 = 2.0; // effect\n"), "{out}");
        assert!(out.contains("var<private> state_fx7: f32;"), "{out}");
        assert!(out.contains("fn helper_fx7(x: f32)"), "{out}");
        assert!(out.contains("let k = x * K_fx7;"), "{out}");
        assert!(out.contains("fn effect_fx7(color"), "{out}");
        assert!(
            out.contains("var s: S_fx7; s.effect = helper_fx7(uniforms_fx7.k) + state_fx7;"),
            "{out}"
        );
        assert!(
            out.contains("s.effect * textureSampleLevel(tex_fx7, effect_sampler"),
            "{out}"
        );
    }

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
        assert_eq!(e(check_name("1abc", &[])), "name");
        assert_eq!(e(check_name("fn", &[])), "name");
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
}
