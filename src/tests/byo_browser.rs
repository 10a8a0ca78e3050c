//! Browser tests of bringing your own scene: a device the test creates,
//! handed to `Renderer.create(canvas, { device })`, and textures the test
//! renders, handed to `setTexture`. Pixels are read back from the canvas.

use crate::web::Renderer;
use js_sys::{Function, Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

#[allow(unused_imports)]
use super::common::*;

pub(super) fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &key.into()).unwrap()
}

pub(super) fn canvas(w: u32, h: u32) -> JsValue {
    let document = web_sys::window().unwrap().document().unwrap();
    let c: web_sys::HtmlCanvasElement = document.create_element("canvas").unwrap().unchecked_into();
    c.set_width(w);
    c.set_height(h);
    document.body().unwrap().append_child(&c).unwrap();
    c.into()
}

/// Runs `body` (JavaScript, may `await`) as an async function of `args`.
pub(super) async fn js(args: &str, body: &str, values: &[&JsValue]) -> JsValue {
    let f = Function::new_with_args(args, &format!("return (async () => {{ {body} }})();"));
    let array: js_sys::Array = values.iter().copied().collect();
    let promise: js_sys::Promise = f.apply(&JsValue::NULL, &array).unwrap().unchecked_into();
    JsFuture::from(promise).await.unwrap()
}

/// A device of the test's own, as an app would have.
pub(super) async fn app_device() -> JsValue {
    js(
        "",
        "const a = await navigator.gpu.requestAdapter(); return await a.requestDevice();",
        &[],
    )
    .await
}

/// The app's own error handler on `device`, collecting into `device.seen`
/// what afterglow must never let through to it.
pub(super) async fn watch_app_handler(device: &JsValue) {
    js(
        "d",
        "d.seen = []; d.onuncapturederror = (e) => d.seen.push(e.error.message);",
        &[device],
    )
    .await;
}

