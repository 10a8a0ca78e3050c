//! Instance, adapter and device: what the renderer was given to work with,
//! plus the bookkeeping every test relies on (uncaptured GPU errors, device
//! loss, and a count of the GPU objects the crate creates).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

#[cfg(not(target_arch = "wasm32"))]
use crate::error::DeviceErrorKind;
use crate::error::Error;

/// Declares the object counters: one per kind of GPU object the crate
/// creates, each bumped by the one `Gpu` method that creates that kind.
macro_rules! counters {
    ($($(#[$doc:meta])* $name:ident),+ $(,)?) => {
        /// How many GPU objects of each kind the crate has created. On the
        /// web a frame creates exactly one `canvas_textures` and one
        /// `canvas_views` (the frame's canvas texture and its view); nothing
        /// else may move after warm-up.
        #[derive(Default, Debug)]
        pub struct Counters {
            $($(#[$doc])* pub $name: AtomicU64,)+
        }

        /// A snapshot of [`Counters`] (for the tests' counts).
        #[cfg(test)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct CounterSnapshot {
            $(pub $name: u64,)+
        }

        #[cfg(test)]
        impl Counters {
            pub fn snapshot(&self) -> CounterSnapshot {
                CounterSnapshot {
                    $($name: self.$name.load(Ordering::Relaxed),)+
                }
            }
        }

        #[cfg(test)]
        impl CounterSnapshot {
            /// Every counter by name, for messages.
            pub fn entries(&self) -> Vec<(&'static str, u64)> {
                vec![$((stringify!($name), self.$name),)+]
            }

            /// What was created between `earlier` and `self`.
            pub fn since(&self, earlier: &CounterSnapshot) -> CounterSnapshot {
                CounterSnapshot {
                    $($name: self.$name - earlier.$name,)+
                }
            }
        }
    };
}

counters! {
    textures,
    views,
    bind_groups,
    pipelines,
    buffers,
    samplers,
    /// Bind group layouts and pipeline layouts.
    layouts,
    shader_modules,
    query_sets,
    /// Canvas textures wrapped for wgpu (one per frame on the web).
    canvas_textures,
    /// Views of the canvas texture (one per frame on the web).
    canvas_views,
    /// Bind groups of the canvas texture's view, where the composite
    /// writes it as compute (one per frame on the web then).
    canvas_bind_groups,
}

/// The device and what the crate knows about it.
pub struct Gpu {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    /// The adapter's description, where afterglow requested the device
    /// itself (a caller's device comes without one), for the tests'
    /// reports.
    #[cfg(test)]
    pub adapter_info: Option<wgpu::AdapterInfo>,
    pub features: wgpu::Features,
    pub limits: wgpu::Limits,
    pub counters: Arc<Counters>,
    /// `TRANSIENT_ATTACHMENT` can be used (and is worth using) on this device.
    pub transient_attachments: bool,
    /// The passes that read or write the largest images (the bloom's
    /// extract and its largest steps, and the output where it allows
    /// storage) run as compute: on a GPU, where that costs what a draw does
    /// or, where the raster path is narrow, far less. Not on a CPU's
    /// emulation of one (lavapipe, SwiftShader, WARP), where drawing them
    /// costs less (BENCHMARKS.md, "GPU work ranked"), nor on the web on a
    /// GPU that draws into tiles (a phone's, Apple's).
    pub compute_images: bool,
    /// The device belongs to the caller: afterglow never destroys it, never
    /// replaces it after a loss, and leaves its error handler alone.
    pub shared: bool,
    /// The caller records afterglow's commands into its own encoder and
    /// submits them ([`crate::PostChain`]): a texture the chain replaces
    /// may still be used by commands not yet submitted, so it is dropped
    /// (wgpu frees it once that work is done), never destroyed.
    pub caller_submits: bool,
    errors: Arc<ErrorLog>,
    lost: Arc<Mutex<Option<String>>>,
    destroyed_on_purpose: Arc<AtomicBool>,
}

/// Uncaptured GPU errors, logged to the console; in test builds also
/// counted (the tests assert zero) and the last one kept for messages.
#[derive(Default)]
struct ErrorLog {
    #[cfg(test)]
    count: AtomicU64,
    #[cfg(test)]
    last: Mutex<Option<String>>,
}

/// The descriptor of a 2D texture of one layer, `mips` levels and
/// `samples` per texel ([`Gpu::create_texture_2d`]).
pub fn texture_2d<'a>(
    label: &'a str,
    size: (u32, u32),
    format: wgpu::TextureFormat,
    (samples, mips): (u32, u32),
    usage: wgpu::TextureUsages,
) -> wgpu::TextureDescriptor<'a> {
    wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width: size.0,
            height: size.1,
            depth_or_array_layers: 1,
        },
        mip_level_count: mips,
        sample_count: samples,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage,
        view_formats: &[],
    }
}

