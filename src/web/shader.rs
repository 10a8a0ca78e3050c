//! `setSceneShader`: the user's WGSL is compiled while the renderer keeps
//! rendering, its compile messages are mapped back to the user's own lines,
//! and it is installed only if nothing replaced the content meanwhile.

use super::interop::Handle;
use super::renderer::WebRenderer;
use crate::error::Error;
use crate::gpu::Gpu;
use crate::passes::content::{defines_emissive, scene_only_source, user_prefix};
use crate::user_effect::{compile, first_error, in_user_lines, line_count, user_wgsl_result};

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
/// came since [`start`]. When the error is in afterglow's call of the
/// user's functions rather than in the user's lines, the GPU is asked which
/// call: the shader is compiled again without `fn emissive`'s.
pub async fn finish(handle: Handle<WebRenderer>, pending: Pending) -> Result<(), Error> {
    let info = pending.compiled.await;
    let scope_error = pending.scope.await;
    let source = &pending.source;
    let prefix_lines = line_count(&user_prefix());
    let first = first_error(&info, scope_error.as_ref());
    let calls = first
        .as_ref()
        .is_some_and(|m| !in_user_lines(m, source, prefix_lines));
    let mut function = ("scene", "fn scene(uv: vec2f, time: f32) -> vec4f");
    if calls && defines_emissive(source) {
        let scene_alone = handle.with("setSceneShader", |r| Ok(compile_alone(&r.gpu, source)))?;
        if scene_alone.await {
            function = ("emissive", "fn emissive(uv: vec2f, time: f32) -> vec3f");
        }
    }
    user_wgsl_result(first, source, prefix_lines, function)?;
    handle.with("setSceneShader", |r| {
        r.content
            .install_shader(&r.gpu, &mut r.chain, pending.shader, pending.generation)
    })
}

/// Whether `source` compiles with afterglow's call of `fn scene` alone
/// (the GPU's answer, under a validation scope of its own).
fn compile_alone(gpu: &Gpu, source: &str) -> impl std::future::Future<Output = bool> {
    let first = compile(gpu, "scene shader check", scene_only_source(source));
    async move { first.await.is_none() }
}
