//! Browser tests: run with `wasm-pack test --headless --chrome` against a
//! real WebGPU canvas. Pixels are read back from the canvas texture itself.
//! Every test ends by asserting that no uncaptured GPU error occurred.
#![allow(clippy::needless_range_loop)]

use crate::web::Renderer;
use crate::Content;
use js_sys::{Function, Object, Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

use super::common::*;

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

fn canvas(w: u32, h: u32) -> web_sys::HtmlCanvasElement {
    let c: web_sys::HtmlCanvasElement = document()
        .create_element("canvas")
        .unwrap()
        .unchecked_into();
    c.set_width(w);
    c.set_height(h);
    document().body().unwrap().append_child(&c).unwrap();
    c
}

fn opts(json: &str) -> JsValue {
    JSON::parse(json).unwrap()
}

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &key.into()).unwrap()
}

/// The context's own `getConfiguration()`, bypassing the renderer.
fn context_configuration(c: &JsValue) -> JsValue {
    let get_context: Function = get(c, "getContext").unchecked_into();
    let ctx = get_context.call1(c, &"webgpu".into()).unwrap();
    let get_configuration: Function = get(&ctx, "getConfiguration").unchecked_into();
    get_configuration.call0(&ctx).unwrap()
}

fn preferred_format() -> String {
    let gpu = get(&get(&js_sys::global(), "navigator"), "gpu");
    let f: Function = get(&gpu, "getPreferredCanvasFormat").unchecked_into();
    f.call0(&gpu).unwrap().as_string().unwrap()
}

/// Wraps the context's `getCurrentTexture()` to record every texture it
/// hands out (the same textures; behaviour unchanged).
fn spy_current_texture(c: &JsValue) -> js_sys::Array {
    let spy = Function::new_with_args(
        "canvas",
        "const ctx = canvas.getContext('webgpu'); const seen = [];
         const original = ctx.getCurrentTexture.bind(ctx);
         ctx.getCurrentTexture = () => { const t = original(); seen.push(t); return t; };
         return seen;",
    );
    spy.call1(&JsValue::NULL, c).unwrap().unchecked_into()
}

async fn create(c: &JsValue, options: &str) -> Renderer {
    match Renderer::create(c.clone(), Some(opts(options))).await {
        Ok(r) => r,
        Err(e) => panic!("create failed: {}", message(&e)),
    }
}

fn message(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .unwrap_or_else(|| format!("not an Error: {e:?}"))
}

/// Asserts that `result` is a JS `Error` whose message contains every
/// needle; returns it.
fn assert_error<T>(result: Result<T, JsValue>, needles: &[&str]) -> JsValue {
    let e = match result {
        Ok(_) => panic!("expected an error mentioning {needles:?}"),
        Err(e) => e,
    };
    assert!(e.is_instance_of::<js_sys::Error>(), "not an Error: {e:?}");
    let m = message(&e);
    for n in needles {
        assert!(m.contains(n), "error {m:?} does not mention {n:?}");
    }
    e
}

const DTS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/src/web/afterglow.d.ts"
));

/// Asserts that `e` is an `Error` named `name` whose own fields are the
/// ones its TypeScript interface declares, in order, and that `fields`
/// (name, value as JSON) have those values.
fn assert_kind(e: &JsValue, name: &str, fields: &[(&str, &str)]) {
    assert!(e.is_instance_of::<js_sys::Error>(), "not an Error: {e:?}");
    assert_eq!(
        get(e, "name").as_string().as_deref(),
        Some(name),
        "{}",
        message(e)
    );
    let start = DTS
        .find(&format!("export interface {name} extends Error {{"))
        .unwrap_or_else(|| panic!("{name} is not declared"));
    let body = &DTS[start..start + DTS[start..].find("\n}").unwrap()];
    let declared: Vec<&str> = body
        .lines()
        .filter_map(|l| l.strip_prefix("  "))
        .filter(|l| !l.starts_with(['/', '*', ' ']))
        .filter_map(|l| l.split_once(':').map(|(k, _)| k))
        .filter(|k| *k != "name")
        .collect();
    let own: Vec<String> = Object::keys(e.unchecked_ref::<Object>())
        .iter()
        .filter_map(|k| k.as_string())
        .filter(|k| k != "name")
        .collect();
    assert_eq!(own, declared, "fields of {name}: {}", message(e));
    for (field, json) in fields {
        let value = JSON::stringify(&get(e, field)).unwrap();
        assert_eq!(
            value.as_string().as_deref(),
            Some(*json),
            "{name}.{field}: {}",
            message(e)
        );
    }
}

/// [`assert_error`], then [`assert_kind`].
fn assert_error_kind<T>(
    result: Result<T, JsValue>,
    needles: &[&str],
    name: &str,
    fields: &[(&str, &str)],
) -> JsValue {
    let e = assert_error(result, needles);
    assert_kind(&e, name, fields);
    e
}

/// No uncaptured GPU error happened during the test.
fn assert_no_gpu_errors(r: &Renderer) {
    let (count, last) = r
        .with_gpu(|g| (g.error_count(), g.last_error()))
        .expect("renderer alive");
    assert_eq!(count, 0, "uncaptured GPU error: {last:?}");
}

/// Waits until the browser has presented a frame (the current canvas
/// texture expires then).
async fn next_frame() {
    let raf = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .request_animation_frame(&resolve)
            .unwrap();
    });
    JsFuture::from(raf).await.unwrap();
    let timeout = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0)
            .unwrap();
    });
    JsFuture::from(timeout).await.unwrap();
}

/// The renderer's `GPUDevice`.
fn device_of(r: &Renderer) -> JsValue {
    r.with_gpu(|g| g.device.as_webgpu().unwrap().clone())
        .unwrap()
        .into()
}

/// Loses the renderer's device behind its back, as a driver reset would,
/// between two frames: once the frame last rendered has been presented and
/// the work submitted is done, and returning once the browser says the
/// device is lost. Firefox (153) stops the page's animation frames for good
/// when a device is destroyed while a frame of its canvas is being
/// presented, or when frames are presented from a destroyed device before
/// its `lost` promise settles (which there takes a few frames); either
/// would stop the test, not the renderer.
async fn lose_device(r: &Renderer) -> JsValue {
    next_frame().await;
    let device = device_of(r);
    let queue = get(&device, "queue");
    let done: Function = get(&queue, "onSubmittedWorkDone").unchecked_into();
    JsFuture::from(js_sys::Promise::from(done.call0(&queue).unwrap()))
        .await
        .unwrap();
    let destroy: Function = get(&device, "destroy").unchecked_into();
    destroy.call0(&device).unwrap();
    JsFuture::from(js_sys::Promise::from(get(&device, "lost")))
        .await
        .unwrap();
    device
}

/// Holds the next buffer mapping (a screenshot's read back) until the
/// renderer's device is lost, so that the loss comes while the mapping is
/// pending in every engine. Destroying a device while its copy is still
/// being read closes the tab in Firefox (153).
async fn hold_mapping_until_lost(r: &Renderer) {
    js(
        "const map = GPUBuffer.prototype.mapAsync;
         GPUBuffer.prototype.mapAsync = function (...args) {
           GPUBuffer.prototype.mapAsync = map;
           return arg.lost.then(() => map.apply(this, args));
         };",
        &device_of(r),
    )
    .await;
}

/// Makes the next `out-of-memory` error scope popped answer with a
/// `GPUOutOfMemoryError`, as a GPU that cannot allocate does; returns an
/// object whose `restore()` puts the scopes back.
async fn out_of_memory_once() -> JsValue {
    js(
        "const push = GPUDevice.prototype.pushErrorScope;
         const pop = GPUDevice.prototype.popErrorScope;
         const filters = new WeakMap();
         let armed = true;
         GPUDevice.prototype.pushErrorScope = function (filter) {
           if (!filters.has(this)) filters.set(this, []);
           filters.get(this).push(filter);
           return push.call(this, filter);
         };
         GPUDevice.prototype.popErrorScope = function () {
           const filter = filters.get(this)?.pop();
           const answer = pop.call(this);
           if (!armed || filter !== 'out-of-memory') return answer;
           armed = false;
           return answer.then(() => new GPUOutOfMemoryError('not enough memory for the test'));
         };
         return { restore() {
           GPUDevice.prototype.pushErrorScope = push;
           GPUDevice.prototype.popErrorScope = pop;
         } };",
        &JsValue::NULL,
    )
    .await
}

async fn read(r: &Renderer) -> crate::readback::Image {
    match r.render_and_read(0.0).await {
        Ok(img) => img,
        Err(e) => panic!("readback failed: {e}"),
    }
}

#[wasm_bindgen_test]
async fn preferred_format_configures_all_seven_fields() {
    let c = canvas(64, 32);
    let r = exact(&c).await;
    let cfg = context_configuration(&c);
    let preferred = preferred_format();
    let device = r
        .with_gpu(|g| g.device.as_webgpu().unwrap().clone())
        .unwrap();
    assert!(Object_is(&get(&cfg, "device"), device.as_ref()), "device");
    assert_eq!(
        get(&cfg, "format").as_string().unwrap(),
        preferred,
        "format"
    );
    assert_eq!(
        get(&cfg, "usage").as_f64(),
        Some((0x10 | 0x01 | storage_bit(&r, &preferred)) as f64),
        "usage"
    );
    let views = js_sys::Array::from(&get(&cfg, "viewFormats"));
    if storage_bit(&r, &preferred) == 0 {
        assert_eq!(views.length(), 1);
        assert_eq!(
            views.get(0).as_string().unwrap(),
            format!("{preferred}-srgb"),
            "viewFormats"
        );
    } else {
        // Written as storage, encoded by the shader: no -srgb view.
        assert_eq!(views.length(), 0, "viewFormats");
    }
    // Where the engine's configuration keeps them (Firefox's has no
    // colorSpace and no toneMapping).
    if engine_keeps("colorSpace", "'srgb'").await {
        assert_eq!(get(&cfg, "colorSpace").as_string().unwrap(), "srgb");
    }
    if engine_keeps("toneMapping", "{ mode: 'standard' }").await {
        assert_eq!(
            get(&get(&cfg, "toneMapping"), "mode").as_string().unwrap(),
            "standard"
        );
    }
    assert_eq!(get(&cfg, "alphaMode").as_string().unwrap(), "opaque");
    // configuration() reports the same, plus the size.
    let mine = r.configuration().unwrap();
    assert_eq!(get(&mine, "format").as_string().unwrap(), preferred);
    assert_eq!(get(&mine, "width").as_f64(), Some(64.0));
    assert_no_gpu_errors(&r);
}

#[allow(non_snake_case)]
fn Object_is(a: &JsValue, b: &JsValue) -> bool {
    js_sys::Object::is(a, b)
}

/// `STORAGE_BINDING` where `r`'s composite writes a canvas of `format` as
/// compute (a device that computes its largest images, and a format
/// storage allows: `OutputSpec::written_by_compute`), else nothing.
fn storage_bit(r: &Renderer, format: &str) -> u32 {
    let computes = r.with_gpu(|g| g.compute_images).expect("renderer alive");
    match format {
        "rgba8unorm" | "rgba16float" if computes => 0x08,
        _ => 0,
    }
}

/// A GPU that draws into tiles (a phone's, Apple's: known by its device's
/// `adapterInfo.vendor`) draws its largest images, as an emulation does;
/// another GPU computes them.
#[wasm_bindgen_test]
async fn a_tile_based_gpu_draws_its_largest_images() {
    let mut computes = Vec::new();
    for vendor in ["arm", "apple", "nvidia"] {
        // The engine's own attribute, put back below (undefined where it has none).
        let own = js(
            "const own = Object.getOwnPropertyDescriptor(GPUDevice.prototype, 'adapterInfo');
             Object.defineProperty(GPUDevice.prototype, 'adapterInfo', {
               configurable: true, get() { return { vendor: arg }; } });
             return own;",
            &vendor.into(),
        )
        .await;
        crate::gpu::force_compute_images(Some(true));
        let created = Renderer::create(canvas(16, 16).into(), None).await;
        crate::gpu::force_compute_images(None);
        js(
            "delete GPUDevice.prototype.adapterInfo;
             if (arg) Object.defineProperty(GPUDevice.prototype, 'adapterInfo', arg);",
            &own,
        )
        .await;
        let r = created.unwrap_or_else(|e| panic!("create failed: {}", message(&e)));
        r.render(None).unwrap();
        computes.push(r.with_gpu(|g| g.compute_images).expect("renderer alive"));
        assert_no_gpu_errors(&r);
        r.destroy().unwrap();
    }
    assert_eq!(computes, [false, false, true]);
}

/// A renderer on a device that computes its largest images (as a GPU's
/// does; the emulations the tests run on draw them) writes the pixels one
/// that draws them writes, within one 8-bit step (the -srgb view's rounding
/// against the shader's own encoding), with bloom, AgX, dither and MSAA on;
/// its canvas is configured for storage where the format allows, without
/// the -srgb view, and no GPU error happens.
#[wasm_bindgen_test]
async fn a_device_that_computes_writes_what_one_that_draws_writes() {
    let options = r#"{"canvas":{"screenshots":true}}"#;
    crate::gpu::force_compute_images(Some(true));
    let (a, b) = (canvas(96, 64), canvas(96, 64));
    let computed = create(&a, options).await;
    crate::gpu::force_compute_images(Some(false));
    let drawn = create(&b, options).await;
    crate::gpu::force_compute_images(None);
    for r in [&computed, &drawn] {
        r.set_content(Content::DemoScene).unwrap();
    }
    let (x, y) = (read(&computed).await, read(&drawn).await);
    let worst = x
        .data
        .iter()
        .zip(&y.data)
        .map(|(p, q)| p.abs_diff(*q))
        .max();
    assert!(
        worst.is_some_and(|w| w <= 1),
        "largest difference {worst:?}/255"
    );
    let preferred = preferred_format();
    let storage = storage_bit(&computed, &preferred);
    assert_eq!(storage_bit(&drawn, &preferred), 0);
    assert_eq!(storage == 0, preferred == "bgra8unorm", "{preferred}");
    let cfg = context_configuration(&a);
    assert_eq!(
        get(&cfg, "usage").as_f64(),
        Some((0x10 | 0x01 | storage) as f64)
    );
    let views = js_sys::Array::from(&get(&cfg, "viewFormats")).length();
    assert_eq!(views, if storage == 0 { 1 } else { 0 }, "viewFormats");
    assert_no_gpu_errors(&computed);
    assert_no_gpu_errors(&drawn);
}

