//! Reliability: GPU memory returned when it is replaced, the device given
//! back when the renderer goes during a recovery, one renderer per canvas,
//! any finite time, imitations refused before wgpu, errors from getters
//! passed on (a panic that leaves a clear error is `src/tests/panic_browser.rs`), a screenshot pending during
//! a device loss, and a table of several hundred bad inputs
//! (`hostile.js`, beside this file). Device loss case by case is in `loss.rs`;
//! adapter and device requests that never answer, or answer `null`, in
//! `answers.rs`.

use super::*;

mod answers;
mod loss;

#[wasm_bindgen(module = "/src/tests/browser/reliability/hostile.js")]
extern "C" {
    #[wasm_bindgen(js_name = runHostile)]
    fn run_hostile(class: &JsValue) -> js_sys::Promise;
}

/// Counts textures created by `GPUDevice.createTexture` and destroyed by
/// `GPUTexture.destroy` from now on (the canvas's own textures are made
/// by the context, not by createTexture). Returns `{created, destroyed}`,
/// updated live.
async fn count_textures() -> JsValue {
    js(
        "const count = { created: 0, destroyed: 0, live: new Set() };
         const create = GPUDevice.prototype.createTexture;
         GPUDevice.prototype.createTexture = function (d) {
           const t = create.call(this, d); count.created++; count.live.add(t); return t; };
         const destroy = GPUTexture.prototype.destroy;
         GPUTexture.prototype.destroy = function () {
           if (count.live.delete(this)) count.destroyed++; return destroy.call(this); };
         count.restore = () => {
           GPUDevice.prototype.createTexture = create; GPUTexture.prototype.destroy = destroy; };
         return count;",
        &JsValue::NULL,
    )
    .await
}

fn count(counts: &JsValue, key: &str) -> u32 {
    get(counts, key).as_f64().unwrap_or(-1.0) as u32
}

fn gpu_bytes(r: &Renderer) -> f64 {
    get(&r.stats(None).unwrap(), "gpuBytes").as_f64().unwrap()
}

