//! The app's own `GPUDevice` (`Renderer.create(canvas, { device })`) and
//! the app's own textures (`setTexture`).
//!
//! wgpu's WebGPU backend has no public way to wrap an existing
//! `GPUDevice`: its `Device` is only made by `Adapter::request_device`,
//! and the web backend's device type has no public constructor (`from_custom`
//! would mean re-implementing the whole device interface). So afterglow
//! asks wgpu for a device while `GPUAdapter.prototype.requestDevice`
//! resolves to the app's device; the original method is put back before
//! any other JavaScript can run (wgpu calls it synchronously, inside
//! `request_device`, before its future is first polled).

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::interop::{describe, get, num};
use crate::error::{DeviceErrorKind, Error};
use crate::gpu::Gpu;

/// Whether `v` is an instance of the global class `class` (`GPUDevice`,
/// `GPUTexture`), by its prototype chain.
pub fn instance_of(v: &JsValue, class: &str) -> bool {
    let Ok(ctor) = get(&js_sys::global(), class).dyn_into::<Function>() else {
        return false;
    };
    let proto = get(&ctor, "prototype");
    if !v.is_object() || !proto.is_object() {
        return false;
    }
    let mut p = Reflect::get_prototype_of(v).map(JsValue::from);
    while let Ok(current) = p {
        if current.is_null() {
            return false;
        }
        if current == proto {
            return true;
        }
        p = Reflect::get_prototype_of(&current).map(JsValue::from);
    }
    false
}

/// A wgpu device and queue on the app's `GPUDevice`.
pub async fn wrap_device(instance: &wgpu::Instance, device: &JsValue) -> Result<Gpu, Error> {
    if !instance_of(device, "GPUDevice") {
        return Err(Error::argument(
            "device",
            format!(
                "must be a GPUDevice (from adapter.requestDevice()), got {}",
                describe(device)
            ),
        ));
    }
    let adapter = super::request::adapter(instance).await?;
    let proto = get(&get(&js_sys::global(), "GPUAdapter"), "prototype");
    let original = get(&proto, "requestDevice");
    let resolved = Promise::resolve(device);
    let stand_in = Closure::<dyn FnMut() -> Promise>::new(move || resolved.clone());
    let swap = |f: &JsValue| Reflect::set(&proto, &"requestDevice".into(), f);
    swap(stand_in.as_ref()).map_err(|e| {
        Error::device(
            DeviceErrorKind::NoDevice,
            format!(
                "could not use the given device: {}",
                super::interop::js_message(&e)
            ),
        )
    })?;
    // wgpu calls requestDevice here, synchronously; the stand-in is gone
    // again before anything else runs.
    let pending = adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("app device"),
        ..Default::default()
    });
    let restored = swap(&original);
    drop(stand_in);
    restored.map_err(|e| {
        Error::device(
            DeviceErrorKind::NoDevice,
            format!(
                "could not restore GPUAdapter.requestDevice: {}",
                super::interop::js_message(&e)
            ),
        )
    })?;
    let (device, queue) = pending.await.map_err(|e| {
        let why = crate::gpu::browser_reason(&e);
        Error::device(DeviceErrorKind::NoDevice, format!("no device: {why}"))
    })?;
    Ok(Gpu::shared(Some(adapter.get_info()), device, queue))
}

/// Counts the app device's uncaptured errors through an event listener,
/// leaving the app's own `onuncapturederror` in place; removed on drop.
pub struct ErrorListener {
    device: JsValue,
    closure: Closure<dyn FnMut(JsValue)>,
}

impl ErrorListener {
    pub fn new(gpu: &Gpu) -> Option<ErrorListener> {
        let device: JsValue = gpu.device.as_webgpu()?.clone().into();
        let sink = gpu.error_sink();
        let closure = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
            let error = get(&event, "error");
            sink(get(&error, "message").as_string().unwrap_or_default());
        });
        super::interop::call(
            &device,
            "addEventListener",
            &[&"uncapturederror".into(), closure.as_ref()],
        )
        .ok()?;
        Some(ErrorListener { device, closure })
    }
}

impl Drop for ErrorListener {
    fn drop(&mut self) {
        // Removing a listener from a live device does not throw.
        let _ = super::interop::call(
            &self.device,
            "removeEventListener",
            &[&"uncapturederror".into(), self.closure.as_ref()],
        );
    }
}

