//! A panic inside afterglow (a bug) leaves a clear `StateError`, not a
//! renderer that answers "busy" for ever. Ignored in the suite's run and
//! run alone, in a wasm instance of its own (`wasm-pack test --headless
//! --chrome -- --lib -- --include-ignored tests::panic_browser`): the
//! panic traps the instance, and whatever the instance held mid-call stays
//! as it was, so no other test may run in the same instance after it (in
//! Firefox the next one hangs).

use crate::web::Renderer;
use js_sys::{Function, Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &key.into()).unwrap()
}

#[wasm_bindgen_test]
#[ignore = "traps its wasm instance: run alone (--include-ignored tests::panic_browser)"]
async fn a_panic_leaves_a_broken_state_error_not_a_busy_renderer() {
    let document = web_sys::window().unwrap().document().unwrap();
    let c: web_sys::HtmlCanvasElement = document.create_element("canvas").unwrap().unchecked_into();
    c.set_width(16);
    c.set_height(16);
    document.body().unwrap().append_child(&c).unwrap();
    let options =
        JSON::parse(r#"{"tonemapper":"none","dither":false,"bloom":{"enabled":false}}"#).unwrap();
    let r = match Renderer::create(c.into(), Some(options)).await {
        Ok(r) => std::rc::Rc::new(r),
        Err(e) => panic!("create failed: {e:?}"),
    };
    let inner = r.clone();
    let panics = Closure::<dyn FnMut()>::new(move || {
        let _ = inner.panic_inside_a_call();
    });
    let call = Function::new_with_args(
        "arg",
        "try { arg(); return 'returned'; } catch (e) { return String(e); }",
    );
    let caught = call.call1(&JsValue::NULL, panics.as_ref()).unwrap();
    let caught = JsFuture::from(js_sys::Promise::resolve(&caught))
        .await
        .unwrap();
    assert!(
        caught
            .as_string()
            .unwrap_or_default()
            .contains("unreachable"),
        "{caught:?}"
    );
    let e = r.render(None).unwrap_err();
    let message = get(&e, "message").as_string().unwrap_or_default();
    assert_eq!(
        get(&e, "name").as_string().as_deref(),
        Some("StateError"),
        "{message}"
    );
    assert_eq!(
        get(&e, "method").as_string().as_deref(),
        Some("render"),
        "{message}"
    );
    assert_eq!(
        get(&e, "state").as_string().as_deref(),
        Some("broken"),
        "{message}"
    );
    assert!(
        message.contains("render()") && message.contains("reload"),
        "{message}"
    );
}
