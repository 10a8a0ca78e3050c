//! The app's textures (`setTexture`), and the check that they belong to
//! the renderer's device ([`TextureCheck`]).

use super::content::{AppTextures, UserResources};
use super::shared::{wrap_depth, wrap_texture};
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

/// `setTexture(scene, { bloom, depth, camera })`. Wrapping the textures
/// and binding them into the frame happens only when a texture object
/// changes; the same objects again cost nothing. A texture of another
/// device is refused by the next `render()` (see [`TextureCheck`]).
pub fn set_texture(r: &mut Parts<'_>, textures: AppTextures) -> Result<(), Error> {
    if r.content.shows_textures(&textures) {
        return set_camera(r, &textures);
    }
    let mut probes = Vec::new();
    let outer = r.gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let bound = bind_textures(r, textures, &mut probes);
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

/// The camera of the textures shown (the same objects): uniforms only. A
/// depth buffer still needs one.
pub fn set_camera(r: &mut Parts<'_>, textures: &AppTextures) -> Result<(), Error> {
    let kind = match r.chain.content() {
        crate::chain::Content::Texture(input) => input.depth.as_ref().map(|d| d.kind),
        _ => None,
    };
    let camera = camera_for(kind, textures.camera)?;
    r.chain.set_camera(r.gpu, camera);
    r.content.set_camera(camera);
    Ok(())
}

/// The camera a depth texture of `kind` is read with: a depth buffer needs
/// one; linear distances take none (as Rust's `Depth::linear`), so a
/// camera given with them is refused rather than silently not used.
fn camera_for(
    kind: Option<crate::texture_rules::DepthKind>,
    camera: Option<crate::arguments::Camera>,
) -> Result<Option<crate::arguments::Camera>, Error> {
    match (kind.map(|k| k.needs_camera()), camera) {
        (Some(true), None) => Err(Error::argument(
            "camera",
            "is needed with a depth buffer: { depth, camera: { near, far, reversedZ?, \
             orthographic? } } says how its values map to distance",
        )),
        (Some(false), Some(_)) => Err(Error::argument(
            "camera",
            "is not used with an r32float depth, which holds distances already: leave camera out",
        )),
        (Some(true), camera) => Ok(camera),
        (Some(false), None) | (None, _) => Ok(None),
    }
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

/// After textures given to `setTexture` were destroyed while set
/// (`gone` says which, by argument: `texture`, `bloom`, `depth`): without
/// its scene texture the scene is cleared; without a bloom or depth
/// texture the scene stays, bloom taken from it, or no depth of field.
pub fn drop_destroyed(r: &mut Parts<'_>, gone: impl Fn(&str) -> bool) -> Result<(), Error> {
    let kept = |argument| !gone(argument);
    let rest = match r.content.textures() {
        Some(t) if kept("texture") => AppTextures {
            scene: t.scene.clone(),
            bloom: t.bloom.clone().filter(|_| kept("bloom")),
            depth: t.depth.clone().filter(|_| kept("depth")),
            camera: t.camera.filter(|_| kept("depth")),
        },
        _ => return clear_scene(r),
    };
    // The scene was taken before; should it no longer be, it goes too.
    set_texture(r, rest).or_else(|_| clear_scene(r))
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
    textures: AppTextures,
    probes: &mut Vec<(&'static str, ErrorAnswer)>,
) -> Result<(), Error> {
    let (scene_tex, scene_view) = wrap_texture(r.gpu, &textures.scene, "texture")?;
    probes.push(("texture", r.gpu.probe_texture(&scene_view)));
    let size = (scene_tex.width(), scene_tex.height());
    let bloom_wrapped = match &textures.bloom {
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
    let depth = match &textures.depth {
        Some(d) => {
            let (input, probe) = wrap_depth(r.gpu, d, size)?;
            probes.push(("depth", probe));
            Some(input)
        }
        None => None,
    };
    let camera = camera_for(depth.as_ref().map(|d| d.kind), textures.camera)?;
    let input = crate::chain::ExternalInput {
        scene: scene_view,
        formats: (scene_tex.format(), bloom_wrapped.as_ref().map(|b| b.0)),
        bloom: bloom_wrapped.map(|b| b.1),
        size,
        depth,
    };
    r.content
        .set_textures(r.gpu, r.chain, input, AppTextures { camera, ..textures })
}
