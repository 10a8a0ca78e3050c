//! Browser tests: run with `wasm-pack test --headless --chrome` against a
//! real WebGPU canvas. Pixels are read back from the canvas texture itself.
//! Every test ends by asserting that no uncaptured GPU error occurred.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::needless_range_loop)]

use afterglow::web::Renderer;
use afterglow::Content;
use js_sys::{Function, Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod common;
use common::*;

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

/// Asserts that `result` is a JS `Error` whose message contains every needle.
fn assert_error<T>(result: Result<T, JsValue>, needles: &[&str]) {
    let e = match result {
        Ok(_) => panic!("expected an error mentioning {needles:?}"),
        Err(e) => e,
    };
    assert!(e.is_instance_of::<js_sys::Error>(), "not an Error: {e:?}");
    let m = message(&e);
    for n in needles {
        assert!(m.contains(n), "error {m:?} does not mention {n:?}");
    }
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

async fn read(r: &Renderer) -> afterglow::readback::Image {
    match r.render_and_read(0.0).await {
        Ok(img) => img,
        Err(e) => panic!("readback failed: {e}"),
    }
}

#[wasm_bindgen_test]
async fn preferred_format_configures_all_seven_fields() {
    let c = canvas(64, 32);
    let r = create(
        &c,
        r#"{"canvas":{"screenshots":true},"tonemapper":"none","bloom":{"enabled":false}}"#,
    )
    .await;
    let cfg = context_configuration(&c);
    let preferred = preferred_format();
    let device = r.with_gpu(|g| g.device.as_webgpu().unwrap().clone()).unwrap();
    assert!(Object_is(&get(&cfg, "device"), device.as_ref()), "device");
    assert_eq!(
        get(&cfg, "format").as_string().unwrap(),
        preferred,
        "format"
    );
    assert_eq!(
        get(&cfg, "usage").as_f64(),
        Some((0x10 | 0x01) as f64),
        "usage"
    );
    let views = js_sys::Array::from(&get(&cfg, "viewFormats"));
    assert_eq!(views.length(), 1);
    assert_eq!(
        views.get(0).as_string().unwrap(),
        format!("{preferred}-srgb"),
        "viewFormats"
    );
    assert_eq!(get(&cfg, "colorSpace").as_string().unwrap(), "srgb");
    assert_eq!(
        get(&get(&cfg, "toneMapping"), "mode").as_string().unwrap(),
        "standard"
    );
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

#[wasm_bindgen_test]
async fn usage_is_render_attachment_only_without_screenshots() {
    let c = canvas(16, 16);
    let r = create(&c, "{}").await;
    assert_eq!(
        get(&context_configuration(&c), "usage").as_f64(),
        Some(0x10 as f64)
    );
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn rgba16float_configures_hdr_fields() {
    let c = canvas(32, 32);
    let r = create(
        &c,
        r#"{"canvas":{"format":"rgba16float","colorSpace":"display-p3","toneMapping":"extended","alphaMode":"premultiplied"}}"#,
    )
    .await;
    let cfg = context_configuration(&c);
    assert_eq!(get(&cfg, "format").as_string().unwrap(), "rgba16float");
    assert_eq!(
        js_sys::Array::from(&get(&cfg, "viewFormats")).length(),
        0,
        "no -srgb twin"
    );
    assert_eq!(get(&cfg, "usage").as_f64(), Some(0x10 as f64));
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
    assert_error(
        Renderer::create(
            c.into(),
            Some(opts(r#"{"canvas":{"toneMapping":"extended"}}"#)),
        )
        .await,
        &["canvas.toneMapping", "rgba16float"],
    );
}

#[wasm_bindgen_test]
async fn every_frame_fetches_a_fresh_texture() {
    let c = canvas(32, 32);
    let r = create(&c, "{}").await;
    let seen = spy_current_texture(&c);
    for i in 0..3 {
        r.render(Some(JsValue::from(i as f64 / 60.0))).unwrap();
        next_frame().await;
    }
    assert_eq!(seen.length(), 3, "one getCurrentTexture() per frame");
    assert!(
        !Object_is(&seen.get(0), &seen.get(1)),
        "frame 2 reused frame 1's texture"
    );
    assert!(
        !Object_is(&seen.get(1), &seen.get(2)),
        "frame 3 reused frame 2's texture"
    );
    assert_no_gpu_errors(&r);
}

#[wasm_bindgen_test]
async fn linear_half_reads_back_as_188() {
    let c = canvas(40, 30);
    let r = create(
        &c,
        r#"{"canvas":{"screenshots":true},"tonemapper":"none","bloom":{"enabled":false}}"#,
    )
    .await;
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
    let r = create(
        &c,
        r#"{"canvas":{"format":"rgba16float","screenshots":true},"tonemapper":"none","bloom":{"enabled":false}}"#,
    )
    .await;
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
    let r = create(
        &c,
        r#"{"canvas":{"screenshots":true},"tonemapper":"none","bloom":{"enabled":false}}"#,
    )
    .await;
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
    let r = create(
        &c,
        r#"{"canvas":{"screenshots":true},"tonemapper":"none","bloom":{"enabled":false}}"#,
    )
    .await;
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
    let r = create(
        &c,
        r#"{"canvas":{"screenshots":true},"tonemapper":"none","bloom":{"enabled":false}}"#,
    )
    .await;
    let max = r.with_gpu(|g| g.max_texture_size()).unwrap();
    assert_error(
        r.resize(JsValue::from(max + 1), JsValue::from(10)),
        &["width", "maxTextureDimension2D", &max.to_string()],
    );
    assert_error(
        r.resize(JsValue::from(10), JsValue::from(f64::NAN)),
        &["height", "NaN"],
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

#[wasm_bindgen_test]
async fn bad_render_times_are_refused() {
    let c = canvas(8, 8);
    let r = create(&c, "{}").await;
    assert_error(
        r.render(Some(JsValue::from(f64::NAN))),
        &["timeSeconds", "NaN"],
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
    assert_error(
        r.render(Some(JsValue::from(0.0))),
        &["render()", "destroy()"],
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
        assert_error(Renderer::create(c.into(), Some(opts(json))).await, needles);
    }
    // Not a canvas at all.
    let div = document().create_element("div").unwrap();
    assert_error(
        Renderer::create(div.into(), None).await,
        &["canvas", "HTMLDivElement"],
    );
    assert_error(
        Renderer::create(JsValue::NULL, None).await,
        &["canvas", "null"],
    );
    // A canvas that already has a 2d context.
    let taken = canvas(8, 8);
    taken.get_context("2d").unwrap();
    assert_error(
        Renderer::create(taken.into(), None).await,
        &["another kind of context"],
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
    let r = create(
        &c,
        r#"{"canvas":{"screenshots":true},"tonemapper":"none","bloom":{"enabled":false}}"#,
    )
    .await;
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

async fn render_content(
    c: &JsValue,
    options: &str,
    content: Content,
) -> (Renderer, afterglow::readback::Image) {
    let r = create(c, options).await;
    r.set_content(content).unwrap();
    let img = read(&r).await;
    assert_no_gpu_errors(&r);
    (r, img)
}

#[wasm_bindgen_test]
async fn a_bright_pixel_gets_a_symmetric_falling_halo() {
    for blur in ["mip", "gaussian"] {
        let c = canvas(128, 128);
        let options = measuring(&format!(
            r#"{{"intensity":1,"blur":"{blur}","iterations":8,"radius":2}}"#
        ));
        let (_r, img) = render_content(&c, &options, bright_pixel(128, (64, 64), 200.0)).await;
        check_halo(&img, 64, blur);
    }
}

#[wasm_bindgen_test]
async fn bloom_follows_threshold_intensity_and_enabled() {
    // Entirely below the threshold: identical to bloom off.
    let c = canvas(64, 64);
    let (_r, on) = render_content(
        &c,
        &measuring(r#"{"intensity":3,"threshold":1,"knee":0.5}"#),
        below_threshold(64),
    )
    .await;
    let c = canvas(64, 64);
    let (_r, off) =
        render_content(&c, &measuring(r#"{"enabled":false}"#), below_threshold(64)).await;
    assert_eq!(on.data, off.data, "light below the threshold bloomed");
    // Off: black stays black next to a bright pixel.
    let c = canvas(64, 64);
    let (_r, img) = render_content(
        &c,
        &measuring(r#"{"enabled":false}"#),
        bright_pixel(64, (32, 32), 100.0),
    )
    .await;
    assert_eq!(energy(&img, (32, 32)), 0.0);
    // More intensity, more energy.
    let mut last = 0.0;
    for intensity in [0.25, 1.0, 4.0] {
        let c = canvas(96, 96);
        let options = measuring(&format!(r#"{{"intensity":{intensity}}}"#));
        let (_r, img) = render_content(&c, &options, bright_pixel(96, (48, 48), 100.0)).await;
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
        let (_r, img) = render_content(&c, &options, ramp(256)).await;
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
        let (_r, img) = render_content(&c, &options, Content::Shape([1.0, 1.0, 1.0, 1.0])).await;
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
        let r = create(&c, &options).await;
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
        let (_r, want) = render_content(&canvas(64, 64), &options, scene_with(0.0)).await;
        for bad in [f32::NAN, f32::INFINITY] {
            let (_r, got) = render_content(&canvas(64, 64), &options, scene_with(bad)).await;
            check_same_except_near(&got, &want, BAD_PIXEL, &format!("{blur} {bad}"));
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
        for i in 1..6 {
            r.render(Some(JsValue::from(i as f64 * 0.1))).unwrap();
        }
        assert_eq!(r.with_gpu(|g| g.counters.snapshot()).unwrap(), before, "{variant}");
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
        assert_error(Renderer::create(c.into(), Some(opts(json))).await, needles);
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
