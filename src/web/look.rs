//! `setLut` and `setLensDirt`: the look's content, kept so that it is
//! uploaded again onto a new device after a device loss, as the scene's
//! content is.

use wasm_bindgen::prelude::*;

use super::image::ImageSource;
use super::interop::describe;
use super::shared::wrap_texture;
use crate::chain::Chain;
use crate::error::Error;
use crate::gpu::ErrorAnswer;
use crate::gpu::Gpu;
use crate::lut::Lut;
use crate::passes::look::DirtTexture;

/// Where the lens dirt came from.
enum Dirt {
    Image(ImageSource),
    /// The app's `GPUTexture` (kept to name it if the app destroys it); it
    /// cannot outlive its device.
    Texture(JsValue),
}

/// The look's content as the page gave it.
#[derive(Default)]
pub struct LookSources {
    lut: Option<Lut>,
    dirt: Option<Dirt>,
    /// Moves with every `setLensDirt`: a texture still being checked is
    /// not installed over a later call's dirt.
    dirt_generation: u64,
}

impl LookSources {
    /// `setLut(cube)`: parses and uploads; on failure the previous table
    /// stays.
    pub fn set_lut(&mut self, gpu: &Gpu, chain: &mut Chain, cube: &JsValue) -> Result<(), Error> {
        let lut = if cube.is_null() {
            None
        } else {
            let text = cube.as_string().ok_or_else(|| {
                Error::argument(
                    "cube",
                    format!(
                        "must be the text of a .cube file (a string) or null, got {}",
                        describe(cube)
                    ),
                )
            })?;
            Some(crate::lut::parse_cube(&text).map_err(Error::Argument)?)
        };
        chain.set_lut(gpu, lut.as_ref())?;
        self.lut = lut;
        Ok(())
    }

    /// `setLensDirt(null)`.
    pub fn clear_dirt(&mut self, gpu: &Gpu, chain: &mut Chain) -> Result<(), Error> {
        self.dirt_generation += 1;
        chain.set_dirt(gpu, None)?;
        self.dirt = None;
        Ok(())
    }

    /// `setLensDirt(image)`: uploaded now (a video's current frame).
    pub fn set_dirt_image(
        &mut self,
        gpu: &Gpu,
        chain: &mut Chain,
        source: ImageSource,
    ) -> Result<(), Error> {
        self.dirt_generation += 1;
        upload_dirt(gpu, chain, &source)?;
        self.dirt = Some(Dirt::Image(source));
        Ok(())
    }

    /// `setLensDirt(texture)`, first half: the app's texture wrapped, and
    /// the check that it is the renderer's device's started (see
    /// `setTexture`); returns what [`LookSources::install_dirt_texture`]
    /// takes once the check passed.
    pub fn check_dirt_texture(
        &mut self,
        gpu: &Gpu,
        source: &JsValue,
    ) -> Result<(DirtTexture, ErrorAnswer, u64), Error> {
        let (texture, view) = wrap_texture(gpu, source, "source")?;
        let probe = gpu.probe_texture(&view);
        let dirt = DirtTexture {
            view,
            size: (texture.width(), texture.height()),
            own: None,
        };
        self.dirt_generation += 1;
        Ok((dirt, probe, self.dirt_generation))
    }

    /// Installs a checked texture unless another `setLensDirt` came since.
    pub fn install_dirt_texture(
        &mut self,
        gpu: &Gpu,
        chain: &mut Chain,
        dirt: DirtTexture,
        generation: u64,
        source: JsValue,
    ) -> Result<(), Error> {
        if generation != self.dirt_generation {
            return Err(Error::superseded("setLensDirt"));
        }
        chain.set_dirt(gpu, Some(dirt))?;
        self.dirt = Some(Dirt::Texture(source));
        Ok(())
    }

    /// The app's texture the lens dirt is, if it is one.
    pub fn dirt_texture(&self) -> Option<&JsValue> {
        match &self.dirt {
            Some(Dirt::Texture(t)) => Some(t),
            _ => None,
        }
    }

    /// Uploads the look again onto a new device's chain. An app texture
    /// was the lost device's: it is dropped, and the error says so.
    pub fn replay(&mut self, gpu: &Gpu, chain: &mut Chain) -> Result<(), Error> {
        chain.set_lut(gpu, self.lut.as_ref())?;
        match &self.dirt {
            Some(Dirt::Image(source)) => upload_dirt(gpu, chain, source),
            Some(Dirt::Texture(_)) => {
                self.dirt = None;
                Err(Error::argument(
                    "source",
                    "the lens dirt was a texture of the lost device; set it again",
                ))
            }
            None => Ok(()),
        }
    }
}

/// `setLensDirt(source)` of anything but a texture: `null` removes the
/// dirt; an image source is uploaded at once.
pub fn image_dirt(
    r: &mut LookSources,
    gpu: &Gpu,
    chain: &mut Chain,
    source: JsValue,
) -> Result<(), Error> {
    if source.is_null() {
        return r.clear_dirt(gpu, chain);
    }
    let shown = describe(&source);
    let image = ImageSource::new(source).map_err(|_| {
        Error::argument(
            "source",
            format!(
                "must be an ImageBitmap, HTMLImageElement, HTMLCanvasElement, \
                 HTMLVideoElement, OffscreenCanvas, ImageData, a GPUTexture of the \
                 renderer's device, or null; got {shown}"
            ),
        )
    })?;
    r.set_dirt_image(gpu, chain, image)
}

/// Copies `source` into the chain's dirt texture (a new one when the size
/// changed) and shows it.
fn upload_dirt(gpu: &Gpu, chain: &mut Chain, source: &ImageSource) -> Result<(), Error> {
    let size = source.size_on(gpu, "source")?;
    let reuse = chain
        .own_dirt()
        .filter(|t| (t.width(), t.height()) == size)
        .cloned();
    let texture = match reuse {
        Some(t) => t,
        None => super::image::image_texture(gpu, size, "lens dirt")?,
    };
    source.copy_to(gpu, &texture)?;
    let view = gpu.create_view(&texture, &Default::default());
    chain.set_dirt(
        gpu,
        Some(DirtTexture {
            view,
            size,
            own: Some(texture),
        }),
    )
}
