//! `setSceneShader`: the user's WGSL is compiled while the renderer keeps
//! rendering, its compile messages are mapped back to the user's own lines,
//! and it is installed only if nothing replaced the content meanwhile.

use super::interop::{mentions, Handle};
use super::renderer::WebRenderer;
use crate::error::{Error, ShaderError};

/// A scene shader whose compilation has started.
pub struct Pending {
    shader: crate::passes::user_shader::UserShader,
    compiled: std::pin::Pin<Box<dyn std::future::Future<Output = wgpu::CompilationInfo>>>,
    scope: std::pin::Pin<Box<dyn std::future::Future<Output = Option<wgpu::Error>>>>,
    generation: u64,
    source: String,
}

/// Starts compiling `source`, synchronously: the content's generation is
/// taken now, so content set after this call (even before its promise
/// runs) wins over it.
pub fn start(handle: &Handle<WebRenderer>, source: String) -> Result<Pending, Error> {
    handle.with("setSceneShader", |r| {
        let generation = r.content.supersede();
        let scope = r.gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let shader = r.chain.prepare_shader(&r.gpu, &source);
        let compiled = Box::pin(shader.module.get_compilation_info());
        Ok(Pending {
            shader,
            compiled,
            scope: Box::pin(scope.pop()),
            generation,
            source,
        })
    })
}

/// Waits for the compilation and shows the shader, unless other content
/// came since [`start`].
pub async fn finish(handle: Handle<WebRenderer>, pending: Pending) -> Result<(), Error> {
    let info = pending.compiled.await;
    let scope_error = pending.scope.await;
    compile_result(&info, scope_error.as_ref(), &pending.source)?;
    handle.with("setSceneShader", |r| {
        r.content
            .install_shader(&r.gpu, &mut r.chain, pending.shader, pending.generation)
    })
}

/// What `str::lines().count()` says, counted over bytes: a final line
/// counts whether or not a newline ends it.
fn line_count(text: &str) -> usize {
    let newlines = text.bytes().filter(|&b| b == b'\n').count();
    newlines + usize::from(text.as_bytes().last().is_some_and(|&b| b != b'\n'))
}

/// The outcome of compiling a user's scene shader: `Ok`, or the first
/// error with its `line` and `column` in the user's own WGSL (0 when it is
/// outside of it, such as a missing `fn scene`).
pub fn compile_result(
    info: &wgpu::CompilationInfo,
    scope_error: Option<&wgpu::Error>,
    source: &str,
) -> Result<(), ShaderError> {
    let user_lines = line_count(source).max(1) as i64;
    let prefix_lines = line_count(&crate::passes::content::user_prefix()) as i64;
    let first = info
        .messages
        .iter()
        .find(|m| m.message_type == wgpu::CompilationMessageType::Error);
    let (line, column, message) = match (first, scope_error) {
        (Some(m), _) => {
            let (line, column) = m
                .location
                .map(|l| (l.line_number as i64 - prefix_lines, l.line_position as i64))
                .unwrap_or((0, 0));
            (line, column, m.message.clone())
        }
        (None, Some(e)) => (0, 0, e.to_string()),
        (None, None) => return Ok(()),
    };
    if (1..=user_lines).contains(&line) {
        Err(ShaderError::new(
            line as u32,
            column.max(0) as u32,
            &message,
        ))
    } else {
        // Outside the user's lines: afterglow's own call of fn scene (or of
        // fn emissive) failed, so the user's declaration does not match it.
        // Point at that declaration where there is one.
        let emissive = mentions(&message, "'emissive'");
        let (name, signature) = if emissive {
            ("emissive", "fn emissive(uv: vec2f, time: f32) -> vec3f")
        } else {
            ("scene", "fn scene(uv: vec2f, time: f32) -> vec4f")
        };
        let (line, column) = crate::passes::content::find_fn(source, name)
            .map(|at| line_and_column(source, at))
            .unwrap_or((0, 0));
        let hint = if line == 0 {
            "the shader must define"
        } else {
            "declare it as"
        };
        let mut error = ShaderError::new(line, column, &message);
        error.message = format!("{} ({hint} {signature})", error.message);
        Err(error)
    }
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
