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
#[cfg(feature = "fixtures")]
#[derive(Clone, Debug, PartialEq)]
pub struct PixelImage {
    pub width: u32,
    pub height: u32,
    pub data: Vec<[f32; 4]>,
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
    /// Test content: one premultiplied linear colour everywhere.
    #[cfg(feature = "fixtures")]
    Solid([f32; 4]),
    /// Test content: one tilted square of a premultiplied linear colour on
    /// transparent black (geometric edges for antialiasing tests).
    #[cfg(feature = "fixtures")]
    Shape([f32; 4]),
    /// Test content: one texel per output pixel (nearest), values as given
    /// (HDR, NaN and Inf included).
    #[cfg(feature = "fixtures")]
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

/// The complete module for a user's scene shader.
pub fn user_module_source(user: &str) -> String {
    format!("{}{user}\n{USER_SUFFIX}", user_prefix())
}