impl Gpu {
    /// Requests an adapter and a device from `instance` (natively; the web
    /// asks the browser with every wait bounded, in `web::request`).
    #[cfg(not(target_arch = "wasm32"))]
    pub async fn request(
        instance: &wgpu::Instance,
        compatible_surface: Option<&wgpu::Surface<'_>>,
    ) -> Result<Gpu, Error> {
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                force_fallback_adapter: false,
                compatible_surface,
                ..Default::default()
            })
            .await
            .map_err(|e| {
                Error::device(
                    DeviceErrorKind::NoAdapter,
                    format!("no adapter: {}", browser_reason(&e)),
                )
            })?;
        let (device, queue) = adapter
            .request_device(&Gpu::device_descriptor(&adapter))
            .await
            .map_err(|e| {
                Error::device(
                    DeviceErrorKind::NoDevice,
                    format!("no device: {}", browser_reason(&e)),
                )
            })?;
        Ok(Gpu::requested(&adapter, device, queue))
    }

    /// The device afterglow asks `adapter` for: the optional features the
    /// renderer can use that the adapter has, and the default limits raised
    /// to the adapter's texture size limits, so large canvases work where
    /// the hardware allows.
    pub fn device_descriptor(adapter: &wgpu::Adapter) -> wgpu::DeviceDescriptor<'static> {
        let wanted = wgpu::Features::RG11B10UFLOAT_RENDERABLE | wgpu::Features::TIMESTAMP_QUERY;
        wgpu::DeviceDescriptor {
            label: Some("afterglow device"),
            required_features: adapter.features() & wanted,
            required_limits: wgpu::Limits::default().using_resolution(adapter.limits()),
            ..Default::default()
        }
    }

    /// Wraps the device afterglow asked `adapter` for
    /// ([`Gpu::device_descriptor`]).
    pub fn requested(adapter: &wgpu::Adapter, device: wgpu::Device, queue: wgpu::Queue) -> Gpu {
        let info = adapter.get_info();
        let transient_attachments = transient_supported(&info);
        let mut gpu = Gpu::from_device(info, device, queue);
        gpu.transient_attachments = transient_attachments;
        gpu
    }

    /// Wraps a device afterglow created: its uncaptured errors are
    /// counted, and it is destroyed with the renderer.
    pub fn from_device(
        adapter_info: wgpu::AdapterInfo,
        device: wgpu::Device,
        queue: wgpu::Queue,
    ) -> Gpu {
        let gpu = Gpu::wrap(Some(adapter_info), device, queue, false);
        let sink = gpu.error_sink();
        gpu.device
            .on_uncaptured_error(Arc::new(move |e: wgpu::Error| sink(e.to_string())));
        gpu
    }

    /// Wraps the caller's device: never destroyed by afterglow, and its
    /// uncaptured-error handler (one per device in wgpu) is left to the
    /// caller. On the web the renderer listens for errors without taking
    /// the handler over.
    pub fn shared(
        adapter_info: Option<wgpu::AdapterInfo>,
        device: wgpu::Device,
        queue: wgpu::Queue,
    ) -> Gpu {
        Gpu::wrap(adapter_info, device, queue, true)
    }

    /// A function that logs and counts one uncaptured error message.
    pub fn error_sink(&self) -> impl Fn(String) + Send + Sync + 'static {
        let errors = self.errors.clone();
        move |message: String| {
            log_error(&format!("afterglow: uncaptured GPU error: {message}"));
            // Kept for the tests, which assert there were none.
            #[cfg(test)]
            {
                errors.count.fetch_add(1, Ordering::Relaxed);
                if let Ok(mut last) = errors.last.lock() {
                    *last = Some(message);
                }
            }
            #[cfg(not(test))]
            let _ = (&errors, message);
        }
    }

    fn wrap(
        adapter_info: Option<wgpu::AdapterInfo>,
        device: wgpu::Device,
        queue: wgpu::Queue,
        shared: bool,
    ) -> Gpu {
        let errors = Arc::new(ErrorLog::default());
        let lost = Arc::new(Mutex::new(None));
        let compute_images = computes_images(&device, adapter_info.as_ref());
        let destroyed_on_purpose = Arc::new(AtomicBool::new(false));
        // Natively wgpu keeps one device-lost callback per device, and
        // setting it replaces the caller's: on a shared device the caller
        // hears of the loss. On the web the callback is one more listener
        // of `device.lost`, so the renderer can tell a shared device is gone.
        if !shared || cfg!(target_arch = "wasm32") {
            let lost = lost.clone();
            let on_purpose = destroyed_on_purpose.clone();
            device.set_device_lost_callback(move |reason, message| {
                if !on_purpose.load(Ordering::Relaxed) {
                    log_error(&format!(
                        "afterglow: GPU device lost ({reason:?}): {message}"
                    ));
                }
                if let Ok(mut lost) = lost.lock() {
                    *lost = Some(format!("{reason:?}: {message}"));
                }
            });
        }
        // Only the tests' reports read the adapter's description.
        #[cfg(not(test))]
        let _ = adapter_info;
        Gpu {
            features: device.features(),
            limits: device.limits(),
            device,
            queue,
            #[cfg(test)]
            adapter_info,
            counters: Arc::new(Counters::default()),
            transient_attachments: false,
            compute_images,
            shared,
            caller_submits: false,
            errors,
            lost,
            destroyed_on_purpose,
        }
    }

    /// Uncaptured GPU errors (validation, out of memory) since creation.
    #[cfg(test)]
    pub fn error_count(&self) -> u64 {
        self.errors.count.load(Ordering::Relaxed)
    }

    /// The message of the last uncaptured GPU error.
    #[cfg(test)]
    pub fn last_error(&self) -> Option<String> {
        self.errors.last.lock().ok().and_then(|l| l.clone())
    }

    /// `Some(reason)` once the device is lost.
    pub fn lost(&self) -> Option<String> {
        self.lost.lock().ok().and_then(|l| l.clone())
    }

    /// Tells later (after an `await`) whether this device has been lost.
    pub fn loss_watch(&self) -> impl Fn() -> Option<String> {
        let lost = self.lost.clone();
        move || lost.lock().ok().and_then(|l| l.clone())
    }

    /// Destroys the device (releasing its memory now rather than at GC),
    /// unless it is the caller's. Either way a loss after this is not the
    /// renderer's to report: the caller destroying its own device once
    /// the renderer is gone logs nothing.
    ///
    /// The two engines that run here need opposite timings, and neither
    /// can be seen from the API, so the engine is told by its name:
    /// - Firefox (153) may stop the page's animation frames for good, or
    ///   close the tab, when a device is destroyed while its canvas is
    ///   still presenting a frame or a copy from it is still being read.
    ///   There the device goes once the work submitted to it is done.
    /// - Chromium (156) can block the page's main thread for good when a
    ///   device is destroyed while a `requestAdapter()` of the page is
    ///   pending, which a destroy put off until the queue is idle makes
    ///   likely: an app that requests a device right after destroying a
    ///   renderer. Everywhere but Firefox the device goes at once.
    pub fn destroy(&self) {
        self.destroyed_on_purpose.store(true, Ordering::Relaxed);
        if self.shared {
            return;
        }
        #[cfg(target_arch = "wasm32")]
        if let Some(device) = self.device.as_webgpu().filter(|_| in_firefox()) {
            destroy_when_idle(AsRef::<wasm_bindgen::JsValue>::as_ref(device).clone());
            return;
        }
        self.device.destroy();
    }

    /// Largest accepted width or height of a 2D texture.
    pub fn max_texture_size(&self) -> u32 {
        self.limits.max_texture_dimension_2d
    }

    /// Creates a texture after checking its descriptor against the WebGPU
    /// rules ([`crate::texture_rules::check`]).
    pub fn create_texture(
        &self,
        desc: &wgpu::TextureDescriptor<'_>,
    ) -> Result<wgpu::Texture, Error> {
        crate::texture_rules::check(desc)?;
        self.counters.textures.fetch_add(1, Ordering::Relaxed);
        Ok(self.device.create_texture(desc))
    }

    /// A 2D texture of one layer, `mips` levels and `samples` per texel,
    /// as [`Gpu::create_texture`] makes it.
    pub fn create_texture_2d(
        &self,
        label: &str,
        size: (u32, u32),
        format: wgpu::TextureFormat,
        (samples, mips): (u32, u32),
        usage: wgpu::TextureUsages,
    ) -> Result<wgpu::Texture, Error> {
        self.create_texture(&texture_2d(label, size, format, (samples, mips), usage))
    }

    pub fn create_view(
        &self,
        texture: &wgpu::Texture,
        desc: &wgpu::TextureViewDescriptor<'_>,
    ) -> wgpu::TextureView {
        self.counters.views.fetch_add(1, Ordering::Relaxed);
        texture.create_view(desc)
    }

    /// Binds `view` alone under an error scope of its own: the answer is
    /// an error when the texture is another device's. Natively the answer
    /// is ready at once; a browser gives it later.
    pub fn probe_texture(&self, view: &wgpu::TextureView) -> ErrorAnswer {
        self.probe_texture_as(view, UNFILTERED)
    }

    /// [`Gpu::probe_texture`] for a view bound as `binding` (a depth
    /// texture's depth aspect is bound as depth).
    pub fn probe_texture_as(
        &self,
        view: &wgpu::TextureView,
        binding: wgpu::BindingType,
    ) -> ErrorAnswer {
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let _ = bind_alone(&self.device, view, binding);
        Box::pin(scope.pop())
    }

    pub fn create_bind_group(&self, desc: &wgpu::BindGroupDescriptor<'_>) -> wgpu::BindGroup {
        self.counters.bind_groups.fetch_add(1, Ordering::Relaxed);
        self.device.create_bind_group(desc)
    }

    /// The bind group of the output's view for a compute pass that writes
    /// it (binding 0 of `layout`), made while a frame is recorded.
    pub fn output_bind_group(
        &self,
        layout: &wgpu::BindGroupLayout,
        view: &wgpu::TextureView,
    ) -> wgpu::BindGroup {
        self.counters
            .canvas_bind_groups
            .fetch_add(1, Ordering::Relaxed);
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("output image bind group"),
            layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(view),
            }],
        })
    }

    pub fn create_render_pipeline(
        &self,
        desc: &wgpu::RenderPipelineDescriptor<'_>,
    ) -> wgpu::RenderPipeline {
        self.counters.pipelines.fetch_add(1, Ordering::Relaxed);
        self.device.create_render_pipeline(desc)
    }

    pub fn create_compute_pipeline(
        &self,
        desc: &wgpu::ComputePipelineDescriptor<'_>,
    ) -> wgpu::ComputePipeline {
        self.counters.pipelines.fetch_add(1, Ordering::Relaxed);
        self.device.create_compute_pipeline(desc)
    }

    pub fn create_buffer(&self, desc: &wgpu::BufferDescriptor<'_>) -> wgpu::Buffer {
        self.counters.buffers.fetch_add(1, Ordering::Relaxed);
        self.device.create_buffer(desc)
    }

    pub fn create_sampler(&self, desc: &wgpu::SamplerDescriptor<'_>) -> wgpu::Sampler {
        self.counters.samplers.fetch_add(1, Ordering::Relaxed);
        self.device.create_sampler(desc)
    }

    pub fn create_bind_group_layout(
        &self,
        desc: &wgpu::BindGroupLayoutDescriptor<'_>,
    ) -> wgpu::BindGroupLayout {
        self.counters.layouts.fetch_add(1, Ordering::Relaxed);
        self.device.create_bind_group_layout(desc)
    }

    pub fn create_pipeline_layout(
        &self,
        desc: &wgpu::PipelineLayoutDescriptor<'_>,
    ) -> wgpu::PipelineLayout {
        self.counters.layouts.fetch_add(1, Ordering::Relaxed);
        self.device.create_pipeline_layout(desc)
    }

    pub fn create_shader_module(
        &self,
        desc: wgpu::ShaderModuleDescriptor<'_>,
    ) -> wgpu::ShaderModule {
        self.counters.shader_modules.fetch_add(1, Ordering::Relaxed);
        self.device.create_shader_module(desc)
    }

    pub fn create_query_set(&self, desc: &wgpu::QuerySetDescriptor<'_>) -> wgpu::QuerySet {
        self.counters.query_sets.fetch_add(1, Ordering::Relaxed);
        self.device.create_query_set(desc)
    }

    /// A view of the frame's canvas (or stand-in output) texture.
    pub fn create_canvas_view(
        &self,
        texture: &wgpu::Texture,
        desc: &wgpu::TextureViewDescriptor<'_>,
    ) -> wgpu::TextureView {
        self.counters.canvas_views.fetch_add(1, Ordering::Relaxed);
        texture.create_view(desc)
    }

    /// Counts a canvas texture wrapped for wgpu (created by the browser).
    pub fn count_canvas_texture(&self) {
        self.counters
            .canvas_textures
            .fetch_add(1, Ordering::Relaxed);
    }
}