/// `GPUTextureUsage.TEXTURE_BINDING`.
const TEXTURE_BINDING: u32 = 0x04;

/// The formats a scene texture may have, as WebGPU spells them.
const FORMATS: &[(&str, wgpu::TextureFormat)] = &[
    ("rgba16float", wgpu::TextureFormat::Rgba16Float),
    ("rg11b10ufloat", wgpu::TextureFormat::Rg11b10Ufloat),
    ("rgba8unorm", wgpu::TextureFormat::Rgba8Unorm),
    ("rgba8unorm-srgb", wgpu::TextureFormat::Rgba8UnormSrgb),
    ("bgra8unorm", wgpu::TextureFormat::Bgra8Unorm),
    ("bgra8unorm-srgb", wgpu::TextureFormat::Bgra8UnormSrgb),
    ("rgba32float", wgpu::TextureFormat::Rgba32Float),
];

/// The formats a depth texture may have, as WebGPU spells them.
const DEPTH_FORMATS: &[(&str, wgpu::TextureFormat)] = &[
    ("depth32float", wgpu::TextureFormat::Depth32Float),
    ("depth24plus", wgpu::TextureFormat::Depth24Plus),
    (
        "depth24plus-stencil8",
        wgpu::TextureFormat::Depth24PlusStencil8,
    ),
    ("depth16unorm", wgpu::TextureFormat::Depth16Unorm),
    ("r32float", wgpu::TextureFormat::R32Float),
];

/// The app's depth texture (`setTexture`'s `depth`) wrapped for wgpu, after
/// checking it against the scene's `size` (`texture_rules::check_caller_depth`),
/// and the question whether it is the renderer's device's.
pub fn wrap_depth(
    gpu: &Gpu,
    texture: &JsValue,
    size: (u32, u32),
) -> Result<(crate::passes::content::DepthInput, crate::gpu::ErrorAnswer), Error> {
    if !instance_of(texture, "GPUTexture") {
        return Err(Error::argument(
            "depth",
            format!("must be a GPUTexture, got {}", describe(texture)),
        ));
    }
    let name = get(texture, "format").as_string().unwrap_or_default();
    // An unknown format is refused by the rule below, naming it.
    let format = DEPTH_FORMATS
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(wgpu::TextureFormat::Rgba8Unorm, |&(_, f)| f);
    let kind = as_caller(texture, format, &name, |facts| {
        let own = (num(texture, "width") as u32, num(texture, "height") as u32);
        crate::texture_rules::check_caller_depth("depth", facts, own, size)
    })?;
    let (_, view) = wrap_handle(&gpu.device, texture, format, "depth");
    gpu.counters
        .views
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let input = crate::passes::content::DepthInput::new(gpu, view, kind);
    let probe = gpu.probe_texture_as(&input.read, kind.binding());
    Ok((input, probe))
}