#[wasm_bindgen_test]
async fn usage_is_render_attachment_and_storage_where_written_so_without_screenshots() {
    let c = canvas(16, 16);
    let r = create(&c, "{}").await;
    assert_eq!(
        get(&context_configuration(&c), "usage").as_f64(),
        Some((0x10 | storage_bit(&r, &preferred_format())) as f64)
    );
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn rgba16float_configures_hdr_fields() {
    let c = canvas(32, 32);
    let Some(r) = create_or_refused(
        &c,
        r#"{"canvas":{"format":"rgba16float","colorSpace":"display-p3","toneMapping":"extended","alphaMode":"premultiplied"}}"#,
    )
    .await else {
        return;
    };
    let cfg = context_configuration(&c);
    assert_eq!(get(&cfg, "format").as_string().unwrap(), "rgba16float");
    assert_eq!(
        js_sys::Array::from(&get(&cfg, "viewFormats")).length(),
        0,
        "no -srgb twin"
    );
    let usage = 0x10 | storage_bit(&r, "rgba16float");
    assert_eq!(get(&cfg, "usage").as_f64(), Some(usage as f64));
    assert_eq!(get(&cfg, "colorSpace").as_string().unwrap(), "display-p3");
    assert_eq!(
        get(&get(&cfg, "toneMapping"), "mode").as_string().unwrap(),
        "extended"
    );
    assert_eq!(get(&cfg, "alphaMode").as_string().unwrap(), "premultiplied");
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn extended_tone_mapping_needs_rgba16float() {
    let c = canvas(8, 8);
    assert_error_kind(
        Renderer::create(
            c.into(),
            Some(opts(r#"{"canvas":{"toneMapping":"extended"}}"#)),
        )
        .await,
        &["canvas.toneMapping", "rgba16float"],
        "OptionError",
        &[
            ("option", r#""canvas.toneMapping""#),
            ("allowed", r#"["standard"]"#),
        ],
    );
}

#[wasm_bindgen_test]
async fn every_frame_fetches_the_current_texture() {
    let c = canvas(32, 32);
    let r = create(&c, "{}").await;
    let seen = spy_current_texture(&c);
    for i in 0..3 {
        r.render(Some(JsValue::from(i as f64 / 60.0))).unwrap();
        next_frame().await;
    }
    assert_eq!(seen.length(), 3, "one getCurrentTexture() per frame");
    // Whether the texture is a new object each frame is the engine's
    // choice (Chromium's is, Firefox 153 hands the same object back); each
    // frame asks for it.
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn linear_half_reads_back_as_188() {
    let c = canvas(40, 30);
    let r = exact(&c).await;
    r.set_content(Content::Solid([0.5, 0.5, 0.5, 1.0])).unwrap();
    let img = read(&r).await;
    assert_eq!((img.width, img.height), (40, 30));
    for (x, y) in [(0, 0), (39, 29), (20, 15)] {
        let p = img.rgba8(x, y);
        for ch in 0..3 {
            assert_close(p[ch], 188, 2, &format!("channel {ch} at {x},{y}"));
        }
    }
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn rgba16float_canvas_is_encoded_once_by_the_shader() {
    let c = canvas(16, 16);
    let Some(r) = create_or_refused(
        &c,
        r#"{"canvas":{"format":"rgba16float","screenshots":true},"tonemapper":"none","bloom":{"enabled":false}}"#,
    )
    .await else {
        return;
    };
    r.set_content(Content::Solid([0.5, 0.5, 0.5, 1.0])).unwrap();
    let img = read(&r).await;
    assert_eq!(img.format, wgpu::TextureFormat::Rgba16Float);
    let p = img.rgba_f32(8, 8);
    for ch in 0..3 {
        assert!((p[ch] - 0.7354).abs() < 0.002, "channel {ch}: {}", p[ch]);
    }
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn premultiplied_gives_alpha_zero_where_transparent() {
    let c = canvas(16, 16);
    let r = create(
        &c,
        r#"{"canvas":{"alphaMode":"premultiplied","screenshots":true}}"#,
    )
    .await;
    r.set_content(Content::Solid([0.0, 0.0, 0.0, 0.0])).unwrap();
    assert_eq!(read(&r).await.rgba8(5, 5), [0, 0, 0, 0]);
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn opaque_gives_alpha_255_where_transparent() {
    let c = canvas(16, 16);
    let r = create(
        &c,
        r#"{"canvas":{"alphaMode":"opaque","screenshots":true}}"#,
    )
    .await;
    r.set_content(Content::Solid([0.0, 0.0, 0.0, 0.0])).unwrap();
    assert_eq!(read(&r).await.rgba8(5, 5)[3], 255);
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn resize_changes_the_canvas_and_the_next_frame() {
    let c = canvas(32, 32);
    let r = exact(&c).await;
    r.set_content(Content::Solid([0.5, 0.5, 0.5, 1.0])).unwrap();
    read(&r).await;
    r.resize(JsValue::from(200), JsValue::from(120)).unwrap();
    assert_eq!((c.width(), c.height()), (200, 120));
    let img = read(&r).await;
    assert_eq!((img.width, img.height), (200, 120));
    assert_close(img.rgba8(199, 119)[1], 188, 2, "corner after resize");
    assert_eq!(
        get(&r.configuration().unwrap(), "width").as_f64(),
        Some(200.0)
    );
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn zero_size_renders_nothing_and_throws_nothing() {
    let c = canvas(32, 32);
    let r = exact(&c).await;
    let seen = spy_current_texture(&c);
    r.resize(JsValue::from(0), JsValue::from(0)).unwrap();
    r.render(Some(JsValue::from(0.5))).unwrap();
    r.render(Some(JsValue::from(1.0))).unwrap();
    assert_eq!(seen.length(), 0, "a 0×0 renderer must not touch the canvas");
    r.resize(JsValue::from(24), JsValue::from(0)).unwrap();
    r.render(Some(JsValue::from(1.5))).unwrap();
    assert_eq!(seen.length(), 0);
    r.resize(JsValue::from(24), JsValue::from(12)).unwrap();
    let img = read(&r).await;
    assert_eq!((img.width, img.height), (24, 12));
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn bad_sizes_are_refused_and_the_renderer_keeps_working() {
    let c = canvas(32, 32);
    let r = exact(&c).await;
    let max = r.with_gpu(|g| g.max_texture_size()).unwrap();
    assert_error_kind(
        r.resize(JsValue::from(max + 1), JsValue::from(10)),
        &["width", "maxTextureDimension2D", &max.to_string()],
        "ArgumentError",
        &[("argument", r#""width""#)],
    );
    assert_error_kind(
        r.resize(JsValue::from(10), JsValue::from(f64::NAN)),
        &["height", "NaN"],
        "ArgumentError",
        &[("argument", r#""height""#)],
    );
    assert_error(
        r.resize(JsValue::from(-1), JsValue::from(10)),
        &["width", "-1"],
    );
    assert_error(r.resize(JsValue::from(10.5), JsValue::from(10)), &["width"]);
    assert_error(
        r.resize(JsValue::from("100"), JsValue::from(10)),
        &["width", "'100'"],
    );
    assert_error(
        r.resize(JsValue::UNDEFINED, JsValue::from(10)),
        &["width", "undefined"],
    );
    assert_eq!(
        (c.width(), c.height()),
        (32, 32),
        "a refused resize changes nothing"
    );
    r.set_content(Content::Solid([0.5, 0.5, 0.5, 1.0])).unwrap();
    assert_close(read(&r).await.rgba8(1, 1)[0], 188, 2, "still rendering");
    assert_no_gpu_errors(&r);
}

/// A size within the device's limits whose targets do not fit in its
/// memory (8192×8192 with msaa 4: 2 GiB for the multisampled target alone,
/// more than SwiftShader allocates at once; the answer is the test's, see
/// below) is accepted, since WebGPU says so only after the textures were
/// made. The next render() once it
/// has throws a DeviceError naming the size; the invalid frames before it
/// reach no error handler; a smaller size renders again.
#[wasm_bindgen_test]
async fn a_size_the_gpu_cannot_hold_is_reported_and_a_smaller_one_renders() {
    let c = canvas(32, 32);
    let r = exact(&c).await;
    set(&r, r#"{"msaa":4}"#);
    assert!(r.with_gpu(|g| g.max_texture_size()).unwrap() >= 8192);
    // Whether 8192×8192 with MSAA fits depends on the machine (Firefox on
    // lavapipe holds it), so the GPU's answer to the resize's out-of-memory
    // scope is given by the test.
    let scopes = out_of_memory_once().await;
    r.resize(JsValue::from(8192), JsValue::from(8192)).unwrap();
    // An option that changes no target, set before the answer came: the
    // answer still stands for the targets in use.
    set(&r, r#"{"exposure":1.5}"#);
    Function::from(get(&scopes, "restore"))
        .call0(&JsValue::NULL)
        .unwrap();
    next_frame().await;
    let mut refused = None;
    for _ in 0..600 {
        match r.render(None) {
            Err(e) => {
                refused = Some(e);
                break;
            }
            Ok(()) => next_frame().await,
        }
    }
    let e = refused.expect("render() never said the targets did not fit");
    assert_kind(&e, "DeviceError", &[("reason", r#""out-of-memory""#)]);
    assert!(
        message(&e).contains("8192×8192") && message(&e).contains("msaa 4"),
        "{}",
        message(&e)
    );
    assert!(
        r.render(None).is_err(),
        "a frame at the size that did not fit"
    );
    r.resize(JsValue::from(32), JsValue::from(32)).unwrap();
    set(&r, r#"{"exposure":1}"#);
    r.set_content(Content::Solid([0.5, 0.5, 0.5, 1.0])).unwrap();
    assert_close(read(&r).await.rgba8(1, 1)[0], 188, 2, "rendering again");
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn bad_render_times_are_refused() {
    let c = canvas(8, 8);
    let r = create(&c, "{}").await;
    assert_error_kind(
        r.render(Some(JsValue::from(f64::NAN))),
        &["timeSeconds", "NaN"],
        "ArgumentError",
        &[("argument", r#""timeSeconds""#)],
    );
    assert_error(
        r.render(Some(JsValue::from(f64::INFINITY))),
        &["timeSeconds", "Infinity"],
    );
    assert_error(r.render(Some(JsValue::from("1"))), &["timeSeconds"]);
    r.render(Some(JsValue::UNDEFINED)).unwrap();
    r.render(None).unwrap();
    r.render(Some(JsValue::from(2.5))).unwrap();
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn destroy_unconfigures_and_later_calls_throw() {
    let c = canvas(16, 16);
    let r = create(&c, "{}").await;
    r.render(Some(JsValue::from(0.0))).unwrap();
    assert_no_gpu_errors(&r);
    r.destroy().unwrap();
    assert!(
        context_configuration(&c).is_null(),
        "getConfiguration() after unconfigure()"
    );
    assert_error_kind(
        r.render(Some(JsValue::from(0.0))),
        &["render()", "destroy()"],
        "StateError",
        &[("method", r#""render""#), ("state", r#""destroyed""#)],
    );
    assert_error(
        r.resize(JsValue::from(8), JsValue::from(8)),
        &["resize()", "destroy()"],
    );
    assert_error(r.configuration(), &["configuration()", "destroy()"]);
    assert_error(r.destroy(), &["destroy()"]);
    // The canvas can be used again by a new renderer.
    let r2 = create(&c, "{}").await;
    assert_no_gpu_errors(&r2);
}

#[wasm_bindgen_test]
async fn bad_options_are_rejected_with_the_field_named() {
    let cases: &[(&str, &[&str])] = &[
        (r#"{"canvsa":{}}"#, &["canvsa", "'canvas'"]),
        (
            r#"{"canvas":{"alpha":"opaque"}}"#,
            &["canvas.alpha", "alphaMode"],
        ),
        (
            r#"{"canvas":{"alphaMode":"postmultiplied"}}"#,
            &["canvas.alphaMode", "'opaque', 'premultiplied'"],
        ),
        (
            r#"{"canvas":{"format":"bgra8unorm"}}"#,
            &["canvas.format", "'preferred', 'rgba16float'"],
        ),
        (
            r#"{"canvas":{"colorSpace":"rec2020"}}"#,
            &["canvas.colorSpace", "'display-p3'"],
        ),
        (
            r#"{"canvas":{"toneMapping":{"mode":"extended"}}}"#,
            &["canvas.toneMapping", "an object"],
        ),
        (
            r#"{"canvas":{"screenshots":"yes"}}"#,
            &["canvas.screenshots", "true or false"],
        ),
        (
            r#"{"canvas":[]}"#,
            &["canvas", "must be an object", "an array"],
        ),
        ("42", &["options", "must be an object"]),
    ];
    for (json, needles) in cases {
        let c = canvas(8, 8);
        let e = assert_error(Renderer::create(c.into(), Some(opts(json))).await, needles);
        if *json == "42" {
            // The options argument itself is not an object.
            assert_kind(&e, "ArgumentError", &[("argument", r#""options""#)]);
        } else {
            let option = format!("\"{}\"", needles[0]);
            assert_kind(&e, "OptionError", &[("option", &option)]);
        }
    }
    // What is allowed: the keys for an unknown key, the values for a choice.
    let e = assert_error(
        Renderer::create(canvas(8, 8).into(), Some(opts(r#"{"canvsa":{}}"#))).await,
        &[],
    );
    let keys: Vec<String> = crate::options::table::keys_of("")
        .iter()
        .map(|k| format!("{k:?}"))
        .collect();
    let keys = format!("[{}]", keys.join(","));
    assert!(keys.starts_with(r#"["canvas","msaa","#), "{keys}");
    assert_kind(&e, "OptionError", &[("allowed", &keys)]);
    let e = assert_error(
        Renderer::create(
            canvas(8, 8).into(),
            Some(opts(r#"{"canvas":{"colorSpace":"rec2020"}}"#)),
        )
        .await,
        &[],
    );
    assert_kind(
        &e,
        "OptionError",
        &[("allowed", r#"["srgb","display-p3"]"#)],
    );
    let e = assert_error(
        Renderer::create(canvas(8, 8).into(), Some(opts(r#"{"canvas":[]}"#))).await,
        &[],
    );
    assert_kind(&e, "OptionError", &[("allowed", r#""an object""#)]);
    // Not a canvas at all.
    let div = document().create_element("div").unwrap();
    assert_error_kind(
        Renderer::create(div.into(), None).await,
        &["canvas", "HTMLDivElement"],
        "ArgumentError",
        &[("argument", r#""canvas""#)],
    );
    assert_error_kind(
        Renderer::create(JsValue::NULL, None).await,
        &["canvas", "null"],
        "ArgumentError",
        &[("argument", r#""canvas""#)],
    );
    // A canvas that already has a 2d context.
    let taken = canvas(8, 8);
    taken.get_context("2d").unwrap();
    assert_error_kind(
        Renderer::create(taken.into(), None).await,
        &["another kind of context"],
        "CanvasError",
        &[],
    );
}

#[wasm_bindgen_test]
async fn the_demo_scene_is_lit_and_animated() {
    let c = canvas(96, 64);
    let r = create(&c, r#"{"canvas":{"screenshots":true}}"#).await;
    let a = r.render_and_read(0.0).await.unwrap();
    let b = r.render_and_read(1.0).await.unwrap();
    check_lit_and_animated(&a, &b);
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn offscreen_canvas_works() {
    let c = web_sys::OffscreenCanvas::new(20, 10).unwrap();
    let r = exact(&c).await;
    r.set_content(Content::Solid([0.5, 0.5, 0.5, 1.0])).unwrap();
    let img = read(&r).await;
    assert_eq!((img.width, img.height), (20, 10));
    assert_close(img.rgba8(3, 3)[2], 188, 2, "offscreen");
    assert_no_gpu_errors(&r);
}

// ---- The HDR chain, read back from the canvas ----

/// Options for measuring light on an rgba16float canvas: nothing clamped,
/// no curve, no MSAA, no dither; `bloom` is spliced in.
fn measuring(bloom: &str) -> String {
    format!(
        r#"{{"canvas":{{"format":"rgba16float","toneMapping":"extended","screenshots":true}},
            "msaa":1,"tonemapper":"none","dither":false,"bloom":{bloom}}}"#
    )
}

/// Whether this engine's canvas configuration keeps `key` (`colorSpace`,
/// `toneMapping`) as configured with `value` (JSON) on an 8-bit canvas.
/// Firefox's keeps neither.
async fn engine_keeps(key: &str, value: &str) -> bool {
    js(
        &format!(
            "return (async () => {{
               const device = await (await navigator.gpu.requestAdapter()).requestDevice();
               const c = new OffscreenCanvas(1, 1).getContext('webgpu');
               c.configure({{ device, format: 'rgba8unorm', {key}: {value} }});
               const kept = JSON.stringify(c.getConfiguration().{key}) === JSON.stringify({value});
               c.unconfigure();
               device.destroy();
               return kept;
             }})();"
        ),
        &JsValue::NULL,
    )
    .await
    .as_bool()
    .unwrap_or(false)
}

/// A renderer with `options`, which ask for an `rgba16float` canvas (the
/// suite's instrument for measuring light unclamped). On an engine without
/// one, `None`, once what afterglow does there is checked: `create`
/// refuses with a `CanvasError` naming the format.
async fn float_renderer(c: &JsValue, options: &str) -> Option<Renderer> {
    let created = Renderer::create(c.clone(), Some(opts(options))).await;
    if engine_has_float_canvas().await {
        return Some(created.unwrap_or_else(|e| panic!("create failed: {}", message(&e))));
    }
    let Err(e) = created else {
        panic!("an engine without an rgba16float canvas was given one: {options}")
    };
    assert_kind(&e, "CanvasError", &[]);
    assert!(message(&e).contains("'rgba16float'"), "{}", message(&e));
    None
}

/// [`create`], or [`float_renderer`] where `options` ask for an
/// `rgba16float` canvas.
async fn create_or_refused(c: &JsValue, options: &str) -> Option<Renderer> {
    if options.contains("rgba16float") {
        float_renderer(c, options).await
    } else {
        Some(create(c, options).await)
    }
}

/// `setOptions(json)`, which asks for an `rgba16float` canvas: `true` once
/// applied; on an engine without one, `false` once what afterglow does is
/// checked (a `CanvasError` naming the format, and the renderer still
/// rendering).
async fn set_float(r: &Renderer, json: &str) -> bool {
    if engine_has_float_canvas().await {
        set(r, json);
        return true;
    }
    let e = r.set_options(opts(json)).unwrap_err();
    assert_kind(&e, "CanvasError", &[]);
    assert!(message(&e).contains("'rgba16float'"), "{}", message(&e));
    read(r).await;
    assert_no_gpu_errors(r);
    false
}

/// Renders `content` with `options` (see [`float_renderer`] where they ask
/// for an `rgba16float` canvas: `None` on an engine without one).
async fn render_content(
    c: &JsValue,
    options: &str,
    content: Content,
) -> Option<(Renderer, crate::readback::Image)> {
    let r = if options.contains("rgba16float") {
        float_renderer(c, options).await?
    } else {
        create(c, options).await
    };
    r.set_content(content).unwrap();
    let img = read(&r).await;
    assert_no_gpu_errors(&r);
    Some((r, img))
}

/// Auto exposure in the browser: compute passes meter a scene of radiance
/// 4 down to mid grey, the frame shows it, `stats().exposureEv` reports it
/// (read back a few frames late), and `resetExposure()` jumps after a change.
#[wasm_bindgen_test]
async fn auto_exposure_meters_the_scene_to_mid_grey() {
    let c = canvas(64, 64);
    let options = r#"{"canvas":{"format":"rgba16float","toneMapping":"extended","screenshots":true},
        "msaa":1,"tonemapper":"none","dither":false,"bloom":{"enabled":false},
        "autoExposure":{"enabled":true,"speedBrighten":2,"speedDarken":2}}"#;
    let Some(r) = create_or_refused(&c, options).await else {
        return;
    };
    r.set_content(Content::Solid([4.0, 4.0, 4.0, 1.0])).unwrap();
    let ev = |r: &Renderer| {
        let stats = js_sys::Reflect::get(&r.stats(None).unwrap(), &"exposureEv".into()).unwrap();
        stats.as_f64()
    };
    let mut level = 0.0;
    for n in 0..8 {
        let img = match r.render_and_read(n as f64 / 60.0).await {
            Ok(img) => img,
            Err(e) => panic!("readback failed: {e}"),
        };
        level = srgb_decode(img.rgba_f32(32, 32)[1]);
    }
    assert!((level - 0.18).abs() < 0.01, "metered to mid grey: {level}");
    let expected = (0.18f64 / 4.0).log2();
    let reported = ev(&r).expect("exposureEv once read back");
    assert!(
        (reported - expected).abs() < 0.05,
        "exposureEv {reported}, expected {expected}"
    );
    // Four times darker: adapting at 2 EV/s takes a second; a reset jumps.
    r.set_content(Content::Solid([1.0, 1.0, 1.0, 1.0])).unwrap();
    r.reset_exposure().unwrap();
    let img = match r.render_and_read(9.0 / 60.0).await {
        Ok(img) => img,
        Err(e) => panic!("readback failed: {e}"),
    };
    let level = srgb_decode(img.rgba_f32(32, 32)[1]);
    assert!((level - 0.18).abs() < 0.01, "jumped to mid grey: {level}");
    assert_no_gpu_errors(&r);
}

/// On an extended float canvas AgX keeps its SDR picture and rolls the
/// highlights off up to `canvas.headroom`, read back from the canvas
/// texture: a grey ramp from radiance 1e-3 to 1e4 at headroom 1 and 4.
#[wasm_bindgen_test]
async fn the_curve_reaches_the_headroom_on_a_float_canvas() {
    let ramp = |x: u32, _| {
        let r = 10f32.powf(-3.0 + 7.0 * x as f32 / 127.0);
        [r, r, r, 1.0]
    };
    let mut frames = Vec::new();
    for headroom in [1, 4] {
        let c = canvas(128, 1);
        let options = format!(
            r#"{{"canvas":{{"format":"rgba16float","toneMapping":"extended","screenshots":true,
                "headroom":{headroom}}},"msaa":1,"tonemapper":"agx","dither":false,
                "bloom":{{"enabled":false}}}}"#
        );
        let Some((_r, img)) = render_content(&c, &options, pixels(128, 1, ramp)).await else {
            return;
        };
        frames.push(
            (0..128)
                .map(|x| srgb_decode(img.rgba_f32(x, 0)[0]))
                .collect::<Vec<_>>(),
        );
    }
    let (sdr, hdr) = (&frames[0], &frames[1]);
    for x in 0..128 {
        assert!(sdr[x] <= 1.001, "x {x}: SDR {}", sdr[x]);
        if sdr[x] < 0.8 {
            assert!(
                (sdr[x] - hdr[x]).abs() <= 1e-3 * sdr[x].max(0.01),
                "x {x}: {} → {}",
                sdr[x],
                hdr[x]
            );
        }
        if x > 0 {
            assert!(
                hdr[x] >= hdr[x - 1] - 2e-3,
                "x {x}: {} after {}",
                hdr[x],
                hdr[x - 1]
            );
        }
    }
    assert!(
        hdr[127] >= 0.95 * 4.0 && hdr[127] <= 4.01,
        "brightest {}",
        hdr[127]
    );
}

#[wasm_bindgen_test]
async fn a_bright_pixel_gets_a_symmetric_falling_halo() {
    for (blur, extra) in [("mip", ""), ("gaussian", r#","iterations":8,"radius":2"#)] {
        let c = canvas(128, 128);
        let options = measuring(&format!(r#"{{"intensity":1,"blur":"{blur}"{extra}}}"#));
        let Some((_r, img)) =
            render_content(&c, &options, bright_pixel(128, (65, 65), 200.0)).await
        else {
            return;
        };
        check_halo(&img, 65, blur);
    }
}

/// Wherever a pixel falls in its 4×4 box of the bloom base (all 16
/// positions), its halo sits on it in the browser too: centred within
/// 0.25 px, and 4 px to either side within 10 % (as natively).
#[wasm_bindgen_test]
async fn a_pixels_halo_sits_on_it_wherever_it_falls_in_its_box() {
    let c = canvas(128, 128);
    let Some(r) = float_renderer(&c, &measuring(r#"{"intensity":1,"blur":"mip"}"#)).await else {
        return;
    };
    for dy in 0..4 {
        for dx in 0..4 {
            let at = (64 + dx, 64 + dy);
            r.set_content(bright_pixel(128, at, 200.0)).unwrap();
            let (off, ratio) = halo_balance(&read(&r).await, at);
            assert!(off <= 0.25, "at {at:?}: halo centre {off:.2} px off");
            assert!(
                ratio <= 1.1,
                "at {at:?}: 4 px either side differ {ratio:.3}×"
            );
        }
    }
    assert_no_gpu_errors(&r);
}

/// Wherever a pixel falls in its 4×4 box of the bloom base (all 16
/// positions), its halo is round in the browser too: 4 px and 8 px away
/// to the left, right, above and below, within 10 % (as natively).
#[wasm_bindgen_test]
async fn a_pixels_halo_is_round_wherever_it_falls_in_its_box() {
    let c = canvas(128, 128);
    let Some(r) = float_renderer(&c, &measuring(r#"{"intensity":1,"blur":"mip"}"#)).await else {
        return;
    };
    let mut worst = 0.0f64;
    for dy in 0..4 {
        for dx in 0..4 {
            let at = (64 + dx, 64 + dy);
            r.set_content(bright_pixel(128, at, 200.0)).unwrap();
            let round = halo_roundness(&read(&r).await, at);
            assert!(
                round <= 1.1,
                "at {at:?}: halo {round:.3}× stronger along one axis"
            );
            worst = worst.max(round);
        }
    }
    console_log!("halo: largest over smallest at most {worst:.3}");
    assert_no_gpu_errors(&r);
}

/// A light in the last column of a frame of partial bloom boxes (126 px:
/// the last box covers columns 124 to 127) blooms as in a frame where its
/// box lies whole inside (128 px). The browser clamps a texel load past the
/// edge to the edge, so an extract that read the missing texels would count
/// the light three times.
#[wasm_bindgen_test]
async fn a_light_in_a_partial_box_is_not_boosted() {
    let mut energy = Vec::new();
    for size in [126, 128] {
        let c = canvas(size, size);
        let options = measuring(r#"{"intensity":1,"blur":"mip"}"#);
        let Some((_r, img)) =
            render_content(&c, &options, bright_pixel(size, (125, 61), 200.0)).await
        else {
            return;
        };
        let mut sum = 0.0f64;
        for y in 0..126 {
            for x in 0..126 {
                if (x, y) != (125, 61) {
                    sum += img.rgba_f32(x, y)[0] as f64;
                }
            }
        }
        energy.push(sum);
    }
    assert!(energy[1] > 0.1, "a halo around the light: {energy:?}");
    assert!(
        (energy[0] / energy[1] - 1.0).abs() < 0.1,
        "halo energy with partial boxes, then without: {energy:?}"
    );
}

#[wasm_bindgen_test]
async fn bloom_follows_threshold_intensity_and_enabled() {
    // Entirely below the threshold: identical to bloom off.
    let c = canvas(64, 64);
    let Some((_r, on)) = render_content(
        &c,
        &measuring(r#"{"intensity":3,"threshold":1,"knee":0.5}"#),
        below_threshold(64),
    )
    .await
    else {
        return;
    };
    let c = canvas(64, 64);
    let Some((_r, off)) =
        render_content(&c, &measuring(r#"{"enabled":false}"#), below_threshold(64)).await
    else {
        return;
    };
    assert_eq!(on.data, off.data, "light below the threshold bloomed");
    // Off: black stays black next to a bright pixel.
    let c = canvas(64, 64);
    let Some((_r, img)) = render_content(
        &c,
        &measuring(r#"{"enabled":false}"#),
        bright_pixel(64, (32, 32), 100.0),
    )
    .await
    else {
        return;
    };
    assert_eq!(energy(&img, (32, 32)), 0.0);
    // More intensity, more energy.
    let mut last = 0.0;
    for intensity in [0.25, 1.0, 4.0] {
        let c = canvas(96, 96);
        let options = measuring(&format!(r#"{{"intensity":{intensity}}}"#));
        let Some((_r, img)) = render_content(&c, &options, bright_pixel(96, (48, 48), 100.0)).await
        else {
            return;
        };
        let e = energy(&img, (48, 48));
        assert!(
            e > last * 1.5,
            "intensity {intensity}: energy {e} not above {last}"
        );
        last = e;
    }
}

#[wasm_bindgen_test]
async fn every_tonemapper_is_monotonic_and_bounded() {
    let mut at_one = Vec::new();
    for t in ["agx", "aces", "khronos-neutral", "reinhard", "none"] {
        let c = canvas(256, 1);
        let options = format!(
            r#"{{"canvas":{{"format":"rgba16float","screenshots":true}},"msaa":1,"dither":false,
                "tonemapper":"{t}","bloom":{{"enabled":false}}}}"#
        );
        let Some((_r, img)) = render_content(&c, &options, ramp(256)).await else {
            return;
        };
        at_one.push((t.to_string(), check_tonemapped_ramp(&img, t)));
    }
    check_curves_differ(&at_one);
}

#[wasm_bindgen_test]
async fn msaa_4_antialiases_edges_and_msaa_1_does_not() {
    let mut counts = Vec::new();
    for msaa in [1, 4] {
        let c = canvas(96, 96);
        let options = format!(
            r#"{{"canvas":{{"screenshots":true}},"msaa":{msaa},"tonemapper":"none","dither":false,"bloom":{{"enabled":false}}}}"#
        );
        let Some((_r, img)) =
            render_content(&c, &options, Content::Shape([1.0, 1.0, 1.0, 1.0])).await
        else {
            return;
        };
        counts.push(partial_edge_pixels(&img, &format!("msaa {msaa}")));
    }
    assert_eq!(counts[0], 0, "msaa 1 must not produce intermediate values");
    assert!(
        counts[1] > 60,
        "msaa 4 edge pixels with partial coverage: {}",
        counts[1]
    );
}

#[wasm_bindgen_test]
async fn premultiplied_bloom_never_has_rgb_above_alpha() {
    for format in ["preferred", "rgba16float"] {
        let c = canvas(160, 120);
        let options = format!(
            r#"{{"canvas":{{"format":"{format}","alphaMode":"premultiplied","screenshots":true}},"bloom":{{"intensity":2}}}}"#
        );
        let Some(r) = create_or_refused(&c, &options).await else {
            return;
        };
        let img = r.render_and_read(1.0).await.unwrap();
        let glow = check_premultiplied(&img, format);
        assert!(
            glow > 50,
            "{format}: partially transparent glow pixels: {glow}"
        );
        assert_no_gpu_errors(&r);
    }
}

#[wasm_bindgen_test]
async fn one_nan_pixel_does_not_spread() {
    for blur in ["mip", "gaussian"] {
        let options = format!(
            r#"{{"canvas":{{"format":"rgba16float","screenshots":true}},"msaa":1,"dither":false,"bloom":{{"blur":"{blur}"}}}}"#
        );
        let Some((_r, want)) = render_content(&canvas(64, 64), &options, scene_with(0.0)).await
        else {
            return;
        };
        for bad in [f32::NAN, f32::INFINITY] {
            let Some((_r, got)) = render_content(&canvas(64, 64), &options, scene_with(bad)).await
            else {
                return;
            };
            check_same_except_near(&got, &want, BAD_PIXEL, &format!("{blur} {bad}"));
        }
    }
}

/// A single extreme pixel (1e4, 1e6, 1e30) is contained like NaN and Inf:
/// finite everywhere, and its bloom outside the 3×3 around it within 2.05×
/// a pixel's at the bright extract's soft ceiling (1000), for both blurs.
/// Values past the f16 HDR target's range are stored as Inf or as 65504,
/// as the implementation chooses (SwiftShader: Inf, which the NaN/Inf
/// guard removes; lavapipe: 65504, which the ceiling bounds); measured
/// here: 1e4 blooms 1.8× a pixel of 1000, 1e6 and 1e30 not at all.
#[wasm_bindgen_test]
async fn an_extreme_pixel_is_bounded_by_the_ceiling() {
    for blur in ["mip", "gaussian"] {
        let options = measuring(&format!(r#"{{"intensity":1,"blur":"{blur}"}}"#));
        let mut glow = Vec::new();
        for value in [0.0f32, 1000.0, 1e4, 1e6, 1e30] {
            let Some((_r, img)) =
                render_content(&canvas(64, 64), &options, scene_with(value)).await
            else {
                return;
            };
            let mut sum = 0.0f64;
            for y in 0..64u32 {
                for x in 0..64u32 {
                    let p = img.rgba_f32(x, y).map(srgb_to_linear);
                    assert!(
                        p.iter().all(|v| v.is_finite()),
                        "{blur} {value}: {p:?} at {x},{y}"
                    );
                    if x.abs_diff(BAD_PIXEL.0) > 1 || y.abs_diff(BAD_PIXEL.1) > 1 {
                        sum += p[0] as f64;
                    }
                }
            }
            glow.push((value, sum));
        }
        let base = glow[0].1;
        let ceiling = glow[1].1 - base;
        assert!(
            ceiling > 1.0,
            "{blur}: a pixel of 1000 blooms ({ceiling:.2})"
        );
        assert!(
            glow[2].1 - base > ceiling,
            "{blur}: 1e4 blooms more than 1000 (a soft ceiling, not a clamp)"
        );
        for &(value, sum) in &glow[2..] {
            let extra = sum - base;
            assert!(
                extra <= 2.05 * ceiling,
                "{blur} {value}: its bloom {extra:.1} exceeds the ceiling's {ceiling:.1} by too much"
            );
        }
    }
}

#[wasm_bindgen_test]
async fn every_chain_renders_at_odd_sizes_without_gpu_errors() {
    for variant in [
        r#""bloom":{"blur":"mip"}"#,
        r#""bloom":{"blur":"gaussian"}"#,
        r#""resolve":"tonemapped","bloom":{"blur":"mip"}"#,
        r#""msaa":1,"bloom":{"blur":"gaussian"}"#,
    ] {
        let c = canvas(1, 1);
        let r = create(
            &c,
            &format!(r#"{{"canvas":{{"screenshots":true}},{variant}}}"#),
        )
        .await;
        for (w, h) in [(1, 1), (3, 7), (1366, 768)] {
            r.resize(JsValue::from(w), JsValue::from(h)).unwrap();
            let img = read(&r).await;
            assert_eq!((img.width, img.height), (w, h), "{variant}");
        }
        assert_no_gpu_errors(&r);
    }
}

#[wasm_bindgen_test]
async fn frames_create_no_gpu_objects_after_warm_up() {
    for variant in [
        r#"{"bloom":{"blur":"mip"}}"#,
        r#"{"resolve":"tonemapped","bloom":{"blur":"gaussian"}}"#,
    ] {
        let c = canvas(64, 48);
        let r = create(&c, variant).await;
        r.render(Some(JsValue::from(0.0))).unwrap();
        let before = r.with_gpu(|g| g.counters.snapshot()).unwrap();
        let frames_before = frames_rendered(&r);
        for i in 1..6 {
            r.render(Some(JsValue::from(i as f64 * 0.1))).unwrap();
        }
        assert_eq!(
            frames_rendered(&r),
            frames_before + 5,
            "{variant}: frames rendered"
        );
        let delta = r
            .with_gpu(|g| g.counters.snapshot())
            .unwrap()
            .since(&before);
        check_frame_objects(&delta, 5, true, variant);
        assert_no_gpu_errors(&r);
    }
}

#[wasm_bindgen_test]
async fn bad_chain_options_are_rejected_with_the_field_named() {
    let cases: &[(&str, &[&str])] = &[
        (r#"{"msaa":2}"#, &["msaa", "1 or 4"]),
        (r#"{"msaa":"4"}"#, &["msaa", "'4'"]),
        (
            r#"{"resolve":"tonemapped","msaa":1}"#,
            &["resolve", "msaa: 4"],
        ),
        (
            r#"{"tonemapper":"filmic"}"#,
            &[
                "tonemapper",
                "'agx', 'aces', 'khronos-neutral', 'reinhard', 'none'",
            ],
        ),
        (r#"{"exposure":0}"#, &["exposure", "above 0"]),
        (r#"{"exposure":-2}"#, &["exposure", "-2"]),
        (r#"{"dither":1}"#, &["dither", "true or false"]),
        (r#"{"bloom":{"levels":0}}"#, &["bloom.levels", "1 to 12"]),
        (r#"{"bloom":{"levels":1e9}}"#, &["bloom.levels", "1 to 12"]),
        (
            r#"{"bloom":{"blur":"box"}}"#,
            &["bloom.blur", "'mip', 'gaussian'"],
        ),
        (r#"{"bloom":{"knee":2}}"#, &["bloom.knee", "0 to 1"]),
        (
            r#"{"bloom":{"iterations":0}}"#,
            &["bloom.iterations", "1 to 16"],
        ),
        (r#"{"bloom":{"glow":1}}"#, &["bloom.glow", "'intensity'"]),
    ];
    for (json, needles) in cases {
        let c = canvas(8, 8);
        let e = assert_error(Renderer::create(c.into(), Some(opts(json))).await, needles);
        let option = format!("\"{}\"", needles[0]);
        assert_kind(&e, "OptionError", &[("option", &option)]);
    }
    let allowed: &[(&str, &str)] = &[
        (r#"{"msaa":2}"#, "[1,4]"),
        (r#"{"dither":1}"#, "[true,false]"),
        (r#"{"resolve":"tonemapped","msaa":1}"#, r#"["hardware"]"#),
        (r#"{"exposure":0}"#, r#""a number above 0 up to 10000""#),
        (
            r#"{"bloom":{"levels":0}}"#,
            r#""a whole number from 1 to 12""#,
        ),
        (r#"{"bloom":{"radius":5}}"#, r#""a number from 0.1 to 4""#),
        (r#"{"bloom":{"blur":"box"}}"#, r#"["mip","gaussian"]"#),
    ];
    for (json, expected) in allowed {
        let e = assert_error(
            Renderer::create(canvas(8, 8).into(), Some(opts(json))).await,
            &[],
        );
        assert_kind(&e, "OptionError", &[("allowed", expected)]);
    }
    // NaN cannot be written in JSON: build the object in JS.
    let nan = Function::new_no_args("return { exposure: NaN, bloom: { threshold: 1 } };")
        .call0(&JsValue::NULL)
        .unwrap();
    assert_error(
        Renderer::create(canvas(8, 8).into(), Some(nan)).await,
        &["exposure", "NaN"],
    );
}

// ---- The JavaScript API: run-time options, content, screenshots, stats ----

const EXACT: &str = r#""tonemapper":"none","dither":false,"bloom":{"enabled":false}"#;

/// A renderer whose output can be read back and predicted exactly: no
/// curve, no dither, no bloom.
async fn exact(c: &JsValue) -> Renderer {
    create(
        c,
        &format!(r#"{{"canvas":{{"screenshots":true}},{EXACT}}}"#),
    )
    .await
}

fn set(r: &Renderer, json: &str) {
    if let Err(e) = r.set_options(opts(json)) {
        panic!("setOptions({json}) failed: {}", message(&e));
    }
}

fn options_value(r: &Renderer, path: &[&str]) -> JsValue {
    let mut v = r.options().unwrap();
    for k in path {
        v = get(&v, k);
    }
    v
}

#[wasm_bindgen_test]
async fn options_reports_every_default() {
    let r = create(&canvas(8, 8), "{}").await;
    assert_eq!(
        options_value(&r, &["canvas", "format"])
            .as_string()
            .unwrap(),
        "preferred"
    );
    assert_eq!(
        options_value(&r, &["canvas", "alphaMode"])
            .as_string()
            .unwrap(),
        "opaque"
    );
    assert_eq!(options_value(&r, &["msaa"]).as_f64(), Some(4.0));
    assert_eq!(
        options_value(&r, &["resolve"]).as_string().unwrap(),
        "hardware"
    );
    assert_eq!(
        options_value(&r, &["tonemapper"]).as_string().unwrap(),
        "agx"
    );
    assert_eq!(options_value(&r, &["exposure"]).as_f64(), Some(1.0));
    assert_eq!(options_value(&r, &["dither"]).as_bool(), Some(true));
    assert_eq!(options_value(&r, &["renderScale"]).as_f64(), Some(1.0));
    assert_eq!(options_value(&r, &["autoResize"]).as_bool(), Some(false));
    assert_eq!(
        options_value(&r, &["bloom", "blur"]).as_string().unwrap(),
        "mip"
    );
    assert_eq!(options_value(&r, &["bloom", "levels"]).as_f64(), Some(7.0));
    // The object round-trips through setOptions.
    r.set_options(r.options().unwrap()).unwrap();
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn canvas_options_change_at_run_time() {
    let c = canvas(32, 32);
    let r = exact(&c).await;
    r.set_content(Content::Solid([0.5, 0.5, 0.5, 1.0])).unwrap();
    assert_close(read(&r).await.rgba8(4, 4)[0], 188, 2, "srgb");

    let p3 = r#"{"canvas":{"colorSpace":"display-p3"}}"#;
    if engine_keeps("colorSpace", "'display-p3'").await {
        set(&r, p3);
        assert_eq!(
            get(&context_configuration(&c), "colorSpace")
                .as_string()
                .unwrap(),
            "display-p3"
        );
        assert_close(read(&r).await.rgba8(4, 4)[0], 188, 2, "display-p3");
        // sRGB red, converted to P3 primaries.
        r.set_content(Content::Solid([1.0, 0.0, 0.0, 1.0])).unwrap();
        let p = read(&r).await.rgba8(4, 4);
        for (ch, want) in [234u8, 51, 35].into_iter().enumerate() {
            assert_close(p[ch], want, 2, &format!("P3 red channel {ch}"));
        }
    } else {
        // An engine that would show P3 values as sRGB: refused, naming the
        // option, and nothing changes.
        let e = r.set_options(opts(p3)).unwrap_err();
        assert_kind(&e, "CanvasError", &[]);
        assert!(
            message(&e).contains("canvas.colorSpace 'display-p3'"),
            "{}",
            message(&e)
        );
        assert_close(read(&r).await.rgba8(4, 4)[0], 188, 2, "still sRGB");
    }

    r.set_content(Content::Solid([0.0, 0.0, 0.0, 0.0])).unwrap();
    set(&r, r#"{"canvas":{"alphaMode":"premultiplied"}}"#);
    assert_eq!(
        get(&context_configuration(&c), "alphaMode")
            .as_string()
            .unwrap(),
        "premultiplied"
    );
    assert_eq!(read(&r).await.rgba8(4, 4), [0, 0, 0, 0], "premultiplied");
    set(&r, r#"{"canvas":{"alphaMode":"opaque"}}"#);
    assert_eq!(read(&r).await.rgba8(4, 4)[3], 255, "opaque again");

    r.set_content(Content::Solid([0.5, 0.5, 0.5, 1.0])).unwrap();
    if !set_float(
        &r,
        r#"{"canvas":{"format":"rgba16float","toneMapping":"extended"}}"#,
    )
    .await
    {
        return;
    }
    let cfg = context_configuration(&c);
    assert_eq!(get(&cfg, "format").as_string().unwrap(), "rgba16float");
    assert_eq!(
        get(&get(&cfg, "toneMapping"), "mode").as_string().unwrap(),
        "extended"
    );
    let img = read(&r).await;
    assert_eq!(img.format, wgpu::TextureFormat::Rgba16Float);
    assert!((img.rgba_f32(4, 4)[0] - 0.7354).abs() < 0.002);

    // Going back to an 8-bit canvas while toneMapping is extended is refused,
    // naming the field, and changes nothing.
    assert_error(
        r.set_options(opts(r#"{"canvas":{"format":"preferred"}}"#)),
        &["canvas.toneMapping"],
    );
    assert_eq!(
        options_value(&r, &["canvas", "format"])
            .as_string()
            .unwrap(),
        "rgba16float"
    );
    set(
        &r,
        r#"{"canvas":{"format":"preferred","toneMapping":"standard"}}"#,
    );
    assert_close(read(&r).await.rgba8(4, 4)[0], 188, 2, "preferred again");
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn msaa_and_render_scale_change_at_run_time() {
    let c = canvas(96, 96);
    let r = exact(&c).await;
    r.set_content(Content::Shape([1.0, 1.0, 1.0, 1.0])).unwrap();
    let mut partial = Vec::new();
    for msaa in [4, 1, 4] {
        set(&r, &format!(r#"{{"msaa":{msaa}}}"#));
        partial.push(partial_edge_pixels(
            &read(&r).await,
            &format!("msaa {msaa}"),
        ));
    }
    assert!(partial[0] > 60 && partial[2] > 60, "msaa 4: {partial:?}");
    assert_eq!(partial[1], 0, "msaa 1: {partial:?}");

    // Half-size targets: the canvas keeps its size, the composite pass
    // rescales (bilinear), so even msaa 1 shows soft edges, and the targets
    // hold fewer bytes.
    set(&r, r#"{"msaa":1}"#);
    let bytes_full = get(&r.stats(None).unwrap(), "gpuBytes").as_f64().unwrap();
    set(&r, r#"{"renderScale":0.5}"#);
    let img = read(&r).await;
    assert_eq!((img.width, img.height), (96, 96));
    assert!(partial_edge_pixels(&img, "renderScale 0.5") > 20);
    let bytes_half = get(&r.stats(None).unwrap(), "gpuBytes").as_f64().unwrap();
    assert!(
        bytes_half < bytes_full * 0.5,
        "{bytes_half} vs {bytes_full}"
    );
    assert_error(
        r.set_options(opts(r#"{"renderScale":4}"#)),
        &["renderScale", "0.25 to 2"],
    );
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn tonemapper_exposure_and_bloom_change_at_run_time() {
    let c = canvas(64, 64);
    let r = create(
        &c,
        &format!(r#"{{"canvas":{{"screenshots":true}},"msaa":1,{EXACT}}}"#),
    )
    .await;
    r.set_content(Content::Solid([0.5, 0.5, 0.5, 1.0])).unwrap();
    assert_close(read(&r).await.rgba8(1, 1)[0], 188, 2, "none");
    set(&r, r#"{"tonemapper":"reinhard"}"#);
    // 0.5 / 1.5 = 1/3 linear -> 156
    assert_close(read(&r).await.rgba8(1, 1)[0], 156, 2, "reinhard");
    set(&r, r#"{"exposure":2}"#);
    // 1 / 2 linear -> 188
    assert_close(
        read(&r).await.rgba8(1, 1)[0],
        188,
        2,
        "reinhard, exposure 2",
    );

    if !set_float(&r, r#"{"tonemapper":"none","exposure":1,"canvas":{"format":"rgba16float","toneMapping":"extended"}}"#).await {
        return;
    }
    r.set_content(bright_pixel(64, (32, 32), 100.0)).unwrap();
    assert_eq!(energy(&read(&r).await, (32, 32)), 0.0, "bloom off");
    let mut last = 0.0;
    for intensity in [0.5, 2.0] {
        set(
            &r,
            &format!(r#"{{"bloom":{{"enabled":true,"intensity":{intensity}}}}}"#),
        );
        let e = energy(&read(&r).await, (32, 32));
        assert!(e > last * 2.0, "intensity {intensity}: {e} after {last}");
        last = e;
    }
    set(&r, r#"{"bloom":{"blur":"gaussian","iterations":2}}"#);
    assert!(energy(&read(&r).await, (32, 32)) > 0.0, "gaussian bloom");
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn unchanged_and_uniform_only_options_create_nothing() {
    let r = create(&canvas(32, 32), "{}").await;
    r.render(None).unwrap();
    let before = r.with_gpu(|g| g.counters.snapshot()).unwrap();
    set(&r, "{}");
    set(&r, r#"{"msaa":4,"tonemapper":"agx"}"#);
    set(
        &r,
        r#"{"exposure":1.5,"bloom":{"intensity":1.2,"threshold":0.8}}"#,
    );
    r.render(None).unwrap();
    let delta = r
        .with_gpu(|g| g.counters.snapshot())
        .unwrap()
        .since(&before);
    check_frame_objects(&delta, 1, true, "uniform-only option changes");
    // Options that specialise shaders (tonemapper, bloom radius) rebuild the
    // frame's bind groups and views, but take over its textures.
    let before = r.with_gpu(|g| g.counters.snapshot()).unwrap();
    set(&r, r#"{"tonemapper":"aces","bloom":{"radius":2}}"#);
    r.render(None).unwrap();
    let delta = r
        .with_gpu(|g| g.counters.snapshot())
        .unwrap()
        .since(&before);
    assert_eq!(delta.textures, 0, "specialising option changes: {delta:?}");
    // A shape change does rebuild.
    set(&r, r#"{"msaa":1}"#);
    assert_ne!(r.with_gpu(|g| g.counters.snapshot()).unwrap(), before);
    assert_no_gpu_errors(&r);
}

/// Runs a JS snippet returning a promise, awaits it.
async fn js(body: &str, arg: &JsValue) -> JsValue {
    let f = Function::new_with_args("arg", body);
    let p = f.call1(&JsValue::NULL, arg).unwrap();
    match JsFuture::from(js_sys::Promise::resolve(&p)).await {
        Ok(v) => v,
        Err(e) => panic!("JS failed: {}", message(&e)),
    }
}

#[wasm_bindgen_test]
async fn an_image_bitmap_with_one_bright_pixel_blooms_around_it() {
    let bitmap = js(
        "const d = new ImageData(64, 64);
         for (let i = 0; i < 64 * 64; i++) d.data[i * 4 + 3] = 255;
         const o = (32 * 64 + 32) * 4; d.data[o] = d.data[o + 1] = d.data[o + 2] = 255;
         return createImageBitmap(d);",
        &JsValue::NULL,
    )
    .await;
    let c = canvas(64, 64);
    let Some(r) = float_renderer(&c, &measuring(r#"{"intensity":1}"#)).await else {
        return;
    };
    let gain = Object::new();
    Reflect::set(&gain, &"gain".into(), &JsValue::from(60.0)).unwrap();
    r.set_image(bitmap.clone(), Some(gain.into())).unwrap();
    let img = read(&r).await;
    let center = red(&img, 32, 32);
    let want = 1.055 * 60f32.powf(1.0 / 2.4) - 0.055;
    assert!(
        (center - want).abs() < 0.3 * want,
        "center {center}, want about {want}"
    );
    for d in [3, 6, 10] {
        let v = red(&img, 32 + d, 32);
        assert!(v > 0.01, "no bloom {d} px from the pixel: {v}");
        assert!(
            v < red(&img, 32 + d - 2, 32) + 1e-3,
            "bloom does not fall off at {d}"
        );
    }
    assert!(
        red(&img, 2, 2) < red(&img, 36, 32),
        "bloom is around the pixel"
    );
    // Without gain the pixel is 1.0: at the threshold, barely any bloom.
    r.set_image(bitmap, None).unwrap();
    let dim = read(&r).await;
    assert!(energy(&dim, (32, 32)) < energy(&img, (32, 32)) * 0.05);
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn set_image_takes_every_source_kind_and_rejects_others() {
    let c = canvas(40, 20);
    let r = create(
        &c,
        &format!(r#"{{"canvas":{{"screenshots":true}},"msaa":1,{EXACT}}}"#),
    )
    .await;
    // ImageData, a 2d canvas, an OffscreenCanvas and an <img> (a PNG of it)
    // of mid grey (188 = linear 0.5).
    let sources = js(
        "const d = new ImageData(4, 2); d.data.fill(188); for (let i = 3; i < 32; i += 4) d.data[i] = 255;
         const c = document.createElement('canvas'); c.width = 8; c.height = 4;
         const g = c.getContext('2d'); g.fillStyle = 'rgb(188,188,188)'; g.fillRect(0, 0, 8, 4);
         const o = new OffscreenCanvas(8, 4); const h = o.getContext('2d');
         h.fillStyle = 'rgb(188,188,188)'; h.fillRect(0, 0, 8, 4);
         return o.convertToBlob().then((blob) => {
           const img = new Image(); img.src = URL.createObjectURL(blob);
           return img.decode().then(() => [d, c, o, img]);
         });",
        &JsValue::NULL,
    )
    .await;
    assert_eq!(js_sys::Array::from(&sources).length(), 4);
    for source in js_sys::Array::from(&sources).iter() {
        r.set_image(source, None).unwrap();
        let img = read(&r).await;
        // 2:1 image in a 2:1 canvas: fills it, decoded to linear and encoded once.
        assert_close(img.rgba8(20, 10)[0], 188, 3, "image centre");
        assert_close(img.rgba8(1, 1)[1], 188, 3, "image corner");
    }
    // A square image in a 2:1 canvas is fitted: transparent (black) bars.
    let square = js(
        "const d = new ImageData(4, 4); d.data.fill(255); return d;",
        &JsValue::NULL,
    )
    .await;
    r.set_image(square, None).unwrap();
    let img = read(&r).await;
    assert_eq!(img.rgba8(2, 10)[..3], [0, 0, 0], "left bar");
    assert_eq!(img.rgba8(20, 10)[..3], [255, 255, 255], "centre");
    // Wrong types and bad options.
    assert_error_kind(
        r.set_image(JsValue::from("cat.png"), None),
        &["source", "ImageBitmap", "'cat.png'"],
        "ArgumentError",
        &[("argument", r#""source""#)],
    );
    assert_error(
        r.set_image(Object::new().into(), None),
        &["source", "got a plain object"],
    );
    let img_el = document().create_element("img").unwrap();
    assert_error_kind(
        r.set_image(img_el.into(), None),
        &["source", "not finished loading"],
        "ArgumentError",
        &[("argument", r#""source""#)],
    );
    assert_error_kind(
        r.set_image(square_data().await, Some(opts(r#"{"gain":-1}"#))),
        &["gain", "0 to 10000"],
        "OptionError",
        &[
            ("option", r#""gain""#),
            ("allowed", r#""a number from 0 to 10000""#),
        ],
    );
    assert_error_kind(
        r.set_image(square_data().await, Some(opts(r#"{"gian":2}"#))),
        &["gian", "'gain'"],
        "OptionError",
        &[("option", r#""gian""#), ("allowed", r#"["gain"]"#)],
    );
    assert_error_kind(
        r.set_image(square_data().await, Some(JsValue::from(2))),
        &["options", "{ gain: 4 }"],
        "ArgumentError",
        &[("argument", r#""options""#)],
    );
    // Still rendering, back to the demo.
    r.use_demo_scene().unwrap();
    r.render(None).unwrap();
    assert_no_gpu_errors(&r);
}

async fn square_data() -> JsValue {
    js("return new ImageData(2, 2);", &JsValue::NULL).await
}

/// Renders for a while (each frame uploads a playing video's newest
/// frame), then reads the middle pixel.
async fn colour_after_frames(r: &Renderer) -> [u8; 4] {
    for _ in 0..8 {
        r.render(None).unwrap();
        next_frame().await;
    }
    read(r).await.rgba8(8, 8)
}

#[wasm_bindgen_test]
async fn a_video_is_uploaded_while_it_plays() {
    // A canvas stream stands in for a video file; its colour is switched
    // from red to green while it plays, and the renderer must follow.
    let video = js(
        "const c = document.createElement('canvas'); c.width = 16; c.height = 16;
         const g = c.getContext('2d'); window.__afterglowColour = '#f00';
         const draw = () => { g.fillStyle = window.__afterglowColour; g.fillRect(0, 0, 16, 16); };
         draw(); window.__afterglowVideoTimer = setInterval(draw, 20);
         const v = document.createElement('video'); v.muted = true;
         v.srcObject = c.captureStream(60);
         return v.play().then(() => new Promise((ok) => {
           const wait = () => v.readyState >= 2 ? ok(v) : setTimeout(wait, 20); wait(); }));",
        &JsValue::NULL,
    )
    .await;
    let c = canvas(16, 16);
    let r = exact(&c).await;
    r.set_image(video, None).unwrap();
    let first = colour_after_frames(&r).await;
    // A video path may convert through YUV: a few steps of tolerance.
    let near = |p: [u8; 4], want: [u8; 3]| (0..3).all(|c| p[c].abs_diff(want[c]) <= 12);
    assert!(
        near(first, [255, 0, 0]),
        "the first colour is shown: {first:?}"
    );
    js("window.__afterglowColour = '#0f0';", &JsValue::NULL).await;
    let mut second = first;
    for _ in 0..10 {
        second = colour_after_frames(&r).await;
        if near(second, [0, 255, 0]) {
            break;
        }
    }
    assert!(
        near(second, [0, 255, 0]),
        "the playing video's new frames are uploaded: {second:?}"
    );
    js(
        "clearInterval(window.__afterglowVideoTimer);",
        &JsValue::NULL,
    )
    .await;
    assert_no_gpu_errors(&r);
}

/// `addEffect(name, { wgsl, uniforms })` from JavaScript, fused into the
/// frame: a one-line tint, its uniforms changed, and every refusal named
/// with the frame left as it was; removal restores it byte for byte.
#[wasm_bindgen_test]
async fn effects_from_javascript_run_and_every_refusal_is_named() {
    let c = canvas(32, 32);
    let r = exact(&c).await;
    let grey = "fn scene(uv: vec2f, time: f32) -> vec4f { return vec4f(0.5, 0.5, 0.5, 1.0); }";
    JsFuture::from(r.set_scene_shader(grey.into()))
        .await
        .unwrap();
    let before = read(&r).await;
    assert_close(before.rgba8(3, 3)[0], 188, 2, "grey");
    let tint = r#"{"wgsl":"fn effect(color: vec4f, uv: vec2f) -> vec4f {\n  return vec4f(color.rgb * uniforms.tint, color.a);\n}","uniforms":{"tint":[0.25,1,1]}}"#;
    JsFuture::from(r.add_effect("tint".into(), opts(tint)))
        .await
        .unwrap();
    assert_eq!(
        js_sys::JSON::stringify(&r.effects().unwrap()).unwrap(),
        r#"["tint"]"#
    );
    // 0.5 × 0.25 in linear light, encoded.
    let img = read(&r).await;
    assert_close(img.rgba8(3, 3)[0], 99, 2, "tinted red");
    assert_close(img.rgba8(3, 3)[1], 188, 2, "green stays");
    r.set_effect_uniforms("tint".into(), opts(r#"{"tint":[1,1,0.25]}"#))
        .unwrap();
    let tinted = read(&r).await;
    assert_close(tinted.rgba8(3, 3)[0], 188, 2, "red back");
    assert_close(tinted.rgba8(3, 3)[2], 99, 2, "tinted blue");

    let refused = |name: &str, json: &str| {
        let (name, json) = (JsValue::from(name), opts(json));
        let r = &r;
        async move { JsFuture::from(r.add_effect(name, json)).await.unwrap_err() }
    };
    let fine = r#""wgsl":"fn effect(color: vec4f, uv: vec2f) -> vec4f { return color; }""#;
    let e = refused("tint", &format!("{{{fine}}}")).await;
    assert_kind(&e, "ArgumentError", &[("argument", r#""name""#)]);
    let e = JsFuture::from(r.add_effect(JsValue::from(3), opts(&format!("{{{fine}}}"))))
        .await
        .unwrap_err();
    assert_kind(&e, "ArgumentError", &[("argument", r#""name""#)]);
    let e = refused("w", r#"{"wgsl":3}"#).await;
    assert_kind(&e, "ArgumentError", &[("argument", r#""wgsl""#)]);
    let e = refused("s", &format!(r#"{{{fine},"stage":"later"}}"#)).await;
    assert_kind(&e, "ArgumentError", &[("argument", r#""stage""#)]);
    assert!(
        message(&e).contains("'scene' or 'display'"),
        "{}",
        message(&e)
    );
    let e = refused("u", &format!(r#"{{{fine},"uniforms":{{"k":"a"}}}}"#)).await;
    assert_kind(&e, "ArgumentError", &[("argument", r#""uniforms.k""#)]);
    let e = refused("u", &format!(r#"{{{fine},"uniforms":{{"k":[1]}}}}"#)).await;
    assert_kind(&e, "ArgumentError", &[("argument", r#""uniforms.k""#)]);
    let e = refused("t", &format!(r#"{{{fine},"textures":{{"mask":3}}}}"#)).await;
    assert_kind(&e, "ArgumentError", &[("argument", r#""textures.mask""#)]);
    let e = refused("b", r#"{"wgsl":"@group(0) @binding(9) var<uniform> k: f32;\nfn effect(color: vec4f, uv: vec2f) -> vec4f { return color; }"}"#).await;
    assert_kind(&e, "ArgumentError", &[("argument", r#""wgsl""#)]);
    // A compile error at its line and column in the page's WGSL.
    let e = refused(
        "c",
        r#"{"wgsl":"fn effect(color: vec4f, uv: vec2f) -> vec4f {\n    return colour;\n}"}"#,
    )
    .await;
    assert_kind(&e, "ShaderError", &[("line", "2"), ("column", "12")]);
    let e = refused("m", r#"{"wgsl":"fn other() {}"}"#).await;
    assert_kind(&e, "ShaderError", &[("line", "0")]);
    assert!(
        message(&e).contains("fn effect(color: vec4f, uv: vec2f) -> vec4f"),
        "{}",
        message(&e)
    );
    let e = r
        .set_effect_uniforms("tint".into(), opts(r#"{"nope":1}"#))
        .unwrap_err();
    assert_kind(&e, "ArgumentError", &[("argument", r#""uniforms.nope""#)]);
    let e = r
        .set_effect_uniforms("tint".into(), opts(r#"{"tint":1}"#))
        .unwrap_err();
    assert_kind(&e, "ArgumentError", &[("argument", r#""uniforms.tint""#)]);
    let e = r
        .set_effect_uniforms("other".into(), opts("{}"))
        .unwrap_err();
    assert_kind(&e, "ArgumentError", &[("argument", r#""name""#)]);
    let e = r.remove_effect("other".into()).unwrap_err();
    assert_kind(&e, "ArgumentError", &[("argument", r#""name""#)]);
    assert_eq!(
        read(&r).await.data,
        tinted.data,
        "the refusals changed nothing"
    );
    // Any string of 1 to 64 characters names an effect.
    let e = refused("", &format!("{{{fine}}}")).await;
    assert_kind(&e, "ArgumentError", &[("argument", r#""name""#)]);
    let e = refused(&"x".repeat(65), &format!("{{{fine}}}")).await;
    assert_kind(&e, "ArgumentError", &[("argument", r#""name""#)]);
    for name in ["film-look", "Tint 2"] {
        JsFuture::from(r.add_effect(name.into(), opts(&format!("{{{fine}}}"))))
            .await
            .unwrap();
    }
    assert_eq!(
        js_sys::JSON::stringify(&r.effects().unwrap()).unwrap(),
        r#"["tint","film-look","Tint 2"]"#
    );
    assert_eq!(read(&r).await.data, tinted.data, "two identities");
    r.remove_effect("film-look".into()).unwrap();
    r.remove_effect("Tint 2".into()).unwrap();

    r.remove_effect("tint".into()).unwrap();
    assert_eq!(
        js_sys::JSON::stringify(&r.effects().unwrap()).unwrap(),
        "[]"
    );
    assert_eq!(
        read(&r).await.data,
        before.data,
        "removal restores the frame"
    );
    assert_no_gpu_errors(&r);
    r.destroy().unwrap();
    let e = JsFuture::from(r.add_effect("late".into(), opts(&format!("{{{fine}}}"))))
        .await
        .unwrap_err();
    assert_kind(&e, "StateError", &[]);
}

#[wasm_bindgen_test]
async fn scene_shaders_compile_and_errors_name_the_line() {
    let c = canvas(32, 32);
    let r = exact(&c).await;
    let good =
        "fn scene(uv: vec2f, time: f32) -> vec4f {\n  return vec4f(0.5, 0.5, 0.5, 1.0);\n}\n";
    JsFuture::from(r.set_scene_shader(good.into()))
        .await
        .unwrap();
    assert_close(read(&r).await.rgba8(3, 3)[0], 188, 2, "user shader");
    // resolution() and uv reach the user's code.
    let ramp = "fn scene(uv: vec2f, time: f32) -> vec4f {\n  let p = uv * resolution();\n  return vec4f(select(0.0, 1.0, p.x > 16.0), 0.0, 0.0, 1.0);\n}\n";
    JsFuture::from(r.set_scene_shader(ramp.into()))
        .await
        .unwrap();
    let img = read(&r).await;
    assert_eq!((img.rgba8(8, 3)[0], img.rgba8(24, 3)[0]), (0, 255));

    // An error on line 3 of the user's code.
    let bad = "fn scene(uv: vec2f, time: f32) -> vec4f {\n  let a = 1.0;\n  return vec4f(a, b, 0.0, 1.0);\n}\n";
    let e = JsFuture::from(r.set_scene_shader(bad.into()))
        .await
        .unwrap_err();
    assert!(e.is_instance_of::<js_sys::Error>());
    assert_kind(&e, "ShaderError", &[("line", "3")]);
    assert_eq!(get(&e, "line").as_f64(), Some(3.0), "{}", message(&e));
    assert!(get(&e, "column").as_f64().unwrap() > 1.0, "{}", message(&e));
    assert!(message(&e).contains("line 3"), "{}", message(&e));
    assert_eq!(
        get(&e, "details").as_string().as_deref(),
        Some(""),
        "one-line message"
    );
    // A compiler message of many lines: the first in `message`, the rest
    // in `details` (Chromium's lists the candidate constructors; Firefox's
    // is one line and a quote of the source, which is left out).
    let short = "fn scene(uv: vec2f, time: f32) -> vec4f {\n  return vec4f(1.0, 2.0);\n}\n";
    let e = JsFuture::from(r.set_scene_shader(short.into()))
        .await
        .unwrap_err();
    assert_kind(&e, "ShaderError", &[("line", "2")]);
    assert!(!message(&e).contains('\n'), "{}", message(&e));
    let details = get(&e, "details").as_string().unwrap_or_default();
    assert!(
        !details.contains('\u{2502}'),
        "no quote of the source: {details}"
    );
    if engine_has_float_canvas().await {
        // Chromium (the engine here with an rgba16float canvas) lists them.
        assert!(details.lines().count() > 1, "details: {details}");
    }
    // The previous shader keeps rendering.
    let img = read(&r).await;
    assert_eq!(
        (img.rgba8(8, 3)[0], img.rgba8(24, 3)[0]),
        (0, 255),
        "previous content"
    );
    // No scene function at all, and not a string.
    let e = JsFuture::from(r.set_scene_shader("fn other() {}".into()))
        .await
        .unwrap_err();
    assert!(message(&e).contains("fn scene"), "{}", message(&e));
    assert_kind(&e, "ShaderError", &[("line", "0"), ("column", "0")]);
    // A fn scene that does not match afterglow's call of it is reported at
    // its declaration, with the signature to use.
    let wrong = "// one parameter short\n  fn scene(uv: vec2f) -> vec4f {\n  return vec4f(uv, 0.0, 1.0);\n}\n";
    let e = JsFuture::from(r.set_scene_shader(wrong.into()))
        .await
        .unwrap_err();
    assert_kind(&e, "ShaderError", &[("line", "2"), ("column", "3")]);
    assert!(
        message(&e).contains("declare it as fn scene(uv: vec2f, time: f32) -> vec4f"),
        "{}",
        message(&e)
    );
    // Which of afterglow's calls failed is asked of the GPU, not read from
    // the browser's message: a mismatched fn emissive beside a good fn
    // scene is reported at emissive's declaration, a mismatched fn scene
    // beside a good fn emissive at scene's.
    let good_scene =
        "fn scene(uv: vec2f, time: f32) -> vec4f {\n  return vec4f(uv, 0.0, 1.0);\n}\n";
    let bad_emissive =
        format!("{good_scene}fn emissive(uv: vec2f) -> vec3f {{\n  return vec3f(uv, 0.0);\n}}\n");
    let e = JsFuture::from(r.set_scene_shader(bad_emissive.into()))
        .await
        .unwrap_err();
    assert_kind(&e, "ShaderError", &[("line", "4"), ("column", "1")]);
    assert!(
        message(&e).contains("declare it as fn emissive(uv: vec2f, time: f32) -> vec3f"),
        "{}",
        message(&e)
    );
    let bad_scene = "fn scene(uv: vec2f) -> vec4f {\n  return vec4f(uv, 0.0, 1.0);\n}\n\
                     fn emissive(uv: vec2f, time: f32) -> vec3f {\n  return vec3f(uv, 0.0);\n}\n";
    let e = JsFuture::from(r.set_scene_shader(bad_scene.into()))
        .await
        .unwrap_err();
    assert_kind(&e, "ShaderError", &[("line", "1"), ("column", "1")]);
    assert!(
        message(&e).contains("declare it as fn scene("),
        "{}",
        message(&e)
    );
    let e = JsFuture::from(r.set_scene_shader(JsValue::from(3)))
        .await
        .unwrap_err();
    assert!(message(&e).contains("wgsl"), "{}", message(&e));
    assert_kind(&e, "ArgumentError", &[("argument", r#""wgsl""#)]);
    // MSAA changes rebuild the user pipeline too.
    set(&r, r#"{"msaa":1}"#);
    let img = read(&r).await;
    assert_eq!(img.rgba8(24, 3)[0], 255);
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn screenshot_is_a_png_of_the_frame() {
    let c = canvas(48, 32);
    let r = create(
        &c,
        r#"{"canvas":{"screenshots":true,"alphaMode":"premultiplied"}}"#,
    )
    .await;
    r.render(Some(JsValue::from(1.25))).unwrap();
    let blob = JsFuture::from(r.screenshot()).await.unwrap();
    assert_eq!(get(&blob, "type").as_string().unwrap(), "image/png");
    // Decode it with the browser and compare with the frame read back.
    let decoded = js(
        "return createImageBitmap(arg, { premultiplyAlpha: 'none', colorSpaceConversion: 'none' }).then((b) => {
           const c = new OffscreenCanvas(b.width, b.height); const g = c.getContext('2d');
           g.drawImage(b, 0, 0); return [b.width, b.height, g.getImageData(0, 0, b.width, b.height).data];
         });",
        &blob,
    )
    .await;
    let parts = js_sys::Array::from(&decoded);
    assert_eq!(
        (parts.get(0).as_f64(), parts.get(1).as_f64()),
        (Some(48.0), Some(32.0))
    );
    let png = js_sys::Uint8ClampedArray::from(parts.get(2)).to_vec();
    let frame = r
        .render_and_read(1.25)
        .await
        .unwrap()
        .to_straight_rgba8(true);
    let opaque_differs = png
        .chunks(4)
        .zip(frame.chunks(4))
        .filter(|(a, b)| b[3] == 255 && a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 1))
        .count();
    assert_eq!(opaque_differs, 0, "PNG pixels differ from the frame");
    assert!(
        frame.chunks(4).filter(|p| p[3] == 255).count() > 50,
        "an opaque part to compare"
    );
    // Without screenshots: a clear rejection.
    let plain = create(&canvas(8, 8), "{}").await;
    let e = JsFuture::from(plain.screenshot()).await.unwrap_err();
    assert!(
        message(&e).contains("canvas.screenshots"),
        "{}",
        message(&e)
    );
    assert_kind(&e, "ReadbackError", &[]);
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn stats_are_present_and_sane() {
    let r = create(&canvas(64, 48), "{}").await;
    for i in 0..4 {
        r.render(Some(JsValue::from(i as f64 * 0.1))).unwrap();
        next_frame().await;
    }
    let s = r.stats(None).unwrap();
    assert!(get(&s, "gpuMs").is_null(), "no GPU timing until asked for");
    // Asked for: timing from the next frames on.
    let on = JSON::parse(r#"{"gpu":true}"#).unwrap();
    r.stats(Some(on)).unwrap();
    for i in 4..8 {
        r.render(Some(JsValue::from(i as f64 * 0.1))).unwrap();
        next_frame().await;
    }
    let s = r.stats(None).unwrap();
    assert_eq!(get(&s, "frames").as_f64(), Some(8.0));
    let cpu = get(&s, "cpuMs").as_f64().unwrap();
    assert!((0.0..1000.0).contains(&cpu), "cpuMs {cpu}");
    let bytes = get(&s, "gpuBytes").as_f64().unwrap();
    // At least the HDR target (64×48×8) and the multisampled color (×4).
    assert!(bytes >= (64 * 48 * 8 * 5) as f64, "gpuBytes {bytes}");
    assert_eq!(get(&get(&s, "configuration"), "width").as_f64(), Some(64.0));
    let gpu = get(&s, "gpuMs");
    if !gpu.is_null() {
        let names = r.pass_names();
        for name in &names {
            let ms = get(&gpu, name).as_f64().unwrap_or(-1.0);
            assert!((0.0..1000.0).contains(&ms), "gpuMs[{name}] = {ms}");
        }
        assert_eq!(
            js_sys::Object::keys(gpu.unchecked_ref::<Object>()).length() as usize,
            names.len()
        );
    }
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn auto_resize_follows_the_displayed_size() {
    let c = canvas(10, 10);
    c.style().set_property("width", "120px").unwrap();
    c.style().set_property("height", "60px").unwrap();
    let r = create(&c, r#"{"autoResize":true}"#).await;
    for _ in 0..4 {
        next_frame().await;
        r.render(None).unwrap();
    }
    let dpr = web_sys::window().unwrap().device_pixel_ratio();
    assert_eq!(c.width(), (120.0 * dpr).round() as u32);
    assert_eq!(c.height(), (60.0 * dpr).round() as u32);
    c.style().set_property("width", "90px").unwrap();
    for _ in 0..4 {
        next_frame().await;
        r.render(None).unwrap();
    }
    assert_eq!(c.width(), (90.0 * dpr).round() as u32);
    // Off: the canvas keeps the size it has.
    set(&r, r#"{"autoResize":false}"#);
    c.style().set_property("width", "50px").unwrap();
    for _ in 0..3 {
        next_frame().await;
        r.render(None).unwrap();
    }
    assert_eq!(c.width(), (90.0 * dpr).round() as u32);
    // An OffscreenCanvas has no displayed size.
    let off = web_sys::OffscreenCanvas::new(8, 8).unwrap();
    assert_error_kind(
        Renderer::create(off.into(), Some(opts(r#"{"autoResize":true}"#))).await,
        &["autoResize", "HTMLCanvasElement"],
        "OptionError",
        &[("option", r#""autoResize""#), ("allowed", "[false]")],
    );
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn every_method_throws_after_destroy() {
    let r = create(&canvas(8, 8), "{}").await;
    r.destroy().unwrap();
    assert_error(r.set_options(opts("{}")), &["setOptions()", "destroy()"]);
    assert_error(r.options(), &["options()", "destroy()"]);
    assert_error(r.stats(None), &["stats()", "destroy()"]);
    assert_error(r.use_demo_scene(), &["useDemoScene()", "destroy()"]);
    assert_error(
        r.set_image(square_data().await, None),
        &["setImage()", "destroy()"],
    );
    let e = JsFuture::from(r.screenshot()).await.unwrap_err();
    assert!(message(&e).contains("destroy()"));
    assert_kind(
        &e,
        "StateError",
        &[("method", r#""screenshot""#), ("state", r#""destroyed""#)],
    );
    let e = JsFuture::from(
        r.set_scene_shader("fn scene(uv: vec2f, t: f32) -> vec4f { return vec4f(1.0); }".into()),
    )
    .await
    .unwrap_err();
    assert!(message(&e).contains("destroy()"));
    assert_kind(
        &e,
        "StateError",
        &[
            ("method", r#""setSceneShader""#),
            ("state", r#""destroyed""#),
        ],
    );
}

/// Energy farther than `d` pixels from (c, c).
fn far_energy(img: &crate::readback::Image, c: u32, d: u32) -> f64 {
    let mut sum = 0.0;
    for y in 0..img.height {
        for x in 0..img.width {
            if x.abs_diff(c).max(y.abs_diff(c)) > d {
                sum += img.rgba_f32(x, y)[0] as f64;
            }
        }
    }
    sum
}

#[wasm_bindgen_test]
async fn resolve_dither_and_bloom_shape_change_at_run_time() {
    // resolve: a very bright square keeps mid-level edge pixels only when
    // the resolve is tonemap-aware.
    let c = canvas(96, 96);
    let r = create(&c, r#"{"canvas":{"screenshots":true},"tonemapper":"reinhard","dither":false,"bloom":{"enabled":false}}"#).await;
    r.set_content(Content::Shape([50.0, 50.0, 50.0, 1.0]))
        .unwrap();
    let mid = |img: &crate::readback::Image| {
        img.data
            .chunks(4)
            .filter(|p| p[0] > 8 && p[0] < 200)
            .count()
    };
    let hardware = mid(&read(&r).await);
    set(&r, r#"{"resolve":"tonemapped"}"#);
    let tonemapped = mid(&read(&r).await);
    assert!(
        tonemapped > 2 * hardware + 20,
        "tonemapped {tonemapped} vs hardware {hardware}"
    );
    set(&r, r#"{"resolve":"hardware"}"#);
    assert_eq!(mid(&read(&r).await), hardware);

    // dither: a flat dark colour is one value without it, several with it.
    set(&r, r#"{"tonemapper":"none","msaa":1}"#);
    r.set_content(Content::Solid([0.002, 0.002, 0.002, 1.0]))
        .unwrap();
    let distinct = |img: &crate::readback::Image| {
        let mut v: Vec<u8> = img.data.chunks(4).map(|p| p[0]).collect();
        v.sort();
        v.dedup();
        v.len()
    };
    assert_eq!(distinct(&read(&r).await), 1, "no dither");
    set(&r, r#"{"dither":true}"#);
    assert!(distinct(&read(&r).await) > 1, "dither adds noise");
    set(&r, r#"{"dither":false}"#);

    // bloom knee: a flat 0.9 is below a threshold of 1; a hard threshold
    // lets nothing through, a soft knee some.
    if !set_float(&r, r#"{"canvas":{"format":"rgba16float","toneMapping":"extended"},"bloom":{"enabled":true,"intensity":1,"threshold":1,"knee":0}}"#).await {
        return;
    }
    r.set_content(Content::Solid([0.9, 0.9, 0.9, 1.0])).unwrap();
    let flat = 1.055 * 0.9f32.powf(1.0 / 2.4) - 0.055;
    let hard = red(&read(&r).await, 48, 48);
    assert!(
        (hard - flat).abs() < 2e-3,
        "hard threshold: {hard} vs {flat}"
    );
    set(&r, r#"{"bloom":{"knee":0.5}}"#);
    let soft = red(&read(&r).await, 48, 48);
    assert!(soft > flat + 0.01, "soft knee: {soft} vs {flat}");

    // threshold, radius and levels, around one bright pixel.
    r.set_content(bright_pixel(96, (48, 48), 100.0)).unwrap();
    let base = read(&r).await;
    assert!(energy(&base, (48, 48)) > 0.0, "the pixel blooms");
    set(&r, r#"{"bloom":{"threshold":200}}"#);
    assert_eq!(
        energy(&read(&r).await, (48, 48)),
        0.0,
        "threshold above the pixel"
    );
    set(&r, r#"{"bloom":{"threshold":1,"radius":3}}"#);
    let wide = read(&r).await;
    let (far_wide, far_base) = (far_energy(&wide, 48, 6), far_energy(&base, 48, 6));
    assert!(
        far_wide > far_base * 1.1,
        "a larger radius reaches further: {far_wide} vs {far_base}"
    );
    set(&r, r#"{"bloom":{"radius":1,"levels":1}}"#);
    let short = read(&r).await;
    let (far_short, far_base) = (far_energy(&short, 48, 12), far_energy(&base, 48, 12));
    assert!(
        far_short < far_base * 0.5,
        "fewer levels reach less far: {far_short} vs {far_base}"
    );
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn a_lost_device_is_replaced_and_rendering_resumes() {
    let c = canvas(32, 32);
    let r = exact(&c).await;
    r.set_content(Content::Solid([0.5, 0.5, 0.5, 1.0])).unwrap();
    assert_close(read(&r).await.rgba8(4, 4)[0], 188, 2, "before the loss");
    let old = r
        .with_gpu(|g| g.device.as_webgpu().unwrap().clone())
        .unwrap();
    lose_device(&r).await;
    let mut recovered = false;
    for _ in 0..50 {
        next_frame().await;
        r.render(None)
            .expect("render() keeps working while the device is replaced");
        let now = r
            .with_gpu(|g| g.device.as_webgpu().unwrap().clone())
            .unwrap();
        if !Object_is(now.as_ref(), old.as_ref()) && r.with_gpu(|g| g.lost().is_none()).unwrap() {
            recovered = true;
            break;
        }
    }
    assert!(recovered, "no new device after 50 frames");
    // The canvas is configured with the new device, and the content survived.
    let device = r
        .with_gpu(|g| g.device.as_webgpu().unwrap().clone())
        .unwrap();
    assert!(Object_is(
        &get(&context_configuration(&c), "device"),
        device.as_ref()
    ));
    assert_close(read(&r).await.rgba8(4, 4)[0], 188, 2, "after the loss");
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn hostile_option_objects_are_refused_and_the_renderer_keeps_working() {
    let c = canvas(16, 16);
    let r = exact(&c).await;
    let proxies = js(
        "const throwing = new Proxy({}, { ownKeys() { throw new Error('no keys'); } });
         const revocable = Proxy.revocable({}, {}); revocable.revoke();
         const getter = { get exposure() { throw new Error('no exposure'); } };
         return [throwing, revocable.proxy, getter];",
        &JsValue::NULL,
    )
    .await;
    for p in js_sys::Array::from(&proxies).iter() {
        // Refused (or ignored as unreadable), never a stuck renderer.
        let _ = r.set_options(p.clone());
        let _ = r.resize(p.clone(), JsValue::from(8));
    }
    assert_error_kind(
        r.set_options(proxies.clone()),
        &["options", "an array"],
        "ArgumentError",
        &[("argument", r#""options""#)],
    );
    r.set_content(Content::Solid([0.5, 0.5, 0.5, 1.0])).unwrap();
    assert_close(read(&r).await.rgba8(2, 2)[0], 188, 2, "still rendering");
    set(&r, r#"{"exposure":1}"#);
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn a_compiling_shader_follows_msaa_changes_and_yields_to_later_content() {
    let c = canvas(32, 32);
    let r = exact(&c).await;
    let grey = "fn scene(uv: vec2f, time: f32) -> vec4f { return vec4f(0.5, 0.5, 0.5, 1.0); }";
    // msaa changes while the shader compiles: it is installed for 1 sample.
    let pending = r.set_scene_shader(grey.into());
    set(&r, r#"{"msaa":1}"#);
    JsFuture::from(pending).await.unwrap();
    assert_close(
        read(&r).await.rgba8(2, 2)[0],
        188,
        2,
        "shader after msaa change",
    );
    // A later setImage wins over a shader still compiling.
    let white = "fn scene(uv: vec2f, time: f32) -> vec4f { return vec4f(1.0); }";
    let pending = r.set_scene_shader(white.into());
    let image = js(
        "const d = new ImageData(2, 2); d.data.fill(0); for (let i = 3; i < 16; i += 4) d.data[i] = 255; return d;",
        &JsValue::NULL,
    )
    .await;
    r.set_image(image, None).unwrap();
    let e = JsFuture::from(pending).await.unwrap_err();
    assert!(message(&e).contains("not applied"), "{}", message(&e));
    assert_kind(
        &e,
        "StateError",
        &[
            ("method", r#""setSceneShader""#),
            ("state", r#""superseded""#),
        ],
    );
    assert_eq!(
        read(&r).await.rgba8(16, 16)[..3],
        [0, 0, 0],
        "the image stays"
    );
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn image_edges_against_transparency_have_no_dark_fringe() {
    // White opaque next to transparent black, magnified: filtering
    // premultiplied colour keeps the blended pixels white (rgb = alpha in
    // a premultiplied canvas); filtering straight colour would darken them.
    let c = canvas(64, 32);
    let r = create(
        &c,
        &format!(
            r#"{{"canvas":{{"screenshots":true,"alphaMode":"premultiplied"}},"msaa":1,{EXACT}}}"#
        ),
    )
    .await;
    let image = js(
        "const d = new ImageData(2, 1); d.data.set([255, 255, 255, 255, 0, 0, 0, 0]); return d;",
        &JsValue::NULL,
    )
    .await;
    r.set_image(image, None).unwrap();
    let img = read(&r).await;
    let mut blended = 0;
    for x in 0..64 {
        let p = img.rgba8(x, 16);
        if p[3] > 20 && p[3] < 235 {
            blended += 1;
            assert!(p[0] + 3 >= p[3], "dark fringe at x={x}: {p:?}");
        }
    }
    assert!(blended > 10, "pixels between the two texels: {blended}");
    assert_no_gpu_errors(&r);
}

// ---- Errors: the kinds not reached above ----

#[wasm_bindgen_test]
async fn without_webgpu_create_rejects_with_a_device_error() {
    let c = canvas(8, 8);
    js(
        "Object.defineProperty(navigator, 'gpu', { value: undefined, configurable: true });",
        &JsValue::NULL,
    )
    .await;
    let result = Renderer::create(c.into(), None).await;
    js("delete navigator.gpu;", &JsValue::NULL).await;
    assert!(!get(&get(&js_sys::global(), "navigator"), "gpu").is_undefined());
    assert_error_kind(
        result,
        &["navigator.gpu"],
        "DeviceError",
        &[("reason", r#""no-webgpu""#)],
    );
}

#[wasm_bindgen_test]
async fn a_device_that_cannot_be_replaced_is_a_device_error() {
    let c = canvas(16, 16);
    let r = exact(&c).await;
    r.render(None).unwrap();
    // No adapter from now on, then lose the device.
    js(
        "navigator.gpu.requestAdapter = () => Promise.resolve(null);",
        &JsValue::NULL,
    )
    .await;
    lose_device(&r).await;
    let mut lost = None;
    let mut gave_up = None;
    for _ in 0..100 {
        next_frame().await;
        if lost.is_none() {
            // Same size: refused only because the device is gone.
            lost = r.resize(JsValue::from(16), JsValue::from(16)).err();
        }
        if let Err(e) = r.render(None) {
            gave_up = Some(e);
            break;
        }
    }
    js("delete navigator.gpu.requestAdapter;", &JsValue::NULL).await;
    let lost = lost.expect("resize() while the device is lost");
    assert_kind(&lost, "DeviceError", &[("reason", r#""lost""#)]);
    let gave_up = gave_up.expect("render() gives up after the attempts failed");
    assert_kind(
        &gave_up,
        "DeviceError",
        &[("reason", r#""recovery-failed""#)],
    );
    assert!(message(&gave_up).contains("could not be replaced"));
}

#[wasm_bindgen_test]
async fn a_call_during_another_call_is_a_state_error() {
    let c = canvas(16, 16);
    let r = std::rc::Rc::new(exact(&c).await);
    // An ImageData whose width getter calls render(): setImage holds the
    // renderer while it reads the size.
    let inner = r.clone();
    let reenter = Closure::<dyn FnMut() -> JsValue>::new(move || match inner.render(None) {
        Ok(()) => JsValue::NULL,
        Err(e) => e,
    });
    let seen = js(
        "const seen = [];
         class Spy extends ImageData {
           get width() { seen.push(arg()); return super.width; }
         }
         const d = new Spy(2, 2); d.data.fill(255);
         return [d, seen];",
        reenter.as_ref(),
    )
    .await;
    let parts = js_sys::Array::from(&seen);
    r.set_image(parts.get(0), None).unwrap();
    let seen = js_sys::Array::from(&parts.get(1));
    assert!(seen.length() > 0, "the getter ran");
    assert_kind(
        &seen.get(0),
        "StateError",
        &[("method", r#""render""#), ("state", r#""busy""#)],
    );
    // Nothing stuck.
    r.render(None).unwrap();
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
fn internal_errors_keep_their_fields_in_javascript() {
    use crate::error::{Error, TextureRuleError};
    use crate::graph::GraphError;
    let e = crate::web::error_to_js(&Error::Graph(GraphError {
        pass: "bloom downsample 3".into(),
        attachment: "bloom mip 4".into(),
        message: "sizes differ".into(),
    }));
    assert!(
        message(&e).contains("bloom downsample 3"),
        "{}",
        message(&e)
    );
    assert_kind(
        &e,
        "GraphError",
        &[
            ("pass", r#""bloom downsample 3""#),
            ("attachment", r#""bloom mip 4""#),
        ],
    );
    let e = crate::web::error_to_js(&Error::TextureRule(TextureRuleError {
        texture: "hdr target".into(),
        rule: "sample count 2 is not 1 or 4".into(),
    }));
    assert!(message(&e).contains("hdr target"), "{}", message(&e));
    assert_kind(
        &e,
        "TextureRuleError",
        &[
            ("texture", r#""hdr target""#),
            ("rule", r#""sample count 2 is not 1 or 4""#),
        ],
    );
}

/// Frames rendered so far, from `stats()`.
fn frames_rendered(r: &Renderer) -> u64 {
    let stats = r.stats(None).expect("stats");
    get(&stats, "frames").as_f64().expect("frames is a number") as u64
}

/// Bloom that holds still, in the browser: a small bright dot moving by
/// sub-pixel steps blooms in proportion to the pixels it lights, and
/// linearly in its radiance (the same measure as the native suite).
#[wasm_bindgen_test]
async fn a_moving_subpixel_light_blooms_steadily_and_linearly() {
    let options = r#"{"msaa":1,"dither":false,"tonemapper":"none","bloom":{"intensity":1},
        "canvas":{"format":"rgba16float","toneMapping":"extended","screenshots":true}}"#;
    let (mut totals, mut steady) = (vec![], vec![]);
    for radiance in [15.0f32, 30.0] {
        let c = canvas(DOT_SIZE.0, DOT_SIZE.1);
        let Some(r) = create_or_refused(&c, options).await else {
            return;
        };
        JsFuture::from(r.set_scene_shader(dot_shader(radiance).into()))
            .await
            .expect("the dot shader compiles");
        let mut per_frame = vec![];
        for i in 0..DOT_FRAMES {
            let img = r.render_and_read(i as f64).await.unwrap();
            let e = halo_energy(i, |x, y| {
                let p = img.rgba_f32(x, y).map(srgb_to_linear);
                (p[0] + p[1] + p[2]) / 3.0
            });
            per_frame.push((e, lit_pixels(i)));
        }
        steady.push((radiance, steadiness(&per_frame)));
        totals.push(per_frame.iter().map(|p| p.0).sum::<f64>());
        assert_no_gpu_errors(&r);
        r.destroy().unwrap();
    }
    let ratio = totals[1] / totals[0];
    for (radiance, (mean, cv)) in steady {
        assert!(mean > 0.0, "radiance {radiance}: no halo");
        assert!(
            cv <= 0.01,
            "radiance {radiance}: halo per lit pixel varies by {cv:.3} (ratio {ratio:.2})"
        );
    }
    assert!(
        (1.8..=2.2).contains(&ratio),
        "halo grows {ratio:.2}× for 2× radiance"
    );
}

/// A canvas that is 0×0 at `create()`, or set to 0 by the page behind the
/// renderer's back, gives no GPU validation error: frames are skipped until
/// it has a size again.
#[wasm_bindgen_test]
async fn zero_size_canvases_give_no_gpu_errors() {
    let c = canvas(0, 0);
    let r = create(&c, "{}").await;
    r.render(None).unwrap();
    assert_no_gpu_errors(&r);
    r.resize(JsValue::from(16), JsValue::from(8)).unwrap();
    r.render(None).unwrap();
    assert_eq!(frames_rendered(&r), 1, "renders once it has a size");
    next_frame().await;
    assert_no_gpu_errors(&r);
    // The page sets the configured canvas to 0 behind afterglow's back.
    // Firefox (153) itself may then report a zero-size texture on the
    // canvas's device (seen once in a full run): that is the page's doing,
    // so the page's two width changes run under a scope of the test's. The
    // skipped frames between them do no GPU work at all.
    let device = device_of(&r);
    js("arg.pushErrorScope('validation');", &device).await;
    c.set_width(0);
    r.render(None).unwrap();
    r.render(None).unwrap();
    assert_eq!(frames_rendered(&r), 1, "skipped while the page set it to 0");
    c.set_width(16);
    js("arg.popErrorScope();", &device).await;
    r.render(None).unwrap();
    assert_eq!(frames_rendered(&r), 2);
    next_frame().await;
    assert_no_gpu_errors(&r);
}
mod reliability;

/// A device the browser refuses is a `DeviceError` in the browser's words:
/// no Rust formatting (`JsValue(…)`, `Some(…)`) reaches the message.
#[wasm_bindgen_test]
async fn a_refused_device_is_reported_in_the_browsers_words() {
    js(
        "const request = GPUAdapter.prototype.requestDevice;
         GPUAdapter.prototype.requestDevice = async function () {
           GPUAdapter.prototype.requestDevice = request;
           throw new DOMException('the adapter is consumed', 'OperationError'); };",
        &JsValue::NULL,
    )
    .await;
    let c = canvas(8, 8);
    let e = assert_error(
        Renderer::create(c.into(), Some(opts("{}"))).await,
        &["no device", "OperationError", "the adapter is consumed"],
    );
    let text = message(&e);
    for rust in ["JsValue(", "Some(", "Error {", "\\\"", "\n"] {
        assert!(!text.contains(rust), "Rust formatting {rust:?} in {text:?}");
    }
    assert_eq!(get(&e, "name").as_string().as_deref(), Some("DeviceError"));
    // The next renderer gets its device as usual.
    let _ = create(&canvas(8, 8), "{}").await;
}

/// Image sources made in another realm (an iframe's canvas, ImageBitmap
/// and ImageData) are taken by what they are, as canvases are by
/// `create`: `instanceof` against this realm's classes would refuse them.
#[wasm_bindgen_test]
async fn image_sources_from_another_realm_are_accepted() {
    let sources = js(
        "const frame = document.createElement('iframe');
         document.body.appendChild(frame);
         const w = frame.contentWindow;
         const canvas = w.document.createElement('canvas');
         canvas.width = 16; canvas.height = 16;
         const g = canvas.getContext('2d');
         g.fillStyle = '#fff'; g.fillRect(0, 0, 16, 16);
         const data = new w.ImageData(16, 16);
         data.data.fill(255);
         return w.createImageBitmap(data).then((bitmap) => {
           const out = [canvas, bitmap, data];
           out.frame = frame;
           return out;
         });",
        &JsValue::NULL,
    )
    .await;
    let c = canvas(16, 16);
    let Some(r) = float_renderer(&c, &measuring(r#"{"enabled":false}"#)).await else {
        return;
    };
    for source in js_sys::Array::from(&sources).iter() {
        assert!(
            !source.is_instance_of::<web_sys::HtmlCanvasElement>()
                && !source.is_instance_of::<web_sys::ImageBitmap>()
                && !source.is_instance_of::<web_sys::ImageData>(),
            "not from this realm"
        );
        r.set_image(source.clone(), None)
            .unwrap_or_else(|e| panic!("{}: {}", describe_js(&source), message(&e)));
        let v = red(&read(&r).await, 8, 8);
        assert!(
            v > 0.9,
            "{}: the white image shows as {v}",
            describe_js(&source)
        );
    }
    assert_no_gpu_errors(&r);
    let frame: web_sys::Element = get(&sources, "frame").unchecked_into();
    frame.remove();
}

fn describe_js(v: &JsValue) -> String {
    let o: &Object = v.unchecked_ref();
    o.to_string().into()
}

// ---- The look: lookup tables and lens dirt ----

/// The `.cube` text of a table of `size` whose colour at the grid's input
/// (r, g, b) is `f(r, g, b)`.
fn cube(size: u32, f: impl Fn(f32, f32, f32) -> [f32; 3]) -> String {
    let last = (size - 1) as f32;
    let mut text = format!("# test table\nTITLE \"test\"\nLUT_3D_SIZE {size}\n");
    for b in 0..size {
        for g in 0..size {
            for r in 0..size {
                let c = f(r as f32 / last, g as f32 / last, b as f32 / last);
                text += &format!("{} {} {}\n", c[0], c[1], c[2]);
            }
        }
    }
    text
}

#[wasm_bindgen_test]
async fn a_lookup_table_swaps_red_and_blue_and_a_bad_one_names_its_line() {
    let c: JsValue = canvas(16, 16).into();
    let r = exact(&c).await;
    r.set_content(Content::Solid([0.6, 0.3, 0.1, 1.0])).unwrap();
    let plain = read(&r).await.rgba8(8, 8);
    r.set_lut(cube(9, |r, g, b| [b, g, r]).into()).unwrap();
    let swapped = read(&r).await.rgba8(8, 8);
    assert_close(swapped[0], plain[2], 2, "red is the blue");
    assert_close(swapped[2], plain[0], 2, "blue is the red");
    assert_close(swapped[1], plain[1], 2, "green stays");

    // A malformed file: the line and what is wrong; the table stays.
    let bad = cube(2, |r, g, b| [r, g, b]).replace("1 1 1\n", "1 x 1\n");
    assert_error_kind(
        r.set_lut(bad.into()),
        &["line 11", "'x' is not a finite number"],
        "ArgumentError",
        &[("argument", r#""cube""#)],
    );
    assert_error_kind(
        r.set_lut(JsValue::from(5)),
        &["cube", "text of a .cube file", "5"],
        "ArgumentError",
        &[("argument", r#""cube""#)],
    );
    assert_error_kind(
        r.set_lut("LUT_3D_SIZE 99".into()),
        &["line 1", "from 2 to 65"],
        "ArgumentError",
        &[("argument", r#""cube""#)],
    );
    // Only null removes the table: undefined is more likely a file that
    // has not loaded than a request to remove it.
    assert_error_kind(
        r.set_lut(JsValue::UNDEFINED),
        &["cube", "or null", "undefined"],
        "ArgumentError",
        &[("argument", r#""cube""#)],
    );
    assert_eq!(
        read(&r).await.rgba8(8, 8),
        swapped,
        "the previous table stays"
    );
    // Half of it, then none.
    set(&r, r#"{"grading":{"lutIntensity":0.5}}"#);
    let half = read(&r).await.rgba8(8, 8);
    assert!(
        half[0] > swapped[0] + 10 && half[0] + 10 < plain[0],
        "half: {half:?}"
    );
    r.set_lut(JsValue::NULL).unwrap();
    assert_eq!(read(&r).await.rgba8(8, 8), plain, "no table");
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn lens_dirt_multiplies_the_bloom_and_nothing_else() {
    let c: JsValue = canvas(64, 64).into();
    let Some(r) = float_renderer(&c, &measuring(r#"{"intensity":1,"radius":0.5}"#)).await else {
        return;
    };
    r.set_content(super::common::bright_pixel(64, (32, 32), 50.0))
        .unwrap();
    let clean = read(&r).await;
    // White on the left half, black on the right (opaque).
    let dirt = js(
        "const d = new ImageData(4, 4);
         for (let i = 0; i < 16; i++) {
           const v = (i % 4) < 2 ? 255 : 0;
           d.data[i * 4] = d.data[i * 4 + 1] = d.data[i * 4 + 2] = v; d.data[i * 4 + 3] = 255;
         }
         return d;",
        &JsValue::NULL,
    )
    .await;
    JsFuture::from(r.set_lens_dirt(dirt.clone())).await.unwrap();
    let dirty = read(&r).await;
    let lin = |img: &crate::readback::Image, x: u32| super::common::srgb_decode(red(img, x, 32));
    let gain = lin(&dirty, 20) / lin(&clean, 20);
    assert!((1.9..=2.1).contains(&gain), "dirt 1 gave {gain}× the halo");
    let kept = lin(&dirty, 44) / lin(&clean, 44);
    assert!(
        (0.97..=1.03).contains(&kept),
        "dirt 0 gave {kept}× the halo"
    );
    // Where the dirt is black, nothing changes at all.
    for (x, y) in [(62, 1), (62, 62), (50, 20)] {
        assert_eq!(red(&dirty, x, y), red(&clean, x, y), "({x}, {y})");
    }

    let e = JsFuture::from(r.set_lens_dirt(JsValue::from("dirt.png")))
        .await
        .unwrap_err();
    assert!(message(&e).contains("GPUTexture"), "{}", message(&e));
    assert_kind(&e, "ArgumentError", &[("argument", r#""source""#)]);
    let e = JsFuture::from(r.set_lens_dirt(JsValue::UNDEFINED))
        .await
        .unwrap_err();
    assert!(message(&e).contains("got undefined"), "{}", message(&e));
    assert_kind(&e, "ArgumentError", &[("argument", r#""source""#)]);
    // A texture of a device the renderer does not share.
    let other = js(
        "return navigator.gpu.requestAdapter().then((a) => a.requestDevice()).then((d) =>
           d.createTexture({ size: [4, 4], format: 'rgba8unorm',
             usage: GPUTextureUsage.TEXTURE_BINDING }));",
        &JsValue::NULL,
    )
    .await;
    let e = JsFuture::from(r.set_lens_dirt(other)).await.unwrap_err();
    assert!(
        message(&e).contains("only a renderer on your own GPUDevice"),
        "{}",
        message(&e)
    );
    assert_kind(&e, "ArgumentError", &[("argument", r#""source""#)]);
    assert_eq!(
        read(&r).await.data,
        dirty.data,
        "the dirt stays after a refusal"
    );

    JsFuture::from(r.set_lens_dirt(JsValue::NULL))
        .await
        .unwrap();
    assert_eq!(read(&r).await.data, clean.data, "no dirt");
    r.destroy().unwrap();
    let e = JsFuture::from(r.set_lens_dirt(dirt)).await.unwrap_err();
    assert!(message(&e).contains("destroy()"), "{}", message(&e));
    assert_error(r.set_lut(JsValue::NULL), &["setLut()", "destroy()"]);
}

/// `matchMedia('(dynamic-range: high)')` answered as on an HDR display
/// (`true`) or the browser's own answer again (`false`).
async fn emulate_hdr_display(on: bool) {
    js(
        "window.__matchMedia ??= window.matchMedia;
         window.matchMedia = arg
           ? (q) => (q.replace(/\\s/g, '') === '(dynamic-range:high)'
               ? { matches: true, media: q, addEventListener() {}, removeEventListener() {} }
               : window.__matchMedia(q))
           : window.__matchMedia;",
        &JsValue::from(on),
    )
    .await;
}

/// Capabilities are detected, not assumed. On an HDR display,
/// `dynamicRange: 'auto'` takes the HDR path where the engine has it and
/// stays on the 8-bit path where it lacks an `rgba16float` canvas (as
/// Firefox does) or `toneMapping: 'extended'`, and `configuration()` says
/// why; asking for HDR explicitly there is a `CanvasError` naming what is
/// missing; and without timestamp queries `stats()` says GPU timing is
/// unavailable.
#[wasm_bindgen_test]
async fn capabilities_an_engine_lacks_choose_the_8_bit_path_and_say_why() {
    emulate_hdr_display(true).await;
    let c = canvas(16, 16);
    let r = create(
        &c,
        r#"{"canvas":{"dynamicRange":"auto","screenshots":true}}"#,
    )
    .await;
    let range = |r: &Renderer| {
        let cfg = r.configuration().unwrap();
        let choice = get(&cfg, "dynamicRange");
        (
            get(&cfg, "format").as_string().unwrap_or_default(),
            get(&choice, "hdr").as_bool(),
            get(&choice, "why").as_string().unwrap_or_default(),
        )
    };
    let (format, hdr, why) = range(&r);
    let float = engine_has_float_canvas().await;
    if float {
        assert_eq!((format.as_str(), hdr), ("rgba16float", Some(true)), "{why}");
        assert!(why.contains("high dynamic range"), "{why}");
    } else {
        // This engine lacks it itself (Firefox): the same as pretended below.
        assert_eq!((format, hdr), (preferred_format(), Some(false)), "{why}");
        assert!(why.contains("'rgba16float' canvas"), "{why}");
    }

    // An engine without an rgba16float canvas, as Firefox is.
    r.pretend_engine(false, false, true).unwrap();
    let (format, hdr, why) = range(&r);
    assert_eq!((format, hdr), (preferred_format(), Some(false)), "{why}");
    assert!(why.contains("'rgba16float' canvas"), "{why}");
    read(&r).await;
    let explicit =
        r#"{"canvas":{"dynamicRange":"standard","format":"rgba16float","toneMapping":"extended"}}"#;
    let e = r.set_options(opts(explicit)).unwrap_err();
    assert_kind(&e, "CanvasError", &[]);
    assert!(
        message(&e).contains("canvas.format 'rgba16float'"),
        "{}",
        message(&e)
    );

    // One that takes the format but drops toneMapping.
    r.pretend_engine(true, false, true).unwrap();
    let (_, hdr, why) = range(&r);
    assert_eq!(hdr, Some(false), "{why}");
    assert!(why.contains("toneMapping 'extended'"), "{why}");
    let e = r.set_options(opts(explicit)).unwrap_err();
    assert!(
        message(&e).contains("canvas.toneMapping 'extended'"),
        "{}",
        message(&e)
    );
    // The renderer keeps working on the 8-bit path.
    assert_eq!(range(&r).0, preferred_format());
    read(&r).await;

    // GPU timing: on where the device has timestamp queries, unavailable
    // where it has none.
    let has_timestamps = r
        .with_gpu(|g| g.features.contains(wgpu::Features::TIMESTAMP_QUERY))
        .unwrap();
    let stats = r.stats(Some(opts(r#"{"gpu":true}"#))).unwrap();
    let timing = if has_timestamps { "on" } else { "unavailable" };
    assert_eq!(
        get(&stats, "gpuTiming").as_string().as_deref(),
        Some(timing)
    );
    r.pretend_engine(float, float, false).unwrap();
    read(&r).await;
    let stats = r.stats(Some(opts(r#"{"gpu":true}"#))).unwrap();
    assert_eq!(
        get(&stats, "gpuTiming").as_string().as_deref(),
        Some("unavailable")
    );
    assert!(get(&stats, "gpuMs").is_null());
    assert_no_gpu_errors(&r);
    r.destroy().unwrap();
    emulate_hdr_display(false).await;
}

/// A renderer that cannot be made (here: `configure()` throws) gives back
/// the device it requested at once, not when the garbage collector gets to
/// it: browsers hold a device's memory until then, and some stop answering
/// `requestDevice` after a few.
#[wasm_bindgen_test]
async fn a_failed_create_destroys_the_device_it_requested() {
    let c = canvas(8, 8);
    js(
        "const request = GPUAdapter.prototype.requestDevice;
         window.__devices = [];
         GPUAdapter.prototype.requestDevice = async function (d) {
           const device = await request.call(this, d);
           window.__devices.push(device);
           device.__destroyed = false;
           const destroy = device.destroy;
           device.destroy = function () { this.__destroyed = true; return destroy.call(this); };
           GPUAdapter.prototype.requestDevice = request;
           return device;
         };
         // This canvas's configure() throws (not the scratch canvas on
         // which afterglow asks what the engine can do).
         const configure = GPUCanvasContext.prototype.configure;
         GPUCanvasContext.prototype.configure = function (c) {
           if (this.canvas !== arg) return configure.call(this, c);
           GPUCanvasContext.prototype.configure = configure;
           throw new TypeError('configure refused for the test');
         };",
        &c,
    )
    .await;
    let Err(e) = Renderer::create(c.into(), Some(opts("{}"))).await else {
        panic!("create succeeded although configure() threw");
    };
    assert_kind(&e, "CanvasError", &[]);
    assert!(
        message(&e).contains("configure refused for the test"),
        "{}",
        message(&e)
    );
    // Destroyed once the work submitted to it is done (none here).
    let destroyed = js(
        "const d = window.__devices;
         if (d.length !== 1) return false;
         return d[0].queue.onSubmittedWorkDone()
           .then(() => new Promise((r) => setTimeout(r, 0)))
           .then(() => d[0].__destroyed);",
        &JsValue::NULL,
    )
    .await;
    assert_eq!(
        destroyed.as_bool(),
        Some(true),
        "the requested device was destroyed"
    );
}

/// `antialias` from JavaScript: each mode smooths a hard edge a scene
/// shader draws once per pixel and leaves the flat parts as they were;
/// 'none' gives the frame back byte for byte; any other value is an
/// `OptionError` listing the three. A scene effect that needs the fragment
/// stage's derivatives leaves the picture as it was. A scene effect of
/// the page's that reads `light_at` 8 pixels to the left moves the picture
/// 8 pixels right.
#[wasm_bindgen_test]
async fn antialiasing_and_light_at_from_javascript() {
    let c = canvas(64, 64);
    let r = exact(&c).await;
    // A bright half-plane whose edge leans 30° off vertical.
    let edge = "fn scene(uv: vec2f, time: f32) -> vec4f {\n  let p = uv * 64.0;\n  \
                let lit = p.x - 20.0 > (p.y - 32.0) * 0.577;\n  \
                return vec4f(select(vec3f(0.02), vec3f(0.9), lit), 1.0);\n}";
    JsFuture::from(r.set_scene_shader(edge.into()))
        .await
        .unwrap();
    let none = read(&r).await;
    for mode in ["fxaa", "smaa"] {
        set(&r, &format!(r#"{{"antialias":"{mode}"}}"#));
        let smoothed = read(&r).await;
        let mut changed = 0;
        for y in 8..56 {
            for x in 0..64 {
                let (a, b) = (none.rgba8(x, y)[1], smoothed.rgba8(x, y)[1]);
                let edge_x = 20.0 + (y as f32 + 0.5 - 32.0) * 0.577;
                if (x as f32 + 0.5 - edge_x).abs() > 3.0 {
                    assert_close(b, a, 1, &format!("{mode}: flat ({x}, {y})"));
                } else if a.abs_diff(b) > 8 {
                    changed += 1;
                }
            }
        }
        assert!(changed >= 24, "{mode}: {changed} edge pixels smoothed");
        // A scene effect that takes a derivative keeps the display image
        // drawn rather than computed; the picture is the same either way.
        let derivative = r#"{"wgsl":"fn effect(color: vec4f, uv: vec2f) -> vec4f {\n  return color * (1.0 + 0.0 * dpdx(uv.x));\n}"}"#;
        JsFuture::from(r.add_effect("derivative".into(), opts(derivative)))
            .await
            .unwrap();
        let drawn = read(&r).await;
        r.remove_effect("derivative".into()).unwrap();
        let mut worst = 0;
        for (a, b) in smoothed.data.iter().zip(&drawn.data) {
            worst = worst.max(a.abs_diff(*b));
        }
        assert_eq!(
            worst, 0,
            "{mode}: the drawn and computed display images differ"
        );
    }
    set(&r, r#"{"antialias":"none"}"#);
    assert_eq!(
        read(&r).await.data,
        none.data,
        "'none' is the frame as it was"
    );
    let e = r.set_options(opts(r#"{"antialias":"msaa"}"#)).unwrap_err();
    assert_kind(&e, "OptionError", &[]);
    for name in ["'none'", "'fxaa'", "'smaa'"] {
        assert!(message(&e).contains(name), "{}", message(&e));
    }

    let shift = r#"{"wgsl":"fn effect(color: vec4f, uv: vec2f) -> vec4f {\n  return light_at(uv - vec2f(8.0, 0.0) * texel());\n}"}"#;
    JsFuture::from(r.add_effect("shift".into(), opts(shift)))
        .await
        .unwrap();
    let shifted = read(&r).await;
    for y in 0..64 {
        for x in 8..64 {
            let (want, got) = (none.rgba8(x - 8, y), shifted.rgba8(x, y));
            for ch in 0..3 {
                assert_close(got[ch], want[ch], 1, &format!("({x}, {y}) from x - 8"));
            }
        }
    }
    let late = r#"{"stage":"display","wgsl":"fn effect(color: vec4f, uv: vec2f) -> vec4f {\n  return light_at(uv);\n}"}"#;
    let e = JsFuture::from(r.add_effect("late".into(), opts(late)))
        .await
        .unwrap_err();
    assert_kind(&e, "ShaderError", &[("line", "2")]);
    assert!(message(&e).contains("'scene'"), "{}", message(&e));
    assert_no_gpu_errors(&r);
}

/// `upscale` and `sharpen` from JavaScript: at `renderScale: 0.5` the
/// edge-adaptive upscaler keeps a leaning edge (drawn supersampled) closer
/// to the full-size frame than bilinear does, and leaves the flat parts as
/// they were; sharpening moves edge pixels and not flat ones; bad values
/// are `OptionError`s naming the option.
#[wasm_bindgen_test]
async fn rendering_fewer_pixels_from_javascript() {
    let c = canvas(64, 64);
    let r = exact(&c).await;
    // A bright half-plane leaning 30° off vertical, each pixel the mean of
    // 4 x 4 samples of its footprint.
    let edge = "fn scene(uv: vec2f, time: f32) -> vec4f {\n  let p = uv * 64.0;\n  \
                let step = vec2f(abs(dpdx(p).x), abs(dpdy(p).y));\n  var lit = 0.0;\n  \
                for (var i = 0; i < 16; i++) {\n    \
                let q = p + ((vec2f(f32(i % 4), f32(i / 4)) + 0.5) / 4.0 - 0.5) * step;\n    \
                lit += select(0.0, 1.0, q.x - 20.0 > (q.y - 32.0) * 0.577);\n  }\n  \
                return vec4f(mix(vec3f(0.02), vec3f(0.9), lit / 16.0), 1.0);\n}";
    JsFuture::from(r.set_scene_shader(edge.into()))
        .await
        .unwrap();
    let full = read(&r).await;
    // Mean error near the edge, and the largest error away from it.
    let error = |img: &crate::readback::Image| {
        let (mut near, mut n, mut far) = (0.0, 0, 0);
        for y in 4..60 {
            for x in 0..64 {
                let e = img.rgba8(x, y)[1].abs_diff(full.rgba8(x, y)[1]);
                let edge_x = 20.0 + (y as f32 + 0.5 - 32.0) * 0.577;
                if (x as f32 + 0.5 - edge_x).abs() <= 2.0 {
                    near += f64::from(e);
                    n += 1;
                } else if (x as f32 + 0.5 - edge_x).abs() > 4.0 {
                    far = far.max(e);
                }
            }
        }
        (near / f64::from(n), far)
    };
    set(&r, r#"{"renderScale":0.5,"upscale":"bilinear"}"#);
    let (bilinear, _) = error(&read(&r).await);
    set(&r, r#"{"upscale":"edge"}"#);
    let edge_frame = read(&r).await;
    let (edge_error, far) = error(&edge_frame);
    assert!(
        edge_error <= 0.75 * bilinear,
        "edge {edge_error:.2} against bilinear {bilinear:.2}"
    );
    assert!(far <= 1, "flat parts moved by {far}");
    set(&r, r#"{"sharpen":{"amount":0.5}}"#);
    let sharpened = read(&r).await;
    let mut moved = 0;
    for y in 4..60 {
        for x in 0..64 {
            let (a, b) = (edge_frame.rgba8(x, y)[1], sharpened.rgba8(x, y)[1]);
            let edge_x = 20.0 + (y as f32 + 0.5 - 32.0) * 0.577;
            if (x as f32 + 0.5 - edge_x).abs() > 4.0 {
                assert_close(b, a, 1, &format!("sharpened, flat ({x}, {y})"));
            } else if a.abs_diff(b) > 2 {
                moved += 1;
            }
        }
    }
    assert!(moved >= 20, "{moved} edge pixels sharpened");
    let e = r.set_options(opts(r#"{"upscale":"fsr"}"#)).unwrap_err();
    assert_kind(&e, "OptionError", &[]);
    for name in ["'bilinear'", "'edge'"] {
        assert!(message(&e).contains(name), "{}", message(&e));
    }
    let e = r
        .set_options(opts(r#"{"sharpen":{"amount":2}}"#))
        .unwrap_err();
    assert_kind(&e, "OptionError", &[]);
    assert!(message(&e).contains("sharpen.amount"), "{}", message(&e));
    assert_no_gpu_errors(&r);
}