/// Natively the adapter says whether transient attachments save memory; on
/// the web, the browser exposes `GPUTextureUsage.TRANSIENT_ATTACHMENT` when
/// it accepts the usage.
#[cfg(not(target_arch = "wasm32"))]
fn transient_supported(info: &wgpu::AdapterInfo) -> bool {
    info.transient_saves_memory == Some(true)
}

#[cfg(target_arch = "wasm32")]
fn transient_supported(_info: &wgpu::AdapterInfo) -> bool {
    let usage = js_sys::Reflect::get(&js_sys::global(), &"GPUTextureUsage".into())
        .unwrap_or(wasm_bindgen::JsValue::UNDEFINED);
    !usage.is_undefined()
        && js_sys::Reflect::get(&usage, &"TRANSIENT_ATTACHMENT".into())
            .map(|v| v.as_f64().is_some())
            .unwrap_or(false)
}

/// Whether `device` computes its largest images ([`Gpu::compute_images`]):
/// its adapter, described by `info`, is a GPU rather than a CPU's emulation
/// of one (a device of unknown adapter, a `PostChain` on the caller's
/// device, is taken for a GPU), and not one that draws into tiles. Natively
/// the tests set the field; in the browser they ask for either before
/// `create()` ([`force_compute_images`]), and the tiles still decide.
fn computes_images(device: &wgpu::Device, info: Option<&wgpu::AdapterInfo>) -> bool {
    #[cfg(all(test, target_arch = "wasm32"))]
    let forced = FORCED_COMPUTE.with(std::cell::Cell::get);
    #[cfg(not(all(test, target_arch = "wasm32")))]
    let forced = None;
    let gpu = forced.unwrap_or_else(|| info.is_none_or(|i| i.device_type != wgpu::DeviceType::Cpu));
    gpu && !tile_based(device)
}

