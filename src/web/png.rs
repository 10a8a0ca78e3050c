//! Screenshots: pixels read back from the canvas texture, encoded as a
//! PNG `Blob` by the browser's own encoder.

use wasm_bindgen::prelude::*;

use super::interop::{call, js_message, object};
use crate::error::Error;
use crate::readback::Image;

/// Encodes pixels as a PNG `Blob` with the browser's own encoder.
pub async fn encode_png(image: &Image, premultiplied: bool) -> Result<JsValue, Error> {
    let fail = |what: &str, e: JsValue| Error::Readback(format!("{what}: {}", js_message(&e)));
    let data = image.to_straight_rgba8(premultiplied);
    let pixels = web_sys::ImageData::new_with_u8_clamped_array_and_sh(
        wasm_bindgen::Clamped(&data),
        image.width,
        image.height,
    )
    .map_err(|e| fail("ImageData", e))?;
    let canvas = web_sys::OffscreenCanvas::new(image.width, image.height)
        .map_err(|e| fail("OffscreenCanvas", e))?;
    let ctx = call(&canvas, "getContext", &[&"2d".into()]).map_err(|e| fail("getContext", e))?;
    call(&ctx, "putImageData", &[&pixels, &0.into(), &0.into()])
        .map_err(|e| fail("putImageData", e))?;
    let options = object(&[("type", "image/png".into())]);
    let promise =
        call(&canvas, "convertToBlob", &[&options]).map_err(|e| fail("convertToBlob", e))?;
    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::from(promise))
        .await
        .map_err(|e| fail("convertToBlob", e))
}
