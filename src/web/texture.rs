//! The app's textures (`setTexture`), and the check that they belong to
//! the renderer's device.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use js_sys::Promise;
use wasm_bindgen::prelude::*;

use super::content::UserResources;
use super::shared::wrap_texture;
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

/// What is known of the textures last given to `setTexture`: WebGPU has no
/// synchronous way to ask which device made a texture, so they are bound
/// under validation error scopes (the app's own error handler never sees
/// those errors) and the verdict arrives a moment later. Frames are not
/// held back meanwhile: each one is encoded and submitted under an error
/// scope of its own (a [`Watch`]), so a valid texture is shown by the
/// very next frame, and the errors of a frame that bound another device's
/// texture reach no handler. Once the verdict is in, frames run without
/// scopes again.
pub struct TextureCheck {
    verdict: Rc<RefCell<Option<Result<(), Error>>>>,
    /// Set with the verdict when a texture was refused: the errors of the
    /// frames rendered with it come from it and are not reported.
    refused: Rc<Cell<bool>>,
    done: Promise,
}


impl TextureCheck {
    /// A promise that settles once the verdict is in, or `None` if it is.
    pub fn pending(&self) -> Option<Promise> {
        self.verdict.borrow().is_none().then(|| self.done.clone())
    }
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
    let verdict = Rc::new(RefCell::new(None));
    let set = verdict.clone();
    let refused = Rc::new(Cell::new(false));
    let set_refused = refused.clone();
    let done = wasm_bindgen_futures::future_to_promise(async move {
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
        set_refused.set(result.is_err());
        *set.borrow_mut() = Some(result);
        Ok(JsValue::UNDEFINED)
    });
    *r.check = Some(TextureCheck {
        verdict,
        refused,
        done,
    });
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
    let verdict = check.verdict.borrow_mut().take();
    match verdict {
        None => Ok(Some(Excuse {
            done: check.done.clone(),
            holds: check.refused.clone(),
            settled: Rc::default(),
        })),
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

/// The browser's message for a frame that failed because it sampled a
/// texture the app had destroyed, with the app's textures that frame
/// sampled, kept until the next `render()`, which says which texture it
/// was and stops using it.
pub type Destroyed = Rc<RefCell<Option<(String, Vec<Given>)>>>;

/// A validation error scope of the renderer's own around a frame, pushed
/// before its first GPU call. Frames run under one while a verdict that
/// would explain their errors is still to come (an [`Excuse`]), and while
/// they sample the app's textures: the app may destroy a texture it gave
/// (`GPUTexture.destroy()`) while it is still set, which WebGPU reports
/// only when a frame using it is submitted, and never to the caller.
pub struct Watch(wgpu::ErrorScopeGuard);

impl Watch {
    pub fn start(gpu: &Gpu) -> Watch {
        Watch(gpu.device.push_error_scope(wgpu::ErrorFilter::Validation))
    }

    /// Pops the scope after the frame's submit. Its error is dropped when
    /// one of `excuses` turns out to explain it; one that names a
    /// destroyed texture is kept for the next `render()` (the first such
    /// message wins); any other is one of the renderer's own, reported as
    /// an uncaptured error would be.
    pub fn end(self, gpu: &Gpu, destroyed: &Destroyed, given: Vec<Given>, excuses: Vec<Excuse>) {
        let popped: ErrorAnswer = Box::pin(self.0.pop());
        let report = gpu.error_sink();
        let destroyed = destroyed.clone();
        let (device, queue) = (gpu.device.clone(), gpu.queue.clone());
        wasm_bindgen_futures::spawn_local(async move {
            let Some(e) = popped.await else {
                return;
            };
            for excuse in excuses {
                // It never rejects.
                let _ = wasm_bindgen_futures::JsFuture::from(excuse.done).await;
                if excuse.holds.get() {
                    return;
                }
            }
            let message = e.to_string();
            // Only a frame that sampled the app's textures can blame them,
            // and only those the GPU can no longer use.
            let mut culprits = Vec::new();
            for g in given {
                if !super::shared::still_usable(&device, &queue, &g.texture).await {
                    culprits.push(g);
                }
            }
            if culprits.is_empty() {
                report(message);
            } else {
                destroyed.borrow_mut().get_or_insert((message, culprits));
            }
        });
    }
}

/// A verdict still to come that would explain a frame's errors (the
/// textures are another device's, the frame's targets could not be
/// allocated): `holds` once it came and does; `done` settles when it came.
#[derive(Clone)]
pub struct Excuse {
    done: Promise,
    holds: Rc<Cell<bool>>,
    settled: Rc<Cell<bool>>,
}

impl Excuse {
    /// Waits for `verdict` (true when it explains the errors).
    pub fn new(verdict: Pin<Box<dyn Future<Output = bool>>>) -> Excuse {
        let (holds, settled) = (Rc::new(Cell::new(false)), Rc::new(Cell::new(false)));
        let (set_holds, set_settled) = (holds.clone(), settled.clone());
        let done = wasm_bindgen_futures::future_to_promise(async move {
            set_holds.set(verdict.await);
            set_settled.set(true);
            Ok(JsValue::UNDEFINED)
        });
        Excuse {
            done,
            holds,
            settled,
        }
    }

    /// Whether the verdict is still to come.
    pub fn pending(&self) -> bool {
        !self.settled.get()
    }
}

/// One of the app's textures a frame samples: the call that gave it, how
/// errors name it, and the texture.
#[derive(Clone)]
pub struct Given {
    pub method: &'static str,
    pub argument: &'static str,
    pub texture: JsValue,
}

/// Clears the scene after its texture was refused or destroyed: the next
/// frame renders transparent black.
pub fn clear_scene(r: &mut Parts<'_>) -> Result<(), Error> {
    r.content
        .set(r.gpu, r.chain, crate::chain::Content::Shader(NOTHING.into()))
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
    };
    r.content.set_textures(r.gpu, r.chain, input, scene, bloom)
}