/// The vendors (`GPUAdapterInfo.vendor`) whose GPUs draw into tiles of
/// on-chip memory: phones' and Apple's.
#[cfg(target_arch = "wasm32")]
const TILED: [&str; 5] = ["apple", "arm", "qualcomm", "imagination", "img-tec"];

/// Whether `device`'s GPU draws into tiles (its `adapterInfo`, where the
/// engine has one). There a full-resolution pass is best drawn: each tile
/// is written once, and a canvas with storage usage can lose its
/// framebuffer compression. Such a device draws its largest images as a
/// CPU's emulation does.
#[cfg(target_arch = "wasm32")]
fn tile_based(device: &wgpu::Device) -> bool {
    let Some(device) = device.as_webgpu() else {
        return false;
    };
    let info = crate::js::get(
        AsRef::<wasm_bindgen::JsValue>::as_ref(device),
        "adapterInfo",
    );
    let vendor = crate::js::get(&info, "vendor")
        .as_string()
        .unwrap_or_default();
    TILED.contains(&vendor.as_str())
}

/// Natively no device is told apart by its tiles.
#[cfg(not(target_arch = "wasm32"))]
fn tile_based(_device: &wgpu::Device) -> bool {
    false
}

#[cfg(all(test, target_arch = "wasm32"))]
thread_local! {
    static FORCED_COMPUTE: std::cell::Cell<Option<bool>> = const { std::cell::Cell::new(None) };
}