/// A GPUTexture as the texture rules read it, handed to `check`: its
/// `format` already looked up from its name, the same facts for colour
/// and depth, spelled as JavaScript names them.
fn as_caller<R>(
    texture: &JsValue,
    format: wgpu::TextureFormat,
    name: &str,
    check: impl FnOnce(&crate::texture_rules::CallerTexture<'_>) -> R,
) -> R {
    let usage = num(texture, "usage") as u32;
    let usage_spelled = usage.to_string();
    check(&crate::texture_rules::CallerTexture {
        dimension: dimension_of(texture),
        layers: num(texture, "depthOrArrayLayers") as u32,
        samples: num(texture, "sampleCount") as u32,
        usage: if usage & TEXTURE_BINDING != 0 {
            wgpu::TextureUsages::TEXTURE_BINDING
        } else {
            wgpu::TextureUsages::empty()
        },
        usage_spelled: (&usage_spelled, "GPUTextureUsage.TEXTURE_BINDING"),
        format,
        format_spelled: &format!("'{name}'"),
    })
}

/// A texture's `dimension`, as wgpu's.
fn dimension_of(texture: &JsValue) -> wgpu::TextureDimension {
    match get(texture, "dimension").as_string().as_deref() {
        Some("1d") => wgpu::TextureDimension::D1,
        Some("2d") => wgpu::TextureDimension::D2,
        _ => wgpu::TextureDimension::D3,
    }
}

/// The app's texture wrapped for wgpu, after checking that the chain can
/// sample it; `argument` names it in errors (`texture`, `bloom`).
pub fn wrap_texture(
    gpu: &Gpu,
    texture: &JsValue,
    argument: &str,
) -> Result<(wgpu::Texture, wgpu::TextureView), Error> {
    let refuse = |why: String| Error::argument(argument, why);
    if !instance_of(texture, "GPUTexture") {
        return Err(refuse(format!(
            "must be a GPUTexture, got {}",
            describe(texture)
        )));
    }
    let name = get(texture, "format").as_string().unwrap_or_default();
    let Some(&(_, format)) = FORMATS.iter().find(|(n, _)| *n == name) else {
        let names: Vec<&str> = FORMATS.iter().map(|(n, _)| *n).collect();
        let allowed = crate::options::value::quote_list(&names);
        let kind = if name.starts_with("depth") || name.starts_with("stencil") {
            "a depth/stencil format, which cannot be filtered as a color"
        } else {
            "a format the chain cannot filter"
        };
        return Err(refuse(format!(
            "has format '{name}', {kind}; allowed: {allowed}"
        )));
    };
    as_caller(texture, format, &name, |facts| {
        crate::texture_rules::check_caller_texture(argument, facts, gpu.features)
    })?;
    // The renderer's own device may be replaced after a loss, which would
    // leave the app's textures on a dead device: textures are taken only
    // by a renderer on the app's device.
    if !gpu.shared {
        return Err(refuse(
            "is a GPUTexture, which only a renderer on your own GPUDevice takes: this renderer \
             made its own device. Create the renderer with Renderer.create(canvas, { device }) \
             and the texture on that device"
                .into(),
        ));
    }
    let (wrapped, view) = wrap_handle(&gpu.device, texture, format, argument);
    // The view is one of the renderer's objects (the counters' rule).
    gpu.counters
        .views
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    Ok((wrapped, view))
}

/// The app's `GPUTexture` as wgpu's, with a view of its first mip level.
fn wrap_handle(
    device: &wgpu::Device,
    texture: &JsValue,
    format: wgpu::TextureFormat,
    label: &str,
) -> (wgpu::Texture, wgpu::TextureView) {
    let size = (num(texture, "width") as u32, num(texture, "height") as u32);
    let wrapped = device.create_texture_from_webgpu_handle(
        texture.clone().unchecked_into(),
        &wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width: size.0,
                height: size.1,
                depth_or_array_layers: 1,
            },
            mip_level_count: (num(texture, "mipLevelCount") as u32).max(1),
            sample_count: (num(texture, "sampleCount") as u32).max(1),
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        },
        None,
    );
    let view = wrapped.create_view(&wgpu::TextureViewDescriptor {
        label: Some(label),
        base_mip_level: 0,
        mip_level_count: Some(1),
        ..Default::default()
    });
    (wrapped, view)
}

/// Whether the app's `texture` (one it gave, checked then) can still be
/// used: the GPU is asked to read it in a draw of its own
/// (`gpu::probe_texture_use`), so a texture the app destroyed is told by
/// the GPU's answer, never by a message's wording.
pub async fn still_usable(device: &wgpu::Device, queue: &wgpu::Queue, texture: &JsValue) -> bool {
    let name = get(texture, "format").as_string().unwrap_or_default();
    let colour = FORMATS.iter().find(|(n, _)| *n == name);
    let depth = DEPTH_FORMATS.iter().find(|(n, _)| *n == name);
    let Some(&(_, format)) = colour.or(depth) else {
        return false;
    };
    let samples = num(texture, "sampleCount") as u32;
    let kind = depth.map(|_| match (format, samples) {
        (wgpu::TextureFormat::R32Float, _) => crate::texture_rules::DepthKind::Linear,
        (_, 1) => crate::texture_rules::DepthKind::Buffer,
        _ => crate::texture_rules::DepthKind::Multisampled,
    });
    // The view is made under a scope too: Firefox refuses a view of a
    // destroyed texture (where the rules leave that to its use).
    let outer = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let (wrapped, view) = wrap_handle(device, texture, format, "texture check");
    let view = if kind.is_some() {
        crate::passes::content::read_view(&wrapped)
    } else {
        view
    };
    let used = crate::gpu::probe_texture_use(device, queue, &view, kind);
    let made = outer.pop();
    used.await.is_none() && made.await.is_none()
}