/// A `w`×`h` rgba16float texture, black but for `pixels` ([x, y, value]
/// in every channel), with `TEXTURE_BINDING | COPY_DST`.
pub(super) async fn texture(
    device: &JsValue,
    w: u32,
    h: u32,
    pixels: &[(u32, u32, f32)],
) -> JsValue {
    let list: js_sys::Array = pixels
        .iter()
        .map(|&(x, y, v)| -> JsValue { js_sys::Array::of3(&x.into(), &y.into(), &v.into()).into() })
        .collect();
    js(
        "d, w, h, pixels",
        "const half = (v) => { if (v === 0) return 0; const e = Math.floor(Math.log2(v));
           return ((e + 15) << 10) | Math.round((v / 2 ** e - 1) * 1024); };
         const t = d.createTexture({ label: 'test scene', size: [w, h], format: 'rgba16float',
           usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
         const data = new Uint16Array(w * h * 4);
         for (const [x, y, v] of pixels) { data.fill(half(v), (y * w + x) * 4, (y * w + x) * 4 + 3);
           data[(y * w + x) * 4 + 3] = half(1); }
         d.queue.writeTexture({ texture: t }, data, { bytesPerRow: w * 8 }, [w, h]);
         return t;",
        &[device, &w.into(), &h.into(), &list.into()],
    )
    .await
}

/// A light far above white (100 to 200 in the tests) as read back: above
/// 1 on a float canvas, white on an 8-bit one.
const SHOWN: f32 = 0.99;

/// Options that measure light: linear float canvas (where the engine has
/// none, the 8-bit canvas: light above white is clamped there), no
/// tonemapping, no MSAA or dither, readable; and the app's `device`.
pub(super) async fn measuring(device: Option<&JsValue>, bloom: &str) -> JsValue {
    let canvas = if engine_has_float_canvas().await {
        r#"{"format":"rgba16float","toneMapping":"extended","screenshots":true}"#
    } else {
        r#"{"screenshots":true}"#
    };
    let o = JSON::parse(&format!(
        r#"{{"canvas":{canvas},"msaa":1,"tonemapper":"none","dither":false,"bloom":{bloom}}}"#
    ))
    .unwrap();
    if let Some(device) = device {
        Reflect::set(&o, &"device".into(), device).unwrap();
    }
    o
}

pub(super) async fn create(c: &JsValue, options: JsValue) -> Renderer {
    match Renderer::create(c.clone(), Some(options)).await {
        Ok(r) => r,
        Err(e) => panic!("create failed: {e:?}"),
    }
}

fn bloom_option(bloom: &JsValue) -> JsValue {
    let o = js_sys::Object::new();
    Reflect::set(&o, &"bloom".into(), bloom).unwrap();
    o.into()
}

pub(super) async fn read(r: &Renderer) -> crate::readback::Image {
    r.render_and_read(0.0).await.expect("frame read back")
}

pub(super) fn assert_no_gpu_errors(r: &Renderer) {
    let (count, last) = r
        .with_gpu(|g| (g.error_count(), g.last_error()))
        .expect("renderer alive");
    assert_eq!(count, 0, "uncaptured GPU error: {last:?}");
}

/// Asserts an `ArgumentError` naming `argument`, whose message has `needle`.
pub(super) fn assert_argument<T>(result: Result<T, JsValue>, argument: &str, needle: &str) {
    let Err(e) = result else {
        panic!("expected an ArgumentError about {argument} ({needle})")
    };
    let message = get(&e, "message").as_string().unwrap_or_default();
    assert_eq!(
        get(&e, "name").as_string().as_deref(),
        Some("ArgumentError"),
        "{message}"
    );
    assert_eq!(
        get(&e, "argument").as_string().as_deref(),
        Some(argument),
        "{message}"
    );
    assert!(
        message.contains(needle),
        "{message:?} does not mention {needle:?}"
    );
}

#[wasm_bindgen_test]
async fn the_apps_texture_blooms_around_its_bright_pixel() {
    let device = app_device().await;
    let c = canvas(128, 128);
    let r = create(&c, measuring(Some(&device), r#"{"intensity":1}"#).await).await;
    let t = texture(&device, 128, 128, &[(65, 65, 200.0)]).await;
    r.set_texture(t, None).unwrap();
    let img = read(&r).await;
    assert!(red(&img, 65, 65) >= SHOWN, "the pixel itself is shown");
    check_halo(&img, 65, "app texture");
    assert_no_gpu_errors(&r);
    // The app's own error handler is left alone.
    assert!(get(&device, "onuncapturederror").is_null());
}

#[wasm_bindgen_test]
async fn only_the_bloom_textures_pixels_glow() {
    let device = app_device().await;
    let c = canvas(128, 128);
    let r = create(&c, measuring(Some(&device), r#"{"intensity":1}"#).await).await;
    let scene = texture(&device, 128, 128, &[(32, 64, 200.0), (96, 64, 200.0)]).await;
    let emissive = texture(&device, 128, 128, &[(96, 64, 200.0)]).await;
    r.set_texture(scene.clone(), Some(bloom_option(&emissive)))
        .unwrap();
    let img = read(&r).await;
    // Both pixels are in the image; only the emissive one has a halo.
    assert!(red(&img, 32, 64) >= SHOWN && red(&img, 96, 64) >= SHOWN);
    let lit = red(&img, 102, 64);
    let unlit = red(&img, 26, 64);
    assert!(lit > 1e-3, "no halo around the emissive pixel");
    assert!(
        unlit < 0.05 * lit,
        "the scene-only pixel glows: {unlit} next to it vs {lit} by the emissive one"
    );
    // Without the bloom texture both glow alike.
    r.set_texture(scene, None).unwrap();
    let img = read(&r).await;
    let (a, b) = (red(&img, 26, 64), red(&img, 102, 64));
    assert!(a > 1e-3 && (a - b).abs() <= 0.2 * a.max(b), "{a} vs {b}");
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn bind_groups_are_made_only_when_the_texture_changes() {
    let device = app_device().await;
    let c = canvas(96, 96);
    let r = create(&c, measuring(Some(&device), r#"{"intensity":1}"#).await).await;
    let a = texture(&device, 96, 96, &[(48, 48, 100.0)]).await;
    r.set_texture(a.clone(), None).unwrap();
    read(&r).await;
    let snapshot = || r.with_gpu(|g| g.counters.snapshot()).unwrap();
    let before = snapshot();
    for t in 0..3 {
        r.set_texture(a.clone(), None).unwrap();
        r.render(Some(JsValue::from(t as f64))).unwrap();
    }
    check_frame_objects(&snapshot().since(&before), 3, true, "same texture");
    // Another object, of another size: rebound once, scaled to fill.
    let b = texture(&device, 48, 48, &[(24, 24, 100.0)]).await;
    let before = snapshot();
    r.set_texture(b, None).unwrap();
    let swap = snapshot().since(&before);
    assert!(swap.bind_groups > 0, "the swap made no bind group");
    let img = read(&r).await;
    assert_eq!((img.width, img.height), (96, 96));
    assert!(
        red(&img, 48, 48) >= SHOWN,
        "the smaller texture fills the canvas"
    );
    // One texel covers 2×2 output pixels here: the halo is centred
    // between pixels, so only its presence is checked.
    assert!(
        red(&img, 56, 48) > 1e-3 && red(&img, 40, 48) > 1e-3,
        "no halo when scaled"
    );
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn every_refused_texture_names_what_is_wrong() {
    let device = app_device().await;
    let c = canvas(32, 32);
    let r = create(&c, measuring(Some(&device), "{}").await).await;
    let make = |desc: &str| {
        let device = device.clone();
        let desc = desc.to_string();
        async move {
            js(
                "d",
                &format!("const U = GPUTextureUsage; return d.createTexture({desc});"),
                &[&device],
            )
            .await
        }
    };
    let cases = [
        (
            "{ size: [8, 8], format: 'rgba16float', sampleCount: 4, usage: U.RENDER_ATTACHMENT | U.TEXTURE_BINDING }",
            "multisampled",
        ),
        ("{ size: [8, 8], format: 'rgba16float', usage: U.COPY_DST }", "TEXTURE_BINDING"),
        ("{ size: [8, 8], format: 'depth24plus', usage: U.TEXTURE_BINDING }", "depth"),
        (
            "{ size: [8, 8, 2], dimension: '3d', format: 'rgba16float', usage: U.TEXTURE_BINDING }",
            "'3d'",
        ),
        ("{ size: [8, 8, 2], format: 'rgba16float', usage: U.TEXTURE_BINDING }", "2 array layers"),
        ("{ size: [8, 8], format: 'r32uint', usage: U.TEXTURE_BINDING }", "allowed: 'rgba16float'"),
        ("{ size: [8, 8], format: 'rgba32float', usage: U.TEXTURE_BINDING }", "float32-filterable"),
    ];
    for (desc, needle) in cases {
        let t = make(desc).await;
        assert_argument(r.set_texture(t.clone(), None), "texture", needle);
        let good = texture(&device, 8, 8, &[]).await;
        assert_argument(r.set_texture(good, Some(bloom_option(&t))), "bloom", needle);
    }
    assert_argument(
        r.set_texture(JsValue::from(3), None),
        "texture",
        "must be a GPUTexture",
    );
    let small = texture(&device, 4, 4, &[]).await;
    let good = texture(&device, 8, 8, &[]).await;
    assert_argument(
        r.set_texture(good.clone(), Some(bloom_option(&small))),
        "bloom",
        "same size",
    );
    let extra = JSON::parse(r#"{"glow":1}"#).unwrap();
    assert!(r.set_texture(good.clone(), Some(extra)).is_err());
    // A renderer on its own device cannot sample the app's texture.
    let own = Renderer::create(canvas(8, 8), None).await.unwrap();
    assert_argument(
        own.set_texture(good, None),
        "texture",
        "only a renderer on your own GPUDevice takes",
    );
    // Refusals changed nothing: the renderer still renders.
    r.render(None).unwrap();
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn destroy_leaves_the_apps_device_usable() {
    let device = app_device().await;
    let c = canvas(64, 64);
    let r = create(&c, measuring(Some(&device), "{}").await).await;
    r.set_texture(texture(&device, 64, 64, &[(8, 8, 50.0)]).await, None)
        .unwrap();
    r.render(None).unwrap();
    r.destroy().unwrap();
    let usable = js(
        "d",
        "d.pushErrorScope('validation');
         const t = d.createTexture({ size: [4, 4], format: 'rgba8unorm',
           usage: GPUTextureUsage.RENDER_ATTACHMENT });
         const e = d.createCommandEncoder();
         e.beginRenderPass({ colorAttachments: [{ view: t.createView(), loadOp: 'clear',
           storeOp: 'store' }] }).end();
         d.queue.submit([e.finish()]);
         await d.queue.onSubmittedWorkDone();
         const error = await d.popErrorScope();
         const state = await Promise.race([d.lost.then(() => 'lost'),
           new Promise((r) => setTimeout(() => r('alive'), 100))]);
         return error === null && state === 'alive';",
        &[&device],
    )
    .await;
    assert_eq!(
        usable,
        JsValue::TRUE,
        "the app's device was destroyed or broken"
    );
}

/// An app that uses its device with afterglow, destroys renderers and at
/// once asks for another device gets one, again and again: the four tests
/// this suite runs first, in the order it runs them, twelve times over.
/// Chromium (156) can block the page's main thread for good when a device
/// is destroyed while a `requestAdapter()` of the page is pending. A
/// renderer that put off the destroy of its own device until its queue
/// was idle froze this test in 4 of 4 runs (the suite, running each test
/// once, in about one run in six).
#[wasm_bindgen_test]
async fn a_device_requested_right_after_a_destroy_arrives() {
    for _ in 0..12 {
        the_apps_texture_blooms_around_its_bright_pixel().await;
        only_the_bloom_textures_pixels_glow().await;
        every_refused_texture_names_what_is_wrong().await;
        destroy_leaves_the_apps_device_usable().await;
    }
}

#[wasm_bindgen_test]
async fn a_lost_shared_device_gives_the_documented_error() {
    let device = app_device().await;
    let c = canvas(32, 32);
    let r = create(&c, measuring(Some(&device), "{}").await).await;
    r.render(None).unwrap();
    // Once the frame is presented and the work done: Firefox stops the
    // page's animation frames for good when a device is destroyed while
    // its canvas is being presented.
    js(
        "d",
        "await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
         await d.queue.onSubmittedWorkDone();
         d.destroy(); await d.lost; await null;",
        &[&device],
    )
    .await;
    for _ in 0..2 {
        let Err(e) = r.render(None) else {
            panic!("render() after the app's device was lost did not throw")
        };
        let message = get(&e, "message").as_string().unwrap_or_default();
        assert_eq!(get(&e, "name").as_string().as_deref(), Some("DeviceError"));
        assert_eq!(
            get(&e, "reason").as_string().as_deref(),
            Some("shared-device-lost"),
            "{message}"
        );
        assert!(
            message.contains("create a new one with your new device"),
            "{message}"
        );
    }
    // Not a device afterglow replaces: no new one was requested.
    assert!(r.with_gpu(|g| g.shared).unwrap());
}

const TWO_SPOTS: &str = "fn spot(uv: vec2f, at: vec2f) -> bool {
    return all(floor(uv * resolution()) == at);
}
fn scene(uv: vec2f, time: f32) -> vec4f {
    let lit = spot(uv, vec2f(32.0, 64.0)) || spot(uv, vec2f(96.0, 64.0));
    return vec4f(select(vec3f(0.0), vec3f(200.0), lit), 1.0);
}";

#[wasm_bindgen_test]
async fn a_scene_shaders_emissive_function_is_what_blooms() {
    let c = canvas(128, 128);
    let r = create(&c, measuring(None, r#"{"intensity":1}"#).await).await;
    let emissive = format!(
        "{TWO_SPOTS}
fn emissive(uv: vec2f, time: f32) -> vec3f {{
    return select(vec3f(0.0), vec3f(200.0), spot(uv, vec2f(96.0, 64.0)));
}}"
    );
    JsFuture::from(r.set_scene_shader(emissive.into()))
        .await
        .unwrap();
    let img = read(&r).await;
    assert!(
        red(&img, 32, 64) >= SHOWN && red(&img, 96, 64) >= SHOWN,
        "both spots shown"
    );
    let (unlit, lit) = (red(&img, 26, 64), red(&img, 102, 64));
    assert!(lit > 1e-3, "no halo around the emissive spot");
    assert!(
        unlit < 0.05 * lit,
        "a spot outside emissive() glows: {unlit} vs {lit}"
    );
    // The same scene without `emissive`: both spots glow alike.
    JsFuture::from(r.set_scene_shader(TWO_SPOTS.into()))
        .await
        .unwrap();
    let img = read(&r).await;
    let (a, b) = (red(&img, 26, 64), red(&img, 102, 64));
    assert!(a > 1e-3 && (a - b).abs() <= 0.2 * a.max(b), "{a} vs {b}");
    assert_no_gpu_errors(&r);
}

/// Waits for a frame and a task after it.
pub(super) async fn next_frame() {
    js(
        "",
        "await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));",
        &[],
    )
    .await;
}

/// Calls `render()` once a frame until it throws (at most 100 frames);
/// returns the error and how many calls passed first.
pub(super) async fn render_until_refused(r: &Renderer) -> (JsValue, u32) {
    for calls in 0..100 {
        if let Err(e) = r.render(None) {
            return (e, calls);
        }
        next_frame().await;
    }
    panic!("render() never refused the texture");
}

#[wasm_bindgen_test]
async fn a_texture_of_another_device_is_refused_by_the_next_render() {
    // The frames counted below are this test's alone.
    remove_earlier_canvases();
    let device = app_device().await;
    let other = app_device().await;
    // The app's own handler must see nothing of the check.
    watch_app_handler(&device).await;
    let c = canvas(32, 32);
    let r = create(&c, measuring(Some(&device), r#"{"enabled":false}"#).await).await;
    // The frames rendered before the refusal read GPU timings back too.
    r.stats(Some(JSON::parse(r#"{"gpu":true}"#).unwrap()))
        .unwrap();
    let good = texture(&device, 32, 32, &[(16, 16, 0.5)]).await;
    let foreign = texture(&other, 32, 32, &[(16, 16, 0.5)]).await;
    for (scene, bloom, argument) in [
        (&foreign, None, "texture"),
        (&good, Some(&foreign), "bloom"),
    ] {
        // Accepted for now: WebGPU can only say later whose texture it is.
        r.set_texture(scene.clone(), bloom.map(bloom_option))
            .unwrap();
        let (e, calls) = render_until_refused(&r).await;
        assert_argument(
            Err::<(), _>(e),
            argument,
            "not a texture of the renderer's GPUDevice",
        );
        // One frame with a GPU; more in software WebGPU on a busy machine.
        assert!(calls <= 10, "refused only after {calls} frames");
        // The frames rendered meanwhile were invalid, but their errors
        // went to the renderer's own scopes: no handler saw one.
        assert_no_gpu_errors(&r);
        let seen = js_sys::Array::from(&get(&device, "seen"));
        assert_eq!(seen.length(), 0, "{:?}", seen.to_vec());
        // The renderer goes on: a black frame, then the app's own texture.
        r.render(None).unwrap();
        assert_eq!(red(&read(&r).await, 16, 16), 0.0, "after the refusal");
        r.set_texture(good.clone(), None).unwrap();
        let img = read(&r).await;
        // Linear 0.5, sRGB-encoded by the composite for the float canvas.
        let v = red(&img, 16, 16);
        assert!(
            (v - 0.7354).abs() < 0.01,
            "the app's texture ({argument}): {v}"
        );
    }
    assert_no_gpu_errors(&r);
    assert_eq!(js_sys::Array::from(&get(&device, "seen")).length(), 0);
}

/// The pixel at (`x`, `y`) of the canvas `c` as the page sees it now (in
/// the task of the last `render()`), as 8-bit RGBA.
async fn canvas_pixel(c: &JsValue, x: u32, y: u32) -> Vec<u8> {
    let pixel = js(
        "c, x, y",
        "const o = new OffscreenCanvas(c.width, c.height).getContext('2d');
         o.drawImage(c, 0, 0);
         return Array.from(o.getImageData(x, y, 1, 1).data);",
        &[c, &x.into(), &y.into()],
    )
    .await;
    js_sys::Array::from(&pixel)
        .iter()
        .map(|v| v.as_f64().unwrap_or(0.0) as u8)
        .collect()
}

fn frames(r: &Renderer) -> f64 {
    get(&r.stats(None).unwrap(), "frames").as_f64().unwrap()
}

#[wasm_bindgen_test]
async fn a_new_texture_is_shown_by_the_render_right_after_set_texture() {
    let device = app_device().await;
    watch_app_handler(&device).await;
    let c = canvas(32, 32);
    let options = measuring(Some(&device), r#"{"enabled":false}"#).await;
    let canvas_options = get(&options, "canvas");
    Reflect::set(&canvas_options, &"format".into(), &"preferred".into()).unwrap();
    Reflect::set(&canvas_options, &"toneMapping".into(), &"standard".into()).unwrap();
    let r = create(&c, options).await;
    // As an app that makes a new target whenever its canvas is resized,
    // then renders at once: every swap is drawn by that same render().
    // The old target is destroyed once the new one is set: no frame
    // samples it after that, so nothing fails.
    let mut previous: Option<JsValue> = None;
    for (step, size, spot) in [(0, 32, 8), (1, 32, 20), (2, 48, 30), (3, 24, 4)] {
        let t = texture(&device, size, size, &[(spot, spot, 1.0)]).await;
        if size != c.unchecked_ref::<web_sys::HtmlCanvasElement>().width() {
            r.resize(size.into(), size.into()).unwrap();
        }
        r.set_texture(t.clone(), None).unwrap();
        if let Some(old) = previous.replace(t) {
            js("t", "t.destroy();", &[&old]).await;
        }
        let before = frames(&r);
        r.render(None).unwrap();
        assert_eq!(
            frames(&r),
            before + 1.0,
            "swap {step}: the frame was skipped"
        );
        let lit = canvas_pixel(&c, spot, spot).await;
        let dark = canvas_pixel(&c, (spot + size / 2) % size, spot).await;
        assert!(
            lit[0] > 200,
            "swap {step}: the new texture's spot is {lit:?}"
        );
        assert!(dark[0] < 20, "swap {step}: the old texture shows: {dark:?}");
    }
    assert_no_gpu_errors(&r);
    let seen = js_sys::Array::from(&get(&device, "seen"));
    assert_eq!(seen.length(), 0, "{:?}", seen.to_vec());
}

/// A texture the app destroys while it is still set makes every frame
/// that samples it fail, which WebGPU reports only at submit and never to
/// the caller. The renderer keeps those errors in scopes of its own; the
/// next render() once it knows throws an ArgumentError naming the texture,
/// which is no longer used, so the frames after it render. The app's other
/// textures stay in use, the scene too where a bloom texture went.
#[wasm_bindgen_test]
async fn a_texture_the_app_destroys_is_named_and_no_longer_used() {
    let device = app_device().await;
    watch_app_handler(&device).await;
    let c = canvas(32, 32);
    let r = create(
        &c,
        measuring(Some(&device), r#"{"enabled":true,"dirtIntensity":4}"#).await,
    )
    .await;
    let scene = texture(&device, 32, 32, &[(16, 16, 0.5)]).await;
    let dirt = texture(&device, 8, 8, &[(4, 4, 1.0)]).await;
    js("t", "t.label = 'dirt';", &[&dirt]).await;
    r.set_texture(scene.clone(), None).unwrap();
    JsFuture::from(r.set_lens_dirt(dirt.clone())).await.unwrap();
    r.render(None).unwrap();
    // Linear 0.5 below the bloom's threshold, sRGB-encoded by the composite.
    let shown = |img: &crate::readback::Image| red(img, 16, 16);
    assert!((shown(&read(&r).await) - 0.7354).abs() < 0.01);

    js("t", "t.destroy();", &[&dirt]).await;
    let (e, _) = render_until_refused(&r).await;
    let message = get(&e, "message").as_string().unwrap_or_default();
    assert_argument(Err::<(), _>(e), "source", "was destroyed");
    assert!(
        message.contains("setLensDirt's source") && !message.contains("setTexture"),
        "{message}"
    );
    // The scene texture, labelled otherwise, is still shown.
    r.render(None).unwrap();
    let v = shown(&read(&r).await);
    assert!(
        (v - 0.7354).abs() < 0.01,
        "the scene after the dirt went: {v}"
    );

    // A bloom texture destroyed while set goes alone: the scene stays and
    // blooms from itself.
    let bloom = texture(&device, 32, 32, &[(16, 16, 0.5)]).await;
    r.set_texture(scene.clone(), Some(bloom_option(&bloom)))
        .unwrap();
    r.render(None).unwrap();
    js("t", "t.destroy();", &[&bloom]).await;
    let (e, _) = render_until_refused(&r).await;
    assert_argument(Err::<(), _>(e), "bloom", "setTexture's bloom");
    let v = shown(&read(&r).await);
    assert!(
        (v - 0.7354).abs() < 0.01,
        "the scene after its bloom texture went: {v}"
    );

    // An unlabelled texture cannot be named by the browser's message; a
    // labelled one the message does not name is not blamed for it.
    let dirt = texture(&device, 8, 8, &[(4, 4, 1.0)]).await;
    js("t", "t.label = 'dirt again';", &[&dirt]).await;
    JsFuture::from(r.set_lens_dirt(dirt.clone())).await.unwrap();
    js("t", "t.label = ''; t.destroy();", &[&scene]).await;
    // A rebuild before the destroy is known binds the texture again.
    r.set_options(JSON::parse(r#"{"bloom":{"levels":4}}"#).unwrap())
        .unwrap();
    let (e, _) = render_until_refused(&r).await;
    let message = get(&e, "message").as_string().unwrap_or_default();
    assert_argument(Err::<(), _>(e), "texture", "setTexture");
    assert!(!message.contains("setLensDirt"), "{message}");
    r.render(None).unwrap();
    assert_eq!(shown(&read(&r).await), 0.0, "after the scene texture went");
    // The failed frames' errors went to the renderer's own scopes.
    assert_no_gpu_errors(&r);
    let seen = js_sys::Array::from(&get(&device, "seen"));
    assert_eq!(seen.length(), 0, "{:?}", seen.to_vec());
}

/// `addEffect` with the app's `GPUTexture`: read by its name in the
/// effect's WGSL; one of another device is refused by name once the browser
/// has answered, with nothing installed and nothing reaching the app's
/// error handler.
#[wasm_bindgen_test]
async fn an_effect_reads_the_apps_texture_and_refuses_another_devices() {
    let device = app_device().await;
    watch_app_handler(&device).await;
    let c = canvas(16, 16);
    let r = create(&c, measuring(Some(&device), r#"{"enabled":false}"#).await).await;
    let black = "fn scene(uv: vec2f, time: f32) -> vec4f { return vec4f(0.0, 0.0, 0.0, 1.0); }";
    JsFuture::from(r.set_scene_shader(black.into()))
        .await
        .unwrap();
    let mask_pixels: Vec<(u32, u32, f32)> = (0..16)
        .flat_map(|y| (0..8).map(move |x| (x, y, 0.5)))
        .collect();
    let mask = texture(&device, 16, 16, &mask_pixels).await;
    let options = |t: &JsValue| {
        let o = JSON::parse(
            r#"{"wgsl":"fn effect(color: vec4f, uv: vec2f) -> vec4f {\n  return color + textureSampleLevel(mask, effect_sampler, uv, 0.0);\n}"}"#,
        )
        .unwrap();
        let textures = js_sys::Object::new();
        Reflect::set(&textures, &"mask".into(), t).unwrap();
        Reflect::set(&o, &"textures".into(), &textures).unwrap();
        o
    };
    let other = app_device().await;
    let foreign = texture(&other, 16, 16, &mask_pixels).await;
    let result = JsFuture::from(r.add_effect("masked".into(), options(&foreign))).await;
    assert_argument(
        result,
        "textures.mask",
        "not a texture of the renderer's GPUDevice",
    );
    assert_eq!(JSON::stringify(&r.effects().unwrap()).unwrap(), "[]");
    JsFuture::from(r.add_effect("masked".into(), options(&mask)))
        .await
        .unwrap();
    let img = read(&r).await;
    // The canvas is rgba16float, encoded: 0.5 linear reads as about 0.735.
    let (left, right) = (img.rgba_f32(3, 8)[0], img.rgba_f32(12, 8)[0]);
    assert!(
        (left - 0.735).abs() < 0.01 && right.abs() < 0.01,
        "{left} {right}"
    );
    assert_no_gpu_errors(&r);
    let seen = js("d", "return d.seen.length;", &[&device]).await;
    assert_eq!(seen.as_f64(), Some(0.0), "errors reached the app's handler");
}
