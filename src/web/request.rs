//! Asking the browser for an adapter and a device, with every wait bounded.
//!
//! A browser can leave `requestAdapter()` or `requestDevice()` unanswered
//! (a GPU process that hangs), and a fresh Chromium on some machines
//! answers the first `requestAdapter()` with `null` and the next one with
//! the GPU. So:
//! - the first adapter request (high-performance) gets [`FIRST_ANSWER_MS`];
//!   answered with `null`, it is asked again after [`PAUSE_MS`] without the
//!   power preference; unanswered, it is asked again at once and both are
//!   awaited, the first adapter of either taken;
//! - no adapter [`ANSWER_MS`] after the first request is a `no-adapter`
//!   [`DeviceError`](crate::error::DeviceError) saying whether the browser
//!   refused or did not answer; two `null`s are one at once;
//! - `requestDevice()` gets [`ANSWER_MS`]; a device that comes later is
//!   destroyed when it comes, so nothing is left behind.

use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::task::Poll;

use super::interop::{sleep, timer};
use crate::error::{DeviceErrorKind, Error};
use crate::gpu::Gpu;

/// How long the first adapter request is waited for before it is asked again.
const FIRST_ANSWER_MS: u32 = 2_000;
/// How long the browser has to give an adapter, and then a device.
pub const ANSWER_MS: u32 = 10_000;
/// The pause before asking again after a first `null`.
const PAUSE_MS: u32 = 100;

/// What to check when the browser refuses every adapter.
const NO_ADAPTER: &str = "the browser offers WebGPU but found no usable GPU adapter. Check that \
    hardware acceleration is on (Chrome and Edge: Settings > System > \"Use graphics \
    acceleration when available\"; chrome://gpu shows whether WebGPU is blocked for this GPU \
    or driver)";

type AdapterAnswer = Pin<Box<dyn Future<Output = Option<wgpu::Adapter>>>>;

/// The first answer of `pending` that is `Some`; `Ok(None)` once every one
/// answered `None`; `Err` with those still unanswered after `ms`.
async fn first_some<T>(
    mut pending: Vec<Pin<Box<dyn Future<Output = Option<T>>>>>,
    ms: u32,
) -> Result<Option<T>, Vec<Pin<Box<dyn Future<Output = Option<T>>>>>> {
    let mut deadline = timer(ms);
    let outcome = poll_fn(|cx| {
        let mut i = 0;
        while i < pending.len() {
            match pending[i].as_mut().poll(cx) {
                Poll::Ready(Some(v)) => return Poll::Ready(Some(Some(v))),
                Poll::Ready(None) => drop(pending.remove(i)),
                Poll::Pending => i += 1,
            }
        }
        if pending.is_empty() {
            Poll::Ready(Some(None))
        } else if Pin::new(&mut deadline).poll(cx).is_ready() {
            Poll::Ready(None)
        } else {
            Poll::Pending
        }
    })
    .await;
    outcome.ok_or(pending)
}

fn ask_adapter(
    instance: &wgpu::Instance,
    power_preference: wgpu::PowerPreference,
) -> AdapterAnswer {
    let request = instance.request_adapter(&wgpu::RequestAdapterOptions {
        power_preference,
        ..Default::default()
    });
    Box::pin(async move { request.await.ok() })
}

/// An adapter, asked for once more when the first request gives `null` or
/// no answer (see the module's comment).
pub async fn adapter(instance: &wgpu::Instance) -> Result<wgpu::Adapter, Error> {
    let first = ask_adapter(instance, wgpu::PowerPreference::HighPerformance);
    let mut pending = match first_some(vec![first], FIRST_ANSWER_MS).await {
        Ok(Some(adapter)) => return Ok(adapter),
        Ok(None) => {
            sleep(PAUSE_MS).await;
            Vec::new()
        }
        Err(unanswered) => unanswered,
    };
    pending.push(ask_adapter(instance, wgpu::PowerPreference::None));
    match first_some(pending, ANSWER_MS - FIRST_ANSWER_MS).await {
        Ok(Some(adapter)) => Ok(adapter),
        Ok(None) => Err(Error::device(DeviceErrorKind::NoAdapter, NO_ADAPTER)),
        Err(_) => Err(no_answer(
            DeviceErrorKind::NoAdapter,
            "navigator.gpu.requestAdapter()",
        )),
    }
}

/// `call` gave no answer within [`ANSWER_MS`].
fn no_answer(kind: DeviceErrorKind, call: &str) -> Error {
    Error::device(
        kind,
        format!(
            "{call} did not answer within {} s; the browser's GPU process may be stuck: reload \
             the page or restart the browser",
            ANSWER_MS / 1000
        ),
    )
}

/// An adapter and a device of afterglow's own, each answer waited for at
/// most [`ANSWER_MS`].
pub async fn gpu(instance: &wgpu::Instance) -> Result<Gpu, Error> {
    let adapter = adapter(instance).await?;
    let request = adapter.request_device(&Gpu::device_descriptor(&adapter));
    let answer: Pin<Box<dyn Future<Output = _>>> = Box::pin(request);
    let mut late =
        match first_some(vec![Box::pin(async move { Some(answer.await) })], ANSWER_MS).await {
            Ok(Some(Ok((device, queue)))) => return Ok(Gpu::requested(&adapter, device, queue)),
            Ok(Some(Err(e))) => {
                let why = crate::gpu::browser_reason(&e);
                return Err(Error::device(
                    DeviceErrorKind::NoDevice,
                    format!("no device: {why}"),
                ));
            }
            Ok(None) => Vec::new(),
            Err(unanswered) => unanswered,
        };
    // A device that comes after all is given back at once.
    if let Some(answer) = late.pop() {
        wasm_bindgen_futures::spawn_local(async move {
            if let Some(Ok((device, _))) = answer.await {
                device.destroy();
            }
        });
    }
    Err(no_answer(
        DeviceErrorKind::NoDevice,
        "adapter.requestDevice()",
    ))
}
