//! The browser's answers to `requestAdapter()` and `requestDevice()`
//! replaced: never given, `null` once, `null` always. `create()` waits a
//! bounded time (`web::request`), asks again once, and leaves nothing
//! behind when it gives up.

use super::*;

/// The wall clock, in ms.
fn now() -> f64 {
    js_sys::Date::now()
}

/// Replaces `navigator.gpu.requestAdapter` for the calls of `answers`
/// (JS expressions of `ask`, the browser's own request, and `options`):
/// the call numbered i (from 0) answers with `answers[min(i, last)]`.
/// Returns `{ calls: [options…] }`; [`restore_adapter`] undoes it.
async fn replace_adapter(answers: &[&str]) -> JsValue {
    let cases: Vec<String> = answers
        .iter()
        .enumerate()
        .map(|(i, a)| format!("if (n === {i}) return {a};"))
        .collect();
    js(
        &format!(
            "const gpu = navigator.gpu; const original = gpu.requestAdapter.bind(gpu);
             const record = {{ calls: [] }};
             gpu.requestAdapter = (options) => {{
               const n = Math.min(record.calls.length, {last}); record.calls.push(options ?? {{}});
               const ask = () => original(options);
               {cases}
             }};
             return record;",
            last = answers.len() - 1,
            cases = cases.join(" ")
        ),
        &JsValue::NULL,
    )
    .await
}

async fn restore_adapter() {
    js("delete navigator.gpu.requestAdapter;", &JsValue::NULL).await;
}

fn calls(record: &JsValue) -> Vec<JsValue> {
    get(record, "calls")
        .unchecked_into::<js_sys::Array>()
        .to_vec()
}

/// Whether `c`'s WebGPU context is unconfigured (it then refuses
/// `getCurrentTexture()`).
async fn unconfigured(c: &JsValue) -> bool {
    js(
        "try { arg.getContext('webgpu').getCurrentTexture(); return false; } catch { return true; }",
        c,
    )
    .await
    .as_bool()
        == Some(true)
}

fn device_error_message(result: Result<Renderer, JsValue>, reason: &str) -> String {
    let Err(e) = result else {
        panic!("create() succeeded")
    };
    assert_kind(&e, "DeviceError", &[("reason", &format!("\"{reason}\""))]);
    message(&e)
}

#[wasm_bindgen_test]
async fn a_request_adapter_that_never_answers_is_a_device_error_within_ten_seconds() {
    let c = canvas(8, 8);
    let record = replace_adapter(&["new Promise(() => {})"]).await;
    let start = now();
    let result = Renderer::create(c.clone().into(), None).await;
    let waited = now() - start;
    restore_adapter().await;
    let message = device_error_message(result, "no-adapter");
    assert!(
        message.contains("requestAdapter() did not answer within 10 s"),
        "{message}"
    );
    assert!((9_500.0..12_000.0).contains(&waited), "waited {waited} ms");
    assert_eq!(calls(&record).len(), 2, "asked once more");
    assert!(unconfigured(&c.into()).await, "the canvas was configured");
}

#[wasm_bindgen_test]
async fn a_request_device_that_never_answers_is_a_device_error_and_a_late_device_is_destroyed() {
    let c = canvas(8, 8);
    // The device is held back until the test hands it over.
    let held = js(
        "const proto = GPUAdapter.prototype; const original = proto.requestDevice;
         const held = { calls: 0 };
         proto.requestDevice = function (descriptor) {
           held.calls++; held.give = () => original.call(this, descriptor).then((d) => {
             held.resolve(d); return d; });
           return new Promise((resolve) => { held.resolve = resolve; });
         };
         held.restore = () => { proto.requestDevice = original; };
         return held;",
        &JsValue::NULL,
    )
    .await;
    let start = now();
    let result = Renderer::create(c.clone().into(), None).await;
    let waited = now() - start;
    js("arg.restore();", &held).await;
    let message = device_error_message(result, "no-device");
    assert!(
        message.contains("requestDevice() did not answer within 10 s"),
        "{message}"
    );
    assert!((9_500.0..12_000.0).contains(&waited), "waited {waited} ms");
    assert_eq!(get(&held, "calls").as_f64(), Some(1.0));
    assert!(unconfigured(&c.into()).await, "the canvas was configured");
    // The answer comes after all: afterglow destroys that device.
    let fate = js(
        "return arg.give().then((device) => Promise.race([
           device.lost.then((info) => info.reason),
           new Promise((r) => setTimeout(() => r('kept'), 3000)),
         ]));",
        &held,
    )
    .await;
    assert_eq!(fate.as_string().as_deref(), Some("destroyed"));
}

#[wasm_bindgen_test]
async fn a_first_null_adapter_is_asked_again_without_the_power_preference() {
    let c = canvas(16, 16);
    let record = replace_adapter(&["Promise.resolve(null)", "ask()"]).await;
    let result = Renderer::create(c.into(), None).await;
    restore_adapter().await;
    let r = result.unwrap_or_else(|e| panic!("create() failed: {}", message(&e)));
    let asked = calls(&record);
    assert_eq!(asked.len(), 2);
    assert_eq!(
        get(&asked[0], "powerPreference").as_string().as_deref(),
        Some("high-performance")
    );
    assert!(get(&asked[1], "powerPreference").is_undefined());
    r.render(None).unwrap();
    assert_no_gpu_errors(&r);
    r.destroy().unwrap();
}

#[wasm_bindgen_test]
async fn a_first_adapter_request_that_never_answers_is_asked_again() {
    let c = canvas(16, 16);
    let record = replace_adapter(&["new Promise(() => {})", "ask()"]).await;
    let start = now();
    let result = Renderer::create(c.into(), None).await;
    let waited = now() - start;
    restore_adapter().await;
    let r = result.unwrap_or_else(|e| panic!("create() failed: {}", message(&e)));
    assert_eq!(calls(&record).len(), 2);
    assert!(waited < 9_000.0, "waited {waited} ms");
    r.render(None).unwrap();
    assert_no_gpu_errors(&r);
    r.destroy().unwrap();
}

#[wasm_bindgen_test]
async fn an_adapter_that_is_always_null_is_a_device_error_at_once() {
    let c = canvas(8, 8);
    let record = replace_adapter(&["Promise.resolve(null)"]).await;
    let start = now();
    let result = Renderer::create(c.into(), None).await;
    let waited = now() - start;
    restore_adapter().await;
    let message = device_error_message(result, "no-adapter");
    assert!(message.contains("hardware acceleration"), "{message}");
    assert_eq!(calls(&record).len(), 2);
    assert!(waited < 1_000.0, "waited {waited} ms");
}
