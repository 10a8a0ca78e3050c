//! Device loss: `render()` notices it, requests a new device in the
//! background and skips frames until the renderer has moved onto it
//! ([`WebRenderer::replace_device`]); after a few failed attempts it
//! throws.

use super::interop::Handle;
use super::renderer::{instance, WebRenderer};
use crate::error::{DeviceErrorKind, Error};

/// Attempts at a new device before `render()` reports the loss.
const RECOVERY_ATTEMPTS: u32 = 3;

/// Where the renderer stands with respect to device loss.
enum LostState {
    Fine,
    Lost,
    Recovering,
    GaveUp(String),
    Shared,
}

fn lost_state(r: &WebRenderer) -> LostState {
    match r.gpu.lost() {
        None => LostState::Fine,
        // The app's device is the app's to replace.
        Some(_) if r.gpu.shared => LostState::Shared,
        Some(_) if r.recovering.get() => LostState::Recovering,
        Some(reason) if r.recovery_failures >= RECOVERY_ATTEMPTS => LostState::GaveUp(reason),
        Some(_) => LostState::Lost,
    }
}

/// `render(time)`: a frame, or a step of recovering from a lost device.
pub fn render(handle: &Handle<WebRenderer>, time: f64) -> Result<(), Error> {
    match handle.with("render", |r| Ok(lost_state(r)))? {
        LostState::Fine => handle.with("render", |r| r.render(time)),
        // Frames are skipped until the new device is in place.
        LostState::Recovering => Ok(()),
        LostState::Lost => {
            recover(handle)?;
            Ok(())
        }
        LostState::Shared => handle.with("render", |r| r.check_device()),
        LostState::GaveUp(reason) => Err(Error::device(
            DeviceErrorKind::RecoveryFailed,
            format!("{reason} ({RECOVERY_ATTEMPTS} attempts at a new device failed)"),
        )),
    }
}

/// Requests a new device in the background and moves the renderer onto
/// it; a failure is logged and counted.
fn recover(handle: &Handle<WebRenderer>) -> Result<(), Error> {
    let flag = handle.with("render", |r| Ok(r.recovering.clone()))?;
    flag.set(true);
    let handle = handle.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let mut requested = Some(super::request::gpu(&instance()).await);
        // A device that arrives lost says so to the callback registered
        // on it within a microtask: it is not built on (Firefox reports
        // every object made on a lost device as an uncaptured error).
        let tick = js_sys::Promise::resolve(&wasm_bindgen::JsValue::UNDEFINED);
        let _ = wasm_bindgen_futures::JsFuture::from(tick).await;
        let result = handle.with("render", |r| {
            let replaced = match requested.take() {
                // Counted as a failed attempt, and the next render()
                // tries again.
                Some(Ok(gpu)) if gpu.lost().is_some() => {
                    gpu.destroy();
                    r.recovery_failures += 1;
                    Ok(())
                }
                Some(Ok(gpu)) => r.replace_device(gpu),
                Some(Err(e)) => Err(e),
                None => Ok(()),
            };
            if replaced.is_err() {
                r.recovery_failures += 1;
            }
            replaced
        });
        // Destroyed (or broken) while the device was being requested: the
        // new device is given back now, not left to the garbage collector.
        if let Some(Ok(gpu)) = requested {
            gpu.destroy();
        }
        match result {
            Ok(()) => {}
            // Destroyed meanwhile: there is nothing left to recover.
            Err(Error::State(_)) => {}
            Err(e) => web_sys::console::error_1(
                &format!("{e} (while replacing a lost GPU device)").into(),
            ),
        }
        flag.set(false);
    });
    Ok(())
}