/// Devices wrapped from now on compute their largest images (`Some(true)`),
/// draw them (`Some(false)`), or choose by their adapter (`None`).
#[cfg(all(test, target_arch = "wasm32"))]
pub fn force_compute_images(forced: Option<bool>) {
    FORCED_COMPUTE.with(|f| f.set(forced));
}

#[cfg(target_arch = "wasm32")]
fn log_error(message: &str) {
    web_sys::console::error_1(&message.into());
}

#[cfg(not(target_arch = "wasm32"))]
fn log_error(message: &str) {
    eprintln!("{message}");
}

/// What a wgpu error says, in the browser's words: on the web wgpu wraps
/// the browser's error in Rust's debug formatting (`JsValue(OperationError:
/// …\n<stack>)`, or a quoted string), which a page should never see; the
/// wrapper, the stack after the first line and the quotes are taken off.
pub(crate) fn browser_reason(e: &impl std::fmt::Display) -> String {
    let text = e.to_string();
    let Some(inner) = text
        .strip_prefix("JsValue(")
        .and_then(|t| t.strip_suffix(')'))
    else {
        return text;
    };
    let first = inner.lines().next().unwrap_or("").trim();
    let unquoted = first
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(first);
    unquoted.to_string()
}

/// Whether the page runs in Firefox (its user agent names it; Firefox
/// on iOS, which is WebKit, calls itself FxiOS).
#[cfg(target_arch = "wasm32")]
fn in_firefox() -> bool {
    use crate::js::get;
    use wasm_bindgen::JsCast;
    let agent = get(&get(&js_sys::global(), "navigator"), "userAgent");
    agent
        .dyn_ref::<js_sys::JsString>()
        .is_some_and(|a| a.includes("Firefox/", 0))
}

