//! Device loss, case by case: during a scene shader's compile, right
//! after a resize, during a screenshot, twice in quick succession, followed
//! by `destroy()`, and on the app's own device. Every loss is caused the
//! way a driver reset looks to the page (the device is destroyed behind the
//! renderer's back); every recovery is checked for kept content, options
//! and canvas configuration, for the new device in the canvas's
//! configuration, and for no uncaptured GPU error on any device.

use super::*;

/// Watches every device requested from now on: `{devices, errors,
/// requests, destroyNext}`. `errors` collects the uncaptured errors of all
/// of them; `destroyNext = n` destroys the next `n` devices as they arrive
/// (a loss during a recovery), handing each over once its `lost` promise
/// has settled, which in Firefox takes a few frames. `restore()` puts
/// `requestDevice` back.
async fn watch_devices() -> JsValue {
    js(
        "const w = { devices: [], errors: [], requests: 0, destroyNext: 0 };
         const request = GPUAdapter.prototype.requestDevice;
         GPUAdapter.prototype.requestDevice = async function (d) {
           w.requests++;
           const device = await request.call(this, d);
           w.devices.push(device);
           device.lost.then((info) => { device.lostReason = info.reason; });
           device.addEventListener('uncapturederror',
             (e) => w.errors.push(e.error.message));
           if (w.destroyNext > 0) { w.destroyNext--; device.destroy(); await device.lost; }
           return device; };
         w.restore = () => { GPUAdapter.prototype.requestDevice = request; };
         return w;",
        &JsValue::NULL,
    )
    .await
}

fn unwatch(watch: &JsValue) {
    Function::from(get(watch, "restore"))
        .call0(&JsValue::NULL)
        .unwrap();
}

/// No device has had an uncaptured error since [`watch_devices`].
fn assert_no_errors_anywhere(watch: &JsValue, what: &str) {
    let errors = js_sys::Array::from(&get(watch, "errors"));
    assert_eq!(
        errors.length(),
        0,
        "{what}: uncaptured GPU errors: {:?}",
        errors
            .iter()
            .filter_map(|e| e.as_string())
            .collect::<Vec<_>>()
    );
}

/// What a recovery must keep: the effective options and the canvas
/// configuration (without its `device`), as JSON.
fn kept(r: &Renderer) -> (String, String) {
    let options = JSON::stringify(&r.options().unwrap()).unwrap();
    let config = r.configuration().unwrap();
    let without_device = Function::new_with_args(
        "c",
        "const { device, ...rest } = c; return JSON.stringify(rest);",
    )
    .call1(&JsValue::NULL, &config)
    .unwrap();
    (options.into(), without_device.as_string().unwrap())
}

/// Calls `render()` once per frame until the renderer is on a live device
/// other than `old`; returns how many calls that took. `render()` must not
/// throw meanwhile.
async fn recover(r: &Renderer, old: &JsValue, what: &str) -> u32 {
    let mut steady = false;
    for calls in 1..=100 {
        next_frame().await;
        if let Err(e) = r.render(None) {
            panic!("{what}: render() during the recovery: {}", message(&e));
        }
        // A device destroyed as it arrived is only known lost a moment
        // later: the new device must stay live over two frames.
        let device = device_of(r);
        let fine = r.with_gpu(|g| g.lost().is_none()).unwrap()
            && get(&device, "lostReason").is_undefined()
            && !Object_is(&device, old);
        if fine && steady {
            return calls;
        }
        steady = fine;
    }
    panic!("{what}: no new device after 100 frames");
}

/// After a recovery: the same options and configuration as `before`, the
/// canvas configured with the new device, `grey` content (linear 0.5)
/// shown at `(x, y)`, and no error on any device.
async fn assert_recovered(
    r: &Renderer,
    c: &JsValue,
    before: &(String, String),
    at: (u32, u32),
    watch: &JsValue,
    what: &str,
) {
    assert_eq!(&kept(r), before, "{what}: options or configuration changed");
    assert!(
        Object_is(&get(&context_configuration(c), "device"), &device_of(r)),
        "{what}: the canvas is not configured with the new device"
    );
    assert_close(read(r).await.rgba8(at.0, at.1)[0], 188, 2, what);
    assert_no_gpu_errors(r);
    assert_no_errors_anywhere(watch, what);
}

const GREY: &str = "fn scene(uv: vec2f, time: f32) -> vec4f { return vec4f(0.5, 0.5, 0.5, 1.0); }";

/// Options that differ from the defaults, so that keeping them means
/// something; still exact (no curve, dither or bloom).
const KEPT: &str = r#"{"canvas":{"screenshots":true,"alphaMode":"premultiplied"},
    "tonemapper":"none","dither":false,"bloom":{"enabled":false,"threshold":2.5},
    "exposure":1,"msaa":1,"renderScale":0.75}"#;

