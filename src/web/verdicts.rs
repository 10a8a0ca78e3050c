//! Answers the GPU gives a moment later, and what the renderer does with
//! them: whether the app's textures are the device's, whether a step's
//! targets could be allocated, and which of the app's textures a failed
//! frame could no longer use. They all belong to one device, and one
//! [`Verdicts`] holds them: a new device starts with a new one, so no
//! answer about the old device reaches the new one.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use js_sys::Promise;
use wasm_bindgen::prelude::*;

use crate::error::Error;
use crate::gpu::{ErrorAnswer, Gpu};

/// What a frame's targets are made for: the scene image's size (the render
/// size, or the app's texture's), the canvas size and the MSAA sample
/// count. Other targets come with other values.
pub type Targets = ((u32, u32), (u32, u32), u32);

/// Every verdict about the renderer's device still to come or not yet
/// acted on.
#[derive(Default)]
pub struct Verdicts {
    /// Whether the textures last given to `setTexture` are the device's.
    pub texture_check: Option<TextureCheck>,
    /// A frame failed on a texture the app destroyed: the next `render()`
    /// says so (see [`Watch`]).
    pub destroyed: Destroyed,
    /// The browser's out-of-memory error for an allocating step, with the
    /// targets that step left, once it arrives.
    pub out_of_memory: Rc<RefCell<Option<(Targets, String)>>>,
    /// The verdicts of allocating steps still to come, which frames wait
    /// for.
    pub allocations: Vec<Excuse>,
    /// Why nothing is rendered: the latest allocating step ran out of
    /// memory (the size and settings, and the browser's message).
    pub starved: Option<String>,
}

impl Verdicts {
    /// Keeps an allocating step's verdict, forgetting those that came.
    pub fn allocating(&mut self, excuse: Excuse) {
        self.allocations.retain(Excuse::pending);
        self.allocations.push(excuse);
    }

    /// The allocating steps' verdicts still to come.
    pub fn pending_allocations(&self) -> impl Iterator<Item = Excuse> + '_ {
        self.allocations.iter().filter(|a| a.pending()).cloned()
    }
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
    /// Holds once the textures were refused: the errors of the frames
    /// rendered with them come from them and are not reported.
    excuse: Excuse,
}

impl TextureCheck {
    /// Waits for `check`, the textures' verdict.
    pub fn new(check: Pin<Box<dyn Future<Output = Result<(), Error>>>>) -> TextureCheck {
        let verdict = Rc::new(RefCell::new(None));
        let set = verdict.clone();
        let excuse = Excuse::new(Box::pin(async move {
            let result = check.await;
            let refused = result.is_err();
            *set.borrow_mut() = Some(result);
            refused
        }));
        TextureCheck { verdict, excuse }
    }

    /// A promise that settles once the verdict is in, or `None` if it is.
    pub fn pending(&self) -> Option<Promise> {
        self.excuse.pending().then(|| self.excuse.done.clone())
    }

    /// The verdict, once it came (taken: it is acted on once).
    pub fn take(&self) -> Option<Result<(), Error>> {
        self.verdict.borrow_mut().take()
    }

    /// What excuses a frame's errors while the verdict is to come.
    pub fn excuse(&self) -> Excuse {
        self.excuse.clone()
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
            blame(&device, &queue, &destroyed, given, e.to_string(), report).await;
        });
    }
}

/// A validation error, `message`, of a frame or of a rebuild that bound
/// `given`: kept for the next `render()` where one of those textures is one
/// the GPU can no longer use (the app destroyed it; the first such message
/// wins), else reported as an uncaptured error would be. Only what bound the
/// app's textures can blame them.
pub async fn blame(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    destroyed: &Destroyed,
    given: Vec<Given>,
    message: String,
    report: impl Fn(String),
) {
    let mut culprits = Vec::new();
    for g in given {
        if !super::shared::still_usable(device, queue, &g.texture).await {
            culprits.push(g);
        }
    }
    if culprits.is_empty() {
        report(message);
    } else {
        destroyed.borrow_mut().get_or_insert((message, culprits));
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
