//! The app's textures (`setTexture`), and the check that they belong to
//! the renderer's device ([`TextureCheck`]).

use wasm_bindgen::prelude::*;

use super::content::UserResources;
use super::shared::wrap_texture;
use super::verdicts::{Excuse, TextureCheck};
use crate::chain::Chain;
use crate::error::Error;
use crate::gpu::{ErrorAnswer, Gpu};

/// The parts of the renderer that showing the app's textures changes.
pub struct Parts<'a> {
    pub gpu: &'a Gpu,
    pub chain: &'a mut Chain,
    pub content: &'a mut UserResources,
    pub check: &'a mut Option<TextureCheck>,
}

/// `setTexture(scene, { bloom })`. Wrapping the textures and binding them
/// into the frame happens only when a texture object changes; the same
/// objects again cost nothing. A texture of another device is refused by
/// the next `render()` (see [`TextureCheck`]).
pub fn set_texture(r: &mut Parts<'_>, scene: JsValue, bloom: Option<JsValue>) -> Result<(), Error> {
    if r.content.shows_textures(&scene, bloom.as_ref()) {
        return Ok(());
    }
    let mut probes = Vec::new();
    let outer = r.gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let bound = bind_textures(r, scene, bloom, &mut probes);
    let outer: ErrorAnswer = Box::pin(outer.pop());
    bound?;
    *r.check = Some(TextureCheck::new(Box::pin(async move {
        let mut result = Ok(());
        for (argument, probe) in probes {
            if let (Some(e), Ok(())) = (probe.await, &result) {
                result = Err(Error::argument(
                    argument,
                    format!(
                        "is not a texture of the renderer's GPUDevice (the device given to \
                         Renderer.create(canvas, {{ device }})): create it on that device. \
                         The browser says: {e}"
                    ),
                ));
            }
        }
        if let (Some(e), Ok(())) = (outer.await, &result) {
            result = Err(Error::argument(
                "texture",
                format!("could not be bound on the renderer's GPUDevice: {e}"),
            ));
        }
        result
    })));
    Ok(())
}

/// The scene after a refused texture: transparent black.
const NOTHING: &str = "fn scene(uv: vec2f, time: f32) -> vec4f { return vec4f(0.0); }";

/// What the next frame needs: `Ok(Some(excuse))` while the textures are
/// being checked (the frame runs under a [`Watch`], and its errors are
/// dropped if the textures turn out to be another device's: binding them
/// made the frame invalid), `Ok(None)` when nothing is unconfirmed, and the
/// refusal once it is known (the scene is then cleared, so that the next
/// frame renders).
pub fn frame_scope(r: &mut Parts<'_>) -> Result<Option<Excuse>, Error> {
    let Some(check) = r.check.as_ref() else {
        return Ok(None);
    };
    match check.take() {
        None => Ok(Some(check.excuse())),
        Some(Ok(())) => {
            *r.check = None;
            Ok(None)
        }
        Some(Err(e)) => {
            *r.check = None;
            clear_scene(r)?;
            Err(e)
        }
    }
}

/// Clears the scene after its texture was refused or destroyed: the next
/// frame renders transparent black.
pub fn clear_scene(r: &mut Parts<'_>) -> Result<(), Error> {
    r.content.set(
        r.gpu,
        r.chain,
        crate::chain::Content::Shader(NOTHING.into()),
    )
}

fn bind_textures(
    r: &mut Parts<'_>,
    scene: JsValue,
    bloom: Option<JsValue>,
    probes: &mut Vec<(&'static str, ErrorAnswer)>,
) -> Result<(), Error> {
    let (scene_tex, scene_view) = wrap_texture(r.gpu, &scene, "texture")?;
    probes.push(("texture", r.gpu.probe_texture(&scene_view)));
    let size = (scene_tex.width(), scene_tex.height());
    let bloom_wrapped = match &bloom {
        Some(b) => {
            let (tex, view) = wrap_texture(r.gpu, b, "bloom")?;
            probes.push(("bloom", r.gpu.probe_texture(&view)));
            if (tex.width(), tex.height()) != size {
                return Err(Error::argument(
                    "bloom",
                    format!(
                        "is {}×{} but the scene texture is {}×{}; both must have the same size",
                        tex.width(),
                        tex.height(),
                        size.0,
                        size.1
                    ),
                ));
            }
            Some((tex.format(), view))
        }
        None => None,
    };
    let input = crate::chain::ExternalInput {
        scene: scene_view,
        formats: (scene_tex.format(), bloom_wrapped.as_ref().map(|b| b.0)),
        bloom: bloom_wrapped.map(|b| b.1),
        size,
        depth: None,
    };
    r.content.set_textures(r.gpu, r.chain, input, scene, bloom)
}