/// The render() calls each recovery took, for the summary line.
/// A device watch, then a renderer showing mid grey on a new `w`×`h`
/// canvas.
async fn grey_renderer(w: u32, h: u32) -> (JsValue, JsValue, Renderer) {
    let watch = watch_devices().await;
    let c: JsValue = canvas(w, h).into();
    let r = create(&c, KEPT).await;
    r.set_content(Content::Solid([0.5, 0.5, 0.5, 1.0])).unwrap();
    (watch, c, r)
}

fn report(what: &str, calls: &[u32]) {
    web_sys::console::log_1(&format!("{what}: recovered in {calls:?} render() calls").into());
    assert!(
        calls.iter().all(|&n| n <= 20),
        "{what}: a recovery took more than 20 frames: {calls:?}"
    );
}

#[wasm_bindgen_test]
async fn loss_during_a_pending_scene_shader_compile() {
    let watch = watch_devices().await;
    let c: JsValue = canvas(24, 16).into();
    let r = create(&c, KEPT).await;
    let mut calls = vec![];
    for cycle in 0..3 {
        r.set_content(Content::Solid([0.0, 0.0, 0.0, 1.0])).unwrap();
        r.render(None).unwrap();
        let before = kept(&r);
        let old = device_of(&r);
        // Each cycle a different source, so that the old one cannot pass.
        let source = format!("{GREY}\n// cycle {cycle}");
        let pending = r.set_scene_shader(source.into());
        lose_device(&r).await;
        // The promise settles: resolved (the shader is shown once the
        // device is back) or a DeviceError, never a superseded one.
        let settled = JsFuture::from(pending).await;
        calls.push(recover(&r, &old, "shader").await);
        match settled {
            Ok(_) => assert_recovered(&r, &c, &before, (3, 3), &watch, "shader").await,
            Err(e) => {
                assert_kind(&e, "DeviceError", &[("reason", r#""lost""#)]);
                panic!("cycle {cycle}: the shader was refused: {}", message(&e));
            }
        }
    }
    report("a pending setSceneShader", &calls);
    unwatch(&watch);
}

#[wasm_bindgen_test]
async fn loss_right_after_a_resize() {
    let (watch, c, r) = grey_renderer(16, 16).await;
    let mut calls = vec![];
    for (cycle, (w, h)) in [(40, 24), (17, 63), (96, 8), (33, 33)]
        .into_iter()
        .enumerate()
    {
        r.resize(JsValue::from(w), JsValue::from(h)).unwrap();
        let before = kept(&r);
        let bytes = gpu_bytes(&r);
        let old = lose_device(&r).await;
        calls.push(recover(&r, &old, "resize").await);
        let what = format!("after resize {cycle} to {w}×{h}");
        assert_eq!(
            (get(&c, "width").as_f64(), get(&c, "height").as_f64()),
            (Some(w as f64), Some(h as f64)),
            "{what}"
        );
        assert_recovered(&r, &c, &before, (w - 1, h - 1), &watch, &what).await;
        assert_eq!(gpu_bytes(&r), bytes, "{what}: stats().gpuBytes");
    }
    report("right after a resize", &calls);
    unwatch(&watch);
}

/// The lookup table and an image's lens dirt are content: both come back
/// on the new device (the table turns the grey red; the dirt image is
/// uploaded again, so the frame's bytes on the GPU are the same).
#[wasm_bindgen_test]
async fn loss_keeps_the_lookup_table_and_the_lens_dirt() {
    let (watch, c, r) = grey_renderer(16, 16).await;
    let red_table = "LUT_3D_SIZE 2\n".to_string() + &"1 0 0\n".repeat(8);
    r.set_lut(red_table.into()).unwrap();
    let dirt = js("return new ImageData(8, 8);", &JsValue::NULL).await;
    JsFuture::from(r.set_lens_dirt(dirt)).await.unwrap();
    r.render(None).unwrap();
    let bytes = gpu_bytes(&r);
    let old = lose_device(&r).await;
    recover(&r, &old, "look").await;
    assert!(
        Object_is(&get(&context_configuration(&c), "device"), &device_of(&r)),
        "the canvas is not configured with the new device"
    );
    let p = read(&r).await.rgba8(3, 3);
    assert!(
        p[0] > 250 && p[1] < 3 && p[2] < 3,
        "the table is back: {p:?}"
    );
    assert_eq!(gpu_bytes(&r), bytes, "stats().gpuBytes: the dirt is back");
    assert_no_gpu_errors(&r);
    assert_no_errors_anywhere(&watch, "look");
    unwatch(&watch);
}

#[wasm_bindgen_test]
async fn loss_during_a_pending_screenshot() {
    let (watch, c, r) = grey_renderer(20, 20).await;
    let mut calls = vec![];
    for _ in 0..3 {
        r.render(None).unwrap();
        let before = kept(&r);
        hold_mapping_until_lost(&r).await;
        let pending = r.screenshot();
        let old = lose_device(&r).await;
        let e = JsFuture::from(pending).await.unwrap_err();
        assert_kind(&e, "DeviceError", &[("reason", r#""lost""#)]);
        calls.push(recover(&r, &old, "screenshot").await);
        assert_recovered(&r, &c, &before, (10, 10), &watch, "screenshot").await;
        let png = JsFuture::from(r.screenshot()).await.unwrap();
        assert!(get(&png, "size").as_f64().unwrap_or(0.0) > 0.0);
    }
    report("a pending screenshot", &calls);
    unwatch(&watch);
}

#[wasm_bindgen_test]
async fn two_losses_in_quick_succession() {
    let (watch, c, r) = grey_renderer(16, 12).await;
    r.render(None).unwrap();
    let before = kept(&r);
    let mut calls = vec![];
    for _ in 0..3 {
        // The new device is lost before it renders a single frame.
        let first = lose_device(&r).await;
        calls.push(recover(&r, &first, "first of two").await);
        let second = lose_device(&r).await;
        calls.push(recover(&r, &second, "second of two").await);
        assert_recovered(&r, &c, &before, (8, 6), &watch, "two losses").await;
        // The device requested during the recovery is lost as it arrives.
        Reflect::set(&watch, &"destroyNext".into(), &1.into()).unwrap();
        let third = lose_device(&r).await;
        calls.push(recover(&r, &third, "lost during its recovery").await);
        assert_eq!(get(&watch, "destroyNext").as_f64(), Some(0.0));
        assert_recovered(&r, &c, &before, (8, 6), &watch, "lost during recovery").await;
    }
    report("two in quick succession", &calls);
    unwatch(&watch);
}

#[wasm_bindgen_test]
async fn loss_then_destroy() {
    let watch = watch_devices().await;
    let c: JsValue = canvas(16, 16).into();
    for cycle in 0..3 {
        let r = create(&c, KEPT).await;
        r.render(None).unwrap();
        let requested = js_sys::Array::from(&get(&watch, "devices")).length();
        lose_device(&r).await;
        if cycle > 0 {
            // The recovery has started (cycle 1) or is under way (cycle 2).
            for _ in 0..cycle {
                next_frame().await;
                r.render(None).unwrap();
            }
        }
        r.destroy().unwrap();
        assert_error_kind(r.render(None), &[], "StateError", &[]);
        // Every device requested since is destroyed, none left alive.
        for _ in 0..50 {
            next_frame().await;
        }
        let devices = js_sys::Array::from(&get(&watch, "devices"));
        for d in devices.iter().skip(requested as usize) {
            assert_eq!(
                get(&d, "lostReason").as_string().as_deref(),
                Some("destroyed"),
                "cycle {cycle}: a replacement device outlived destroy()"
            );
        }
        assert!(
            context_configuration(&c).is_null(),
            "cycle {cycle}: still configured"
        );
    }
    // The canvas is free again.
    let r = create(&c, KEPT).await;
    r.set_content(Content::Solid([0.5, 0.5, 0.5, 1.0])).unwrap();
    assert_close(
        read(&r).await.rgba8(8, 8)[0],
        188,
        2,
        "after loss then destroy",
    );
    assert_no_errors_anywhere(&watch, "loss then destroy");
    unwatch(&watch);
}

#[wasm_bindgen_test]
async fn loss_of_the_apps_shared_device() {
    let c: JsValue = canvas(16, 16).into();
    for cycle in 0..2 {
        let device = js(
            "return navigator.gpu.requestAdapter().then((a) => a.requestDevice());",
            &JsValue::NULL,
        )
        .await;
        let options = opts(KEPT);
        Reflect::set(&options, &"device".into(), &device).unwrap();
        let r = Renderer::create(c.clone(), Some(options)).await.unwrap();
        r.render(None).unwrap();
        let before = kept(&r);
        // From now on afterglow must not ask for a device of its own.
        let watch = watch_devices().await;
        // Between frames, as lose_device() does.
        js(
            "return new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))
               .then(() => arg.queue.onSubmittedWorkDone())
               .then(() => { arg.destroy(); return arg.lost; });",
            &device,
        )
        .await;
        for _ in 0..3 {
            assert_error_kind(
                r.render(None),
                &["create a new one with your new device"],
                "DeviceError",
                &[("reason", r#""shared-device-lost""#)],
            );
            next_frame().await;
        }
        assert_eq!(
            get(&watch, "requests").as_f64(),
            Some(0.0),
            "cycle {cycle}: a device was requested"
        );
        assert_eq!(kept(&r).0, before.0, "cycle {cycle}: options changed");
        assert_no_errors_anywhere(&watch, "shared");
        unwatch(&watch);
        r.destroy().unwrap();
    }
    // The app's recovery: a new renderer on its new device, same canvas.
    let device = js(
        "return navigator.gpu.requestAdapter().then((a) => a.requestDevice());",
        &JsValue::NULL,
    )
    .await;
    let options = opts(KEPT);
    Reflect::set(&options, &"device".into(), &device).unwrap();
    let r = Renderer::create(c.clone(), Some(options)).await.unwrap();
    r.set_content(Content::Solid([0.5, 0.5, 0.5, 1.0])).unwrap();
    assert_close(
        read(&r).await.rgba8(8, 8)[0],
        188,
        2,
        "the app's new device",
    );
    assert_no_gpu_errors(&r);
}