#[wasm_bindgen_test]
async fn replaced_textures_are_destroyed_at_once_and_gpu_bytes_stays_true() {
    let c = canvas(64, 48);
    let counts = count_textures().await;
    let r = create(&c, r#"{"canvas":{"screenshots":true}}"#).await;
    r.render(None).unwrap();
    let held = count(&counts, "created") - count(&counts, "destroyed");
    let bytes = gpu_bytes(&r);
    // A storm of resizes to pseudo-random sizes and of shape changes.
    let mut seed = 12345u32;
    for i in 0..60 {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
        let (w, h) = (8 + (seed >> 8) % 300, 8 + (seed >> 18) % 200);
        r.resize(JsValue::from(w), JsValue::from(h)).unwrap();
        let shape = match i % 4 {
            0 => r#"{"msaa":1,"resolve":"hardware"}"#,
            1 => r#"{"msaa":4,"bloom":{"blur":"gaussian"}}"#,
            2 => r#"{"bloom":{"blur":"mip","levels":3},"renderScale":0.5}"#,
            _ => r#"{"bloom":{"levels":8},"renderScale":1,"resolve":"tonemapped"}"#,
        };
        set(&r, shape);
        r.render(Some(JsValue::from(i))).unwrap();
        let live = count(&counts, "created") - count(&counts, "destroyed");
        assert!(
            live <= held + 2,
            "after {i} storms {live} textures are alive, {held} at the start"
        );
    }
    // Back to the first size and options: the same textures and bytes.
    r.resize(JsValue::from(64), JsValue::from(48)).unwrap();
    set(
        &r,
        r#"{"msaa":4,"resolve":"hardware","bloom":{"blur":"mip","levels":7},"renderScale":1}"#,
    );
    let live = count(&counts, "created") - count(&counts, "destroyed");
    assert_eq!(live, held, "textures alive after the storm");
    assert_eq!(gpu_bytes(&r), bytes, "stats().gpuBytes after the storm");
    assert!(
        count(&counts, "created") > 100,
        "the storm created textures"
    );
    r.destroy().unwrap();
    Function::from(get(&counts, "restore"))
        .call0(&JsValue::NULL)
        .unwrap();
}

#[wasm_bindgen_test]
async fn destroy_during_recovery_destroys_the_new_device() {
    let c = canvas(16, 16);
    let r = exact(&c).await;
    let devices = js(
        "const seen = [];
         const request = GPUAdapter.prototype.requestDevice;
         GPUAdapter.prototype.requestDevice = async function (d) {
           const device = await request.call(this, d);
           seen.push(device);
           device.lost.then((info) => { device.lostReason = info.reason; });
           return device; };
         seen.restore = () => { GPUAdapter.prototype.requestDevice = request; };
         return seen;",
        &JsValue::NULL,
    )
    .await;
    let devices: js_sys::Array = devices.unchecked_into();
    lose_device(&r).await;
    for _ in 0..20 {
        next_frame().await;
        if r.with_gpu(|g| g.lost().is_some()).unwrap() {
            break;
        }
    }
    // render() starts the recovery; destroy() comes before it finishes.
    r.render(None).unwrap();
    r.destroy().unwrap();
    let mut reason = JsValue::UNDEFINED;
    for _ in 0..100 {
        next_frame().await;
        if devices.length() > 0 {
            reason = get(&devices.get(0), "lostReason");
            if !reason.is_undefined() {
                break;
            }
        }
    }
    Function::from(get(&devices, "restore"))
        .call0(&JsValue::NULL)
        .unwrap();
    assert_eq!(devices.length(), 1, "one replacement device was requested");
    assert_eq!(reason.as_string().as_deref(), Some("destroyed"));
    // The canvas is free again.
    let again = exact(&c).await;
    again.render(None).unwrap();
    assert_no_gpu_errors(&again);
}

#[wasm_bindgen_test]
async fn one_canvas_has_one_renderer_at_a_time() {
    let c = canvas(16, 16);
    c.set_id("shared-view");
    let first = exact(&c).await;
    let second = Renderer::create(c.clone().into(), None).await;
    assert_error_kind(
        second,
        &["#shared-view", "already has a renderer", "destroy()"],
        "CanvasError",
        &[],
    );
    first.render(None).unwrap();
    assert_no_gpu_errors(&first);
    first.destroy().unwrap();
    let second = exact(&c).await;
    second
        .set_content(Content::Solid([0.5, 0.5, 0.5, 1.0]))
        .unwrap();
    assert_close(
        read(&second).await.rgba8(2, 2)[0],
        188,
        2,
        "second renderer",
    );
    assert_no_gpu_errors(&second);
}

#[wasm_bindgen_test]
async fn any_finite_time_renders() {
    let c = canvas(16, 16);
    let r = exact(&c).await;
    // Grey while the time the shader sees is finite and within a period;
    // black if it overflowed.
    let shader = "fn scene(uv: vec2f, time: f32) -> vec4f {
        let ok = time == time && time >= 0.0 && time < 16384.0;
        return vec4f(vec3f(select(0.0, 0.5, ok)), 1.0); }";
    JsFuture::from(r.set_scene_shader(shader.into()))
        .await
        .unwrap();
    for t in [0.0, 1e6, 1e39, f64::MAX, -f64::MAX, -1e-300, 5e15] {
        let img = r.render_and_read(t).await.unwrap();
        assert_close(img.rgba8(8, 8)[0], 188, 2, &format!("time {t}"));
    }
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        assert_error_kind(
            r.render(Some(JsValue::from(bad))),
            &["timeSeconds"],
            "ArgumentError",
            &[],
        );
    }
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn imitations_are_refused_before_wgpu_and_other_realms_are_recognised() {
    let fakes = js(
        "const context = { configure() {}, getCurrentTexture() { return { createView() {} }; },
                           unconfigure() {}, getConfiguration() { return null; } };
         const real = document.createElement('canvas');
         const lying = document.createElement('canvas'); lying.width = 8; lying.height = 8;
         lying.getContext = () => context;
         return [
           { width: 8, height: 8, getContext: () => context },
           new Proxy(real, {}),
           Object.create(HTMLCanvasElement.prototype),
           lying,
         ];",
        &JsValue::NULL,
    )
    .await;
    let fakes: js_sys::Array = fakes.unchecked_into();
    for (i, fake) in fakes.iter().enumerate() {
        let result = Renderer::create(fake, None).await;
        let e = assert_error(result, &[]);
        let m = message(&e);
        assert!(
            !m.contains("got a HTMLCanvasElement"),
            "fake {i}: contradicts itself: {m}"
        );
        let name = get(&e, "name").as_string().unwrap();
        if i < 3 {
            assert_eq!(name, "ArgumentError", "fake {i}: {m}");
            assert!(m.contains("canvas"), "fake {i}: {m}");
        } else {
            assert_eq!(name, "CanvasError", "fake {i}: {m}");
            assert!(m.contains("not a GPUCanvasContext"), "fake {i}: {m}");
        }
    }
    // A canvas from an iframe is a canvas: it renders.
    let foreign = js(
        "const frame = document.createElement('iframe'); document.body.appendChild(frame);
         const c = frame.contentDocument.createElement('canvas');
         frame.contentDocument.body.appendChild(c); c.width = 8; c.height = 8; return c;",
        &JsValue::NULL,
    )
    .await;
    let r = create(&foreign, r#"{"canvas":{"screenshots":true},"msaa":1}"#).await;
    r.set_content(Content::Solid([0.5, 0.5, 0.5, 1.0])).unwrap();
    let img = r.render_and_read(0.0).await.unwrap();
    assert!(img.rgba8(4, 4)[0] > 100, "the iframe's canvas renders");
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn throwing_getters_and_traps_are_errors_naming_the_option() {
    let c = canvas(16, 16);
    let r = exact(&c).await;
    let hostile = js(
        "return [
           { get exposure() { throw new Error('no exposure'); } },
           { bloom: { get radius() { throw new Error('no radius'); } } },
           new Proxy({ exposure: 2 }, { get() { throw new Error('trap'); } }),
         ];",
        &JsValue::NULL,
    )
    .await;
    let hostile: js_sys::Array = hostile.unchecked_into();
    for (value, option, said) in [
        (hostile.get(0), "exposure", "no exposure"),
        (hostile.get(1), "bloom.radius", "no radius"),
        (hostile.get(2), "options", "trap"),
    ] {
        assert_error_kind(
            r.set_options(value),
            &[option, "could not be read", said],
            "OptionError",
            &[("option", &format!("\"{option}\""))],
        );
    }
    assert_eq!(options_value(&r, &["exposure"]).as_f64(), Some(1.0));
    r.render(None).unwrap();
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn a_screenshot_pending_during_a_device_loss_is_a_device_error() {
    let c = canvas(16, 16);
    let r = exact(&c).await;
    r.render(None).unwrap();
    hold_mapping_until_lost(&r).await;
    let pending = r.screenshot();
    lose_device(&r).await;
    let e = JsFuture::from(pending).await.unwrap_err();
    assert_kind(&e, "DeviceError", &[("reason", r#""lost""#)]);
    assert!(message(&e).contains("screenshot"), "{}", message(&e));
    // It recovers and screenshots work again.
    for _ in 0..50 {
        next_frame().await;
        r.render(None).unwrap();
        if r.with_gpu(|g| g.lost().is_none()).unwrap() {
            break;
        }
    }
    JsFuture::from(r.screenshot()).await.unwrap();
}

#[wasm_bindgen_test]
async fn several_hundred_bad_inputs_are_each_a_clear_error() {
    // The generated JS class, from an instance handed to JS.
    let c = canvas(8, 8);
    let instance: JsValue = exact(&c).await.into();
    let class = get(&instance, "constructor");
    let destroy: Function = get(&instance, "destroy").unchecked_into();
    destroy.call0(&instance).unwrap();
    let report = JsFuture::from(run_hostile(&class)).await.unwrap();
    let tried = get(&report, "tried").as_f64().unwrap();
    let failures: Vec<String> = js_sys::Array::from(&get(&report, "failures"))
        .iter()
        .filter_map(|f| f.as_string())
        .collect();
    web_sys::console::log_1(&format!("hostile inputs tried: {tried}").into());
    assert!(
        failures.is_empty(),
        "{} of {tried} inputs failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(tried >= 300.0, "only {tried} inputs");
}
