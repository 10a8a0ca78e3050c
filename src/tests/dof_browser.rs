//! Depth of field in a browser: the page's own colour and depth textures
//! handed to `setTexture(texture, { depth, camera })` on its own device,
//! and the canvas read back. The circle of confusion against the thin
//! lens (through `debug: 'coc'`), the two-depth stripes, a sharp edge over
//! a blurred field, every bad depth or camera refused by name, a depth
//! texture of another device or destroyed while set, and `stats()`.

use js_sys::{Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

use super::byo_browser::{
    app_device, assert_argument, assert_no_gpu_errors, canvas, create, get, js, measuring, read,
    render_until_refused, watch_app_handler,
};
#[allow(unused_imports)]
use super::common::*;
use crate::web::Renderer;

/// A `w`×`h` rgba16float texture of greys, row by row.
async fn greys(device: &JsValue, w: u32, h: u32, values: &[f32]) -> JsValue {
    let values = js_sys::Float32Array::from(values);
    js(
        "d, w, h, v",
        "const half = (x) => { if (x <= 0) return 0; const e = Math.floor(Math.log2(x));
           return ((e + 15) << 10) | Math.round((x / 2 ** e - 1) * 1024); };
         const t = d.createTexture({ label: 'app scene', size: [w, h], format: 'rgba16float',
           usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
         const data = new Uint16Array(w * h * 4);
         for (let i = 0; i < w * h; i++) { data.fill(half(v[i]), 4 * i, 4 * i + 3); data[4 * i + 3] = half(1); }
         d.queue.writeTexture({ texture: t }, data, { bytesPerRow: w * 8 }, [w, h]);
         return t;",
        &[device, &w.into(), &h.into(), &values.into()],
    )
    .await
}

/// A depth texture of `format` (`samples` each) holding `raw`, row by row:
/// `r32float` written directly, a depth format by a draw that writes
/// `frag_depth`, as an app's depth pass would.
async fn depth(
    device: &JsValue,
    (w, h): (u32, u32),
    format: &str,
    samples: u32,
    raw: &[f32],
) -> JsValue {
    let raw = js_sys::Float32Array::from(raw);
    js(
        "d, w, h, format, samples, raw",
        "const U = GPUTextureUsage;
         const values = d.createTexture({ size: [w, h], format: 'r32float', usage: U.TEXTURE_BINDING | U.COPY_DST });
         d.queue.writeTexture({ texture: values }, raw, { bytesPerRow: w * 4 }, [w, h]);
         if (format === 'r32float') return values;
         const t = d.createTexture({ label: 'app depth', size: [w, h], format, sampleCount: samples,
           usage: U.TEXTURE_BINDING | U.RENDER_ATTACHMENT });
         const m = d.createShaderModule({ code: `
           @group(0) @binding(0) var raw: texture_2d<f32>;
           @vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
             let uv = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
             return vec4f(uv * 2.0 - 1.0, 0.0, 1.0);
           }
           struct Out { @builtin(frag_depth) depth: f32 }
           @fragment fn fs(@builtin(position) p: vec4f) -> Out {
             var o: Out; o.depth = textureLoad(raw, vec2i(p.xy), 0).r; return o;
           }` });
         const p = d.createRenderPipeline({ layout: 'auto', vertex: { module: m, entryPoint: 'vs' },
           fragment: { module: m, entryPoint: 'fs', targets: [] },
           depthStencil: { format, depthWriteEnabled: true, depthCompare: 'always' },
           multisample: { count: samples } });
         const stencil = format.includes('stencil') ? { stencilLoadOp: 'clear', stencilStoreOp: 'store' } : {};
         const e = d.createCommandEncoder();
         const pass = e.beginRenderPass({ colorAttachments: [], depthStencilAttachment: { view: t.createView(),
           depthClearValue: 1, depthLoadOp: 'clear', depthStoreOp: 'store', ...stencil } });
         pass.setPipeline(p);
         pass.setBindGroup(0, d.createBindGroup({ layout: p.getBindGroupLayout(0),
           entries: [{ binding: 0, resource: values.createView() }] }));
         pass.draw(3);
         pass.end();
         d.queue.submit([e.finish()]);
         return t;",
        &[device, &w.into(), &h.into(), &format.into(), &samples.into(), &raw.into()],
    )
    .await
}

/// `{ depth, camera }` with `camera` as JSON (or none).
fn depth_options(depth: &JsValue, camera: Option<&str>) -> JsValue {
    let o = js_sys::Object::new();
    Reflect::set(&o, &"depth".into(), depth).unwrap();
    if let Some(c) = camera {
        Reflect::set(&o, &"camera".into(), &JSON::parse(c).unwrap()).unwrap();
    }
    o.into()
}

/// `setOptions` from JSON.
fn set(r: &Renderer, json: &str) {
    r.set_options(JSON::parse(json).unwrap()).unwrap();
}

/// The light shown at (x, y): the canvas is sRGB-encoded, linear below.
fn light(img: &crate::readback::Image, x: u32, y: u32) -> f32 {
    srgb_decode(red(img, x, y))
}

/// The value a standard perspective depth buffer holds at distance `z`.
fn perspective_depth(near: f32, far: f32, z: f32) -> f32 {
    far * (z - near) / (z * (far - near))
}

const STRIPES: (u32, u32) = (480, 270);

fn near_band(x: u32) -> bool {
    (160..320).contains(&x)
}

/// Michelson contrast of the rows 40 to 230 averaged over `columns`,
/// relative to the scene's (0.8).
fn contrast(img: &crate::readback::Image, columns: std::ops::Range<u32>) -> f64 {
    let (mut hi, mut lo) = (f64::MIN, f64::MAX);
    for x in columns {
        let mean = (40..230).map(|y| light(img, x, y) as f64).sum::<f64>() / 190.0;
        hi = hi.max(mean);
        lo = lo.min(mean);
    }
    (hi - lo) / (hi + lo) / 0.8
}

fn texels() -> impl Iterator<Item = (u32, u32)> {
    (0..STRIPES.1).flat_map(|y| (0..STRIPES.0).map(move |x| (x, y)))
}

/// The picture targets, on the page's own textures: stripes at two depths
/// keep their contrast where in focus and lose it where not; a sharp near
/// edge over a blurred far field keeps its edge.
#[wasm_bindgen_test]
async fn the_apps_depth_gives_the_picture_targets() {
    let device = app_device().await;
    let c = canvas(STRIPES.0, STRIPES.1);
    let r = create(&c, measuring(Some(&device), r#"{"enabled":false}"#).await).await;
    let stripes: Vec<f32> = texels()
        .map(|(x, _)| if (x / 3) % 2 == 0 { 0.9 } else { 0.1 })
        .collect();
    let scene = greys(&device, STRIPES.0, STRIPES.1, &stripes).await;
    let distance = |x: u32| if near_band(x) { 2.0 } else { 20.0 };
    let raw: Vec<f32> = texels()
        .map(|(x, _)| perspective_depth(0.1, 100.0, distance(x)))
        .collect();
    let d = depth(&device, STRIPES, "depth32float", 1, &raw).await;
    let camera = r#"{"near":0.1,"far":100}"#;
    r.set_texture(scene, Some(depth_options(&d, Some(camera))))
        .unwrap();
    let lens = r#""enabled":true,"fStop":1.4,"maxBlur":64"#;
    for (focus, sharp, blurred) in [(20, 24..136, 184..296), (2, 184..296, 24..136)] {
        set(
            &r,
            &format!(r#"{{"depthOfField":{{{lens},"focusDistance":{focus}}}}}"#),
        );
        let img = read(&r).await;
        let (kept, lost) = (contrast(&img, sharp), contrast(&img, blurred));
        web_sys::console::log_1(
            &format!("focus {focus}: sharp keeps {kept:.3}, blurred {lost:.3}").into(),
        );
        assert!(kept >= 0.9, "focus {focus}: in focus keeps {kept}");
        assert!(lost <= 0.3, "focus {focus}: out of focus keeps {lost}");
    }
    // A flat near band of 0.2 in focus over far stripes of 0 and 2.
    let scene: Vec<f32> = texels()
        .map(|(x, _)| {
            if near_band(x) {
                0.2
            } else {
                2.0 * (x / 4 % 2) as f32
            }
        })
        .collect();
    let scene = greys(&device, STRIPES.0, STRIPES.1, &scene).await;
    r.set_texture(scene, Some(depth_options(&d, Some(camera))))
        .unwrap();
    let img = read(&r).await;
    let mut leak = 0;
    for y in 40..230 {
        for x in 160..320u32 {
            let inside = (x - 160).min(319 - x) + 1;
            // 2 % of the far field's contrast, and an 8-bit step.
            if (light(&img, x, y) - 0.2).abs() > 0.04 + 0.01 {
                leak = leak.max(inside);
            }
        }
    }
    web_sys::console::log_1(&format!("blur leaked {leak} px inside the sharp edge").into());
    assert!(leak <= 2, "{leak} px");
    assert_eq!(stats_state(&r), "on");
    assert_no_gpu_errors(&r);
}

fn stats_state(r: &Renderer) -> String {
    let stats = r.stats(None).unwrap();
    get(&stats, "depthOfField").as_string().unwrap_or_default()
}

/// `debug: 'coc'` draws the thin lens's circle of confusion, from a depth
/// buffer (reversed, as three.js keeps one) and from linear distance.
#[wasm_bindgen_test]
async fn the_circle_of_confusion_is_the_thin_lenss() {
    let (w, h) = (256u32, 128u32);
    let device = app_device().await;
    let c = canvas(w, h);
    let r = create(&c, measuring(Some(&device), r#"{"enabled":false}"#).await).await;
    set(
        &r,
        r#"{"debug":"coc","depthOfField":{"enabled":true,"focusDistance":4,"fStop":0.7,"maxBlur":128}}"#,
    );
    let grey = vec![0.5; (w * h) as usize];
    let scene = greys(&device, w, h, &grey).await;
    let z = |x: u32| 0.5 * 200f64.powf(x as f64 / (w - 1) as f64);
    let all = || (0..h).flat_map(move |_| 0..w);
    let (near, far) = (0.1f64, 200.0f64);
    let reversed: Vec<f32> = all()
        .map(|x| (near * (far - z(x)) / (z(x) * (far - near))) as f32)
        .collect();
    let linear: Vec<f32> = all().map(|x| z(x) as f32).collect();
    let max = 128.0 * h as f64 / 1080.0;
    let k = 0.05f64 * 0.05 / (0.7 * (4.0 - 0.05)) / 0.024 * h as f64;
    let mut worst: f64 = 0.0;
    for (format, raw, camera) in [
        (
            "depth32float",
            reversed,
            Some(r#"{"near":0.1,"far":200,"reversedZ":true}"#),
        ),
        ("r32float", linear, None),
    ] {
        let d = depth(&device, (w, h), format, 1, &raw).await;
        r.set_texture(scene.clone(), Some(depth_options(&d, camera)))
            .unwrap();
        let img = read(&r).await;
        for x in 0..w {
            let p = img.rgba_f32(x, h / 2);
            let got = (srgb_decode(p[2]) as f64 - srgb_decode(p[0]) as f64) * max;
            let want = (k * (1.0 - 4.0 / z(x))).clamp(-max, max);
            let err = (got - want).abs();
            assert!(
                err <= 0.25 || err <= 0.05 * want.abs(),
                "{format}: at z = {:.3} the CoC is {got:.3} px, the thin lens {want:.3}",
                z(x)
            );
            worst = worst.max(err);
        }
    }
    web_sys::console::log_1(&format!("largest CoC error: {worst:.3} px").into());
    assert_no_gpu_errors(&r);
}

/// Every bad depth or camera is an `ArgumentError` naming it, and changes
/// nothing.
#[wasm_bindgen_test]
async fn bad_depth_and_cameras_are_refused_by_name() {
    let device = app_device().await;
    let c = canvas(32, 32);
    let r = create(&c, measuring(Some(&device), r#"{"enabled":false}"#).await).await;
    let scene = greys(&device, 32, 32, &[0.5; 32 * 32]).await;
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
    let camera = Some(r#"{"near":0.1,"far":10}"#);
    for (desc, needle) in [
        (
            "{ size: [32, 32], format: 'rgba16float', usage: U.TEXTURE_BINDING }",
            "depth32float",
        ),
        (
            "{ size: [16, 16], format: 'depth32float', usage: U.TEXTURE_BINDING }",
            "scene's size",
        ),
        (
            "{ size: [32, 32], format: 'depth24plus', usage: U.RENDER_ATTACHMENT }",
            "TEXTURE_BINDING",
        ),
        (
            "{ size: [32, 32, 2], format: 'depth32float', usage: U.TEXTURE_BINDING }",
            "2 array layers",
        ),
    ] {
        let t = make(desc).await;
        assert_argument(
            r.set_texture(scene.clone(), Some(depth_options(&t, camera))),
            "depth",
            needle,
        );
    }
    let not_a_texture = depth_options(&JsValue::from(3), camera);
    assert_argument(
        r.set_texture(scene.clone(), Some(not_a_texture)),
        "depth",
        "GPUTexture",
    );
    let buffer = make("{ size: [32, 32], format: 'depth24plus', usage: U.TEXTURE_BINDING }").await;
    assert_argument(
        r.set_texture(scene.clone(), Some(depth_options(&buffer, None))),
        "camera",
        "depth buffer",
    );
    for (camera, argument) in [
        (r#"{"near":0,"far":10}"#, "camera.near"),
        (r#"{"near":"1","far":10}"#, "camera.near"),
        (r#"{"near":1,"far":0.5}"#, "camera.far"),
        (r#"{"near":1}"#, "camera.far"),
        (
            r#"{"near":1,"far":9,"reversedZ":"yes"}"#,
            "camera.reversedZ",
        ),
        (
            r#"{"near":1,"far":9,"orthographic":1}"#,
            "camera.orthographic",
        ),
        (r#"{"near":1,"far":9,"fov":50}"#, "camera.fov"),
        ("7", "camera"),
    ] {
        let o = depth_options(&buffer, Some(camera));
        assert_argument(r.set_texture(scene.clone(), Some(o)), argument, "");
    }
    // Distances take no camera: one given is refused, not silently unused.
    let linear = make("{ size: [32, 32], format: 'r32float', usage: U.TEXTURE_BINDING }").await;
    assert_argument(
        r.set_texture(scene.clone(), Some(depth_options(&linear, camera))),
        "camera",
        "r32float",
    );
    let camera_alone = JSON::parse(r#"{"camera":{"near":1,"far":9}}"#).unwrap();
    assert_argument(
        r.set_texture(scene.clone(), Some(camera_alone)),
        "camera",
        "without depth",
    );
    // Refusals changed nothing; a good one is taken.
    r.set_texture(scene, Some(depth_options(&buffer, camera)))
        .unwrap();
    r.render(None).unwrap();
    assert_no_gpu_errors(&r);
}

/// A depth texture of another device is refused by the next `render()`,
/// and one the app destroys while it is set is named and no longer used
/// (the scene stays, without depth of field); the app's handler sees
/// nothing of either.
#[wasm_bindgen_test]
async fn a_foreign_or_destroyed_depth_texture_is_named() {
    remove_earlier_canvases();
    let device = app_device().await;
    let other = app_device().await;
    watch_app_handler(&device).await;
    let c = canvas(32, 32);
    let r = create(&c, measuring(Some(&device), r#"{"enabled":false}"#).await).await;
    set(&r, r#"{"depthOfField":{"enabled":true}}"#);
    let scene = greys(&device, 32, 32, &[0.5; 32 * 32]).await;
    let foreign = depth(&other, (32, 32), "r32float", 1, &[3.0; 32 * 32]).await;
    r.set_texture(scene.clone(), Some(depth_options(&foreign, None)))
        .unwrap();
    let (e, _) = render_until_refused(&r).await;
    assert_argument(
        Err::<(), _>(e),
        "depth",
        "not a texture of the renderer's GPUDevice",
    );
    let own = depth(&device, (32, 32), "depth32float", 4, &[0.5; 32 * 32]).await;
    let camera = Some(r#"{"near":0.1,"far":10}"#);
    r.set_texture(scene.clone(), Some(depth_options(&own, camera)))
        .unwrap();
    r.render(None).unwrap();
    assert_eq!(stats_state(&r), "on");
    js("t", "t.label = ''; t.destroy();", &[&own]).await;
    // A rebuild before the destroy is known reads the texture again.
    set(&r, r#"{"depthOfField":{"maxBlur":24}}"#);
    let (e, _) = render_until_refused(&r).await;
    assert_argument(Err::<(), _>(e), "depth", "was destroyed");
    // The scene stays, without depth of field: not a black frame.
    let img = read(&r).await;
    assert_eq!(stats_state(&r), "no-depth");
    assert!(
        (light(&img, 16, 16) - 0.5).abs() < 0.01,
        "{}",
        light(&img, 16, 16)
    );
    assert_no_gpu_errors(&r);
    let seen = js_sys::Array::from(&get(&device, "seen"));
    assert_eq!(seen.length(), 0, "{:?}", seen.to_vec());
}

/// Without depth, depth of field is a no-op `stats()` shows, never a black
/// frame.
#[wasm_bindgen_test]
async fn without_depth_it_says_so_and_draws_the_sharp_frame() {
    let device = app_device().await;
    let c = canvas(32, 32);
    let r = create(&c, measuring(Some(&device), r#"{"enabled":false}"#).await).await;
    let scene = greys(&device, 32, 32, &[0.5; 32 * 32]).await;
    r.set_texture(scene, None).unwrap();
    assert_eq!(stats_state(&r), "off");
    let sharp = read(&r).await;
    set(&r, r#"{"depthOfField":{"enabled":true}}"#);
    let img = read(&r).await;
    assert_eq!(stats_state(&r), "no-depth");
    assert_eq!(img.data, sharp.data);
    assert!((light(&img, 16, 16) - 0.5).abs() < 0.01);
    assert_no_gpu_errors(&r);
}