/// `device.destroy()` once `device.queue.onSubmittedWorkDone()` settles
/// (see [`Gpu::destroy`]); at once where the queue cannot be asked.
#[cfg(target_arch = "wasm32")]
fn destroy_when_idle(device: wasm_bindgen::JsValue) {
    use crate::js::{call, get};
    use wasm_bindgen::JsCast;
    let done = call(&get(&device, "queue"), "onSubmittedWorkDone", &[])
        .ok()
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok());
    let Some(done) = done else {
        let _ = call(&device, "destroy", &[]);
        return;
    };
    wasm_bindgen_futures::spawn_local(async move {
        let _ = wasm_bindgen_futures::JsFuture::from(done).await;
        let _ = call(&device, "destroy", &[]);
    });
}

#[cfg(test)]
mod tests {
    use super::browser_reason;

    #[test]
    fn the_browsers_words_without_rust_formatting() {
        assert_eq!(
            browser_reason(&"JsValue(OperationError: consumed\nat f (x.js:1:2))"),
            "OperationError: consumed"
        );
        assert_eq!(
            browser_reason(&"JsValue(\"a plain string\")"),
            "a plain string"
        );
        assert_eq!(browser_reason(&"no adapter found"), "no adapter found");
    }
}

/// A future of the GPU's answer, not tied to a thread.
pub type Answer<T> = std::pin::Pin<Box<dyn std::future::Future<Output = T>>>;

