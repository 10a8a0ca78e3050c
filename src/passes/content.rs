//! What the scene pass draws: the kinds of content and the WGSL wrapped
//! around a user's scene shader.

use crate::shaders::FULLSCREEN_WGSL;

/// An uploaded image (straight alpha, sRGB texture) and its multiplier.
#[derive(Clone, Debug, PartialEq)]
pub struct ImageContent {
    pub texture: wgpu::Texture,
    /// Multiplies the decoded linear colour, so highlights can bloom.
    pub gain: f32,
}

/// An image given as linear premultiplied RGBA floats, row by row (test
/// content).
#[cfg(test)]
#[derive(Clone, Debug, PartialEq)]
pub struct PixelImage {
    pub width: u32,
    pub height: u32,
    pub data: Vec<[f32; 4]>,
}

/// Textures the caller renders its own scene into, sampled directly by the
/// chain (no copy). The frame takes the scene texture's size; a bloom
/// texture, when given, feeds the bloom extract instead of the scene
/// (selective bloom) and has the same size, as has a depth texture (for
/// depth of field).
#[derive(Clone, Debug, PartialEq)]
pub struct ExternalInput {
    /// The scene's linear HDR radiance (premultiplied alpha).
    pub scene: wgpu::TextureView,
    /// What blooms, instead of the scene (typically an emissive target).
    pub bloom: Option<wgpu::TextureView>,
    /// Width and height of both textures.
    pub size: (u32, u32),
    /// Formats of the scene and bloom views.
    pub formats: (wgpu::TextureFormat, Option<wgpu::TextureFormat>),
    /// The scene's depth, checked by `texture_rules::check_caller_depth`.
    pub depth: Option<DepthInput>,
}

/// The caller's depth texture. How to read it (the camera) is not part of
/// it: a camera that moves its planes changes uniforms, not the frame.
#[derive(Clone, Debug)]
pub struct DepthInput {
    /// The caller's view, as given: what tells one depth input from another.
    pub view: wgpu::TextureView,
    /// The view of its depth aspect the frame reads (a
    /// `depth24plus-stencil8` texture is bound by its depth alone), made
    /// when the texture is given, while it is known to be alive: made again
    /// at a rebuild it would be a view of a texture the caller may have
    /// destroyed since, which Firefox reports as an error.
    pub read: wgpu::TextureView,
    pub kind: crate::texture_rules::DepthKind,
}

impl DepthInput {
    pub fn new(
        gpu: &crate::gpu::Gpu,
        view: wgpu::TextureView,
        kind: crate::texture_rules::DepthKind,
    ) -> DepthInput {
        let read = read_view(view.texture());
        gpu.counters
            .views
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        DepthInput { view, read, kind }
    }
}

/// The view of a depth texture's depth aspect (all of an `r32float`
/// distance texture), as the frame reads it.
pub fn read_view(texture: &wgpu::Texture) -> wgpu::TextureView {
    let aspect = if texture.format().is_depth_stencil_format() {
        wgpu::TextureAspect::DepthOnly
    } else {
        wgpu::TextureAspect::All
    };
    texture.create_view(&wgpu::TextureViewDescriptor {
        label: Some("depth texture view"),
        aspect,
        base_mip_level: 0,
        mip_level_count: Some(1),
        base_array_layer: 0,
        array_layer_count: Some(1),
        ..Default::default()
    })
}

impl PartialEq for DepthInput {
    fn eq(&self, other: &DepthInput) -> bool {
        self.view == other.view && self.kind == other.kind
    }
}

/// What the scene pass draws.
#[derive(Clone, Debug, PartialEq)]
pub enum Content {
    /// The built-in demo: instanced emissive cubes, emission 0.1 to 40.
    DemoScene,
    /// An uploaded image fitted inside the target (contain), times a gain.
    Image(ImageContent),
    /// WGSL defining `fn scene(uv: vec2f, time: f32) -> vec4f`.
    Shader(String),
    /// The caller's own textures: no scene pass runs.
    Texture(ExternalInput),
    /// Test content: one premultiplied linear colour everywhere.
    #[cfg(test)]
    Solid([f32; 4]),
    /// Test content: one tilted square of a premultiplied linear colour on
    /// transparent black (geometric edges for antialiasing tests).
    #[cfg(test)]
    Shape([f32; 4]),
    /// Test content: one texel per output pixel (nearest), values as given
    /// (HDR, NaN and Inf included).
    #[cfg(test)]
    Pixels(PixelImage),
}

/// The WGSL parts before a user's scene shader.
pub const USER_PREFIX_PARTS: &[&str] = &[wgsl!("scene_params.wgsl"), wgsl!("user_prelude.wgsl")];

/// The WGSL placed after a user's scene shader.
pub const USER_SUFFIX: &str = wgsl!("user_entry.wgsl");

/// The WGSL placed before a user's scene shader: the full-screen stage
/// and the scene parameters only (not the internal prelude, so the user's
/// names cannot collide with the crate's).
pub fn user_prefix() -> String {
    let mut s = format!("{FULLSCREEN_WGSL}\n");
    for part in USER_PREFIX_PARTS {
        s.push_str(part);
        s.push('\n');
    }
    s
}

/// The WGSL placed after a user's scene shader that defines `emissive`.
pub const USER_EMISSIVE_SUFFIX: &str = wgsl!("user_emissive.wgsl");

/// Whether a user's scene shader defines
/// `fn emissive(uv: vec2f, time: f32) -> vec3f` (a function named
/// `emissive`, outside comments; its signature is checked by the
/// compiler).
pub fn defines_emissive(user: &str) -> bool {
    crate::wgsl::find_fn(user, "emissive").is_some()
}

/// The complete module for a user's scene shader.
pub fn user_module_source(user: &str) -> String {
    let emissive = if defines_emissive(user) {
        USER_EMISSIVE_SUFFIX
    } else {
        ""
    };
    format!("{}{user}\n{USER_SUFFIX}{emissive}", user_prefix())
}

/// A user's scene shader with afterglow's call of `fn scene` and not of
/// `fn emissive`.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))] // the web renderer's
pub fn scene_only_source(user: &str) -> String {
    format!("{}{user}\n{USER_SUFFIX}", user_prefix())
}
