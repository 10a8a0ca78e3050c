//! The content the page gave the renderer, recorded in one place: the
//! demo, a scene shader's source, an image source and its gain, or content
//! set from Rust. The renderer shows it, re-uploads a playing video from
//! it, and replays it onto a new device after a device loss, so a new kind
//! of content cannot be forgotten there.

use super::image::{self, ImageSource};
use crate::chain::{Chain, Content};
use crate::error::Error;
use crate::gpu::Gpu;
use crate::passes::user_shader::UserShader;

/// Where the current content came from.
enum Source {
    /// The built-in demo scene (`useDemoScene()`, and at start).
    Demo,
    /// `setSceneShader(wgsl)`: compiled again on a new device.
    Shader(String),
    /// `setImage(source, { gain })`: uploaded again on a new device, and
    /// every frame while a video plays.
    Image { source: ImageSource, gain: f32 },
    /// Content given from Rust (the browser suites' fixtures), kept as given.
    Rust(Content),
    /// `setTexture(texture, { bloom, depth, camera })`: the app's
    /// textures, by identity.
    Textures(AppTextures),
}

/// What `setTexture` was given: the app's textures, and the camera that
/// reads its depth.
#[derive(Clone)]
pub struct AppTextures {
    pub scene: wasm_bindgen::JsValue,
    pub bloom: Option<wasm_bindgen::JsValue>,
    pub depth: Option<wasm_bindgen::JsValue>,
    pub camera: Option<crate::arguments::Camera>,
}

impl AppTextures {
    /// The same texture objects (the camera aside).
    fn same_textures(&self, other: &AppTextures) -> bool {
        self.scene == other.scene && self.bloom == other.bloom && self.depth == other.depth
    }
}

/// The user's content and a generation counter that moves whenever the
/// content or the device changes.
pub struct UserResources {
    source: Source,
    /// A scene shader that finishes compiling after the generation moved
    /// is not installed over the newer content.
    generation: u64,
}

impl Default for UserResources {
    /// The demo scene.
    fn default() -> Self {
        UserResources {
            source: Source::Demo,
            generation: 0,
        }
    }
}

impl UserResources {
    /// Something is about to replace the content: a shader still compiling
    /// must not win over it. Returns the new generation.
    pub fn supersede(&mut self) -> u64 {
        self.generation += 1;
        self.generation
    }

    /// Whether nothing replaced the content since `generation`.
    pub fn is_current(&self, generation: u64) -> bool {
        self.generation == generation
    }

    pub fn use_demo(&mut self, gpu: &Gpu, chain: &mut Chain) -> Result<(), Error> {
        self.supersede();
        chain.set_content(gpu, Content::DemoScene)?;
        self.source = Source::Demo;
        Ok(())
    }

    /// Content given from Rust.
    pub fn set(&mut self, gpu: &Gpu, chain: &mut Chain, content: Content) -> Result<(), Error> {
        self.supersede();
        chain.set_content(gpu, content.clone())?;
        self.source = match content {
            Content::DemoScene => Source::Demo,
            Content::Shader(source) => Source::Shader(source),
            other => Source::Rust(other),
        };
        Ok(())
    }

    /// Whether the app's textures (the same objects) are shown now.
    pub fn shows_textures(&self, textures: &AppTextures) -> bool {
        matches!(&self.source, Source::Textures(shown) if shown.same_textures(textures))
    }

    /// The app's textures shown (`setTexture`'s), if any.
    pub fn textures(&self) -> Option<&AppTextures> {
        match &self.source {
            Source::Textures(textures) => Some(textures),
            _ => None,
        }
    }

    /// The camera of the textures shown, changed without rebinding them.
    pub fn set_camera(&mut self, camera: Option<crate::arguments::Camera>) {
        if let Source::Textures(shown) = &mut self.source {
            shown.camera = camera;
        }
    }

    /// Shows the app's textures; on failure the previous content stays.
    pub fn set_textures(
        &mut self,
        gpu: &Gpu,
        chain: &mut Chain,
        input: crate::chain::ExternalInput,
        textures: AppTextures,
    ) -> Result<(), Error> {
        self.supersede();
        chain.set_content(gpu, Content::Texture(input))?;
        chain.set_camera(gpu, textures.camera);
        self.source = Source::Textures(textures);
        Ok(())
    }

    /// Shows an image; on failure the previous content stays.
    pub fn set_image(
        &mut self,
        gpu: &Gpu,
        chain: &mut Chain,
        source: ImageSource,
        gain: f32,
    ) -> Result<(), Error> {
        self.supersede();
        image::show(gpu, chain, &source, gain)?;
        self.source = Source::Image { source, gain };
        Ok(())
    }

    /// Installs a compiled scene shader prepared at `generation`, unless
    /// other content or a new device came since.
    pub fn install_shader(
        &mut self,
        gpu: &Gpu,
        chain: &mut Chain,
        shader: UserShader,
        generation: u64,
    ) -> Result<(), Error> {
        if !self.is_current(generation) {
            return Err(Error::superseded("setSceneShader"));
        }
        let source = shader.source.clone();
        // Rebuilt here if msaa changed while it compiled.
        chain.install_shader(gpu, shader)?;
        self.source = Source::Shader(source);
        Ok(())
    }

    /// Uploads the current frame of a playing video.
    pub fn upload_video_frame(&self, gpu: &Gpu, chain: &mut Chain) -> Result<(), Error> {
        match &self.source {
            Source::Image { source, gain } if source.has_new_frame() => {
                image::show(gpu, chain, source, *gain)
            }
            _ => Ok(()),
        }
    }

    /// Shows the recorded content with `chain` on a new device: a shader is
    /// compiled and an image uploaded again.
    pub fn replay(&mut self, gpu: &Gpu, chain: &mut Chain) -> Result<(), Error> {
        self.supersede();
        match &self.source {
            Source::Demo => chain.set_content(gpu, Content::DemoScene),
            Source::Shader(wgsl) => chain.set_content(gpu, Content::Shader(wgsl.clone())),
            Source::Image { source, gain } => image::show(gpu, chain, source, *gain),
            Source::Textures { .. } => Err(Error::argument(
                "texture",
                "is a texture of the lost device; set it again",
            )),
            Source::Rust(Content::Image(_) | Content::Texture(_)) => Err(Error::argument(
                "content",
                "is a texture of the lost device; set it again",
            )),
            Source::Rust(content) => chain.set_content(gpu, content.clone()),
        }
    }
}