/// The GPU's answer to a check made under an error scope of its own.
pub type ErrorAnswer = Answer<Option<wgpu::Error>>;

/// How a caller's colour texture is bound to be checked: every colour
/// format a caller's texture may have can be bound so.
pub const UNFILTERED: wgpu::BindingType = wgpu::BindingType::Texture {
    sample_type: wgpu::TextureSampleType::Float { filterable: false },
    view_dimension: wgpu::TextureViewDimension::D2,
    multisampled: false,
};

/// A bind group of `view` alone, as a fragment stage would sample it.
fn bind_alone(
    device: &wgpu::Device,
    view: &wgpu::TextureView,
    binding: wgpu::BindingType,
) -> (wgpu::BindGroupLayout, wgpu::BindGroup) {
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("texture check"),
        entries: &[wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::FRAGMENT,
            ty: binding,
            count: None,
        }],
    });
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("texture check"),
        layout: &layout,
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: wgpu::BindingResource::TextureView(view),
        }],
    });
    (layout, group)
}

/// Reads texel (0, 0) (its level or sample 0) of the bound texture, of
/// WGSL type `{}`, into a point.
const USE_CHECK_WGSL: [&str; 2] = [
    "@group(0) @binding(0) var t: ",
    ";
@vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0, 0.0, 0.0, 1.0); }
@fragment fn fs() -> @location(0) vec4f { return vec4f(textureLoad(t, vec2i(0), 0)); }",
];

/// Reads `view` in a draw of its own (one point) and
/// submits it under an error scope of its own: the answer is an error
/// when the texture cannot be used, as when its owner destroyed it. Asks
/// the GPU, never a message's wording. `depth`: how the view is bound
/// and its WGSL type (`None`: a colour texture; a depth texture's kind).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))] // the web renderer's
pub fn probe_texture_use(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    view: &wgpu::TextureView,
    depth: Option<crate::texture_rules::DepthKind>,
) -> ErrorAnswer {
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let (binding, ty) = match depth {
        Some(kind) => (kind.binding(), kind.wgsl_type()),
        None => (UNFILTERED, "texture_2d<f32>"),
    };
    let (layout, group) = bind_alone(device, view, binding);
    let wgsl = format!("{}{ty}{}", USE_CHECK_WGSL[0], USE_CHECK_WGSL[1]);
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("texture check"),
        source: wgpu::ShaderSource::Wgsl(wgsl.into()),
    });
    let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("texture check"),
        layout: Some(
            &device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("texture check"),
                bind_group_layouts: &[Some(&layout)],
                immediate_size: 0,
            }),
        ),
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        primitive: wgpu::PrimitiveState {
            topology: wgpu::PrimitiveTopology::PointList,
            ..Default::default()
        },
        depth_stencil: None,
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs"),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::TextureFormat::Rgba8Unorm.into())],
        }),
        multiview_mask: None,
        cache: None,
    });
    let target = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("texture check target"),
        size: wgpu::Extent3d {
            width: 1,
            height: 1,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    });
    let target_view = target.create_view(&Default::default());
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("texture check"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &target_view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                    store: wgpu::StoreOp::Discard,
                },
            })],
            ..Default::default()
        });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.draw(0..1, 0..1);
    }
    queue.submit([encoder.finish()]);
    target.destroy();
    Box::pin(scope.pop())
}
