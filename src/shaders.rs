//! The WGSL the crate ships, in one registry.
//!
//! Every module is composed from files in `shaders/` behind one generated
//! prelude: the constants WGSL shares with Rust (the composite's flag bits,
//! the tonemapper indices) are written here from their Rust definitions,
//! never by hand in the shader files, so the two cannot drift apart.

use std::fmt::Write;

use crate::gpu::Gpu;
use crate::options::Tonemapper;
use crate::output;

/// The full-screen triangle vertex stage, shared by every full-screen pass.
pub const FULLSCREEN_WGSL: &str = wgsl!("fullscreen.wgsl");

/// NaN/Inf guards shared by the internal passes.
pub const GUARDS_WGSL: &str = wgsl!("guards.wgsl");

/// What a full-screen pass run as compute needs ([`image_entry`]).
const IMAGE_WGSL: &str = wgsl!("image.wgsl");

/// The side of a compute pass's square workgroup when it writes an image
/// a pixel per invocation (`FrameBuilder::compute_image`).
pub const IMAGE_GROUP: u32 = 8;

/// The constants shared with Rust, as WGSL.
pub fn constants() -> String {
    let mut s = String::new();
    let _ = writeln!(s, "const IMAGE_GROUP: u32 = {IMAGE_GROUP}u;");
    for (name, value) in output::FLAGS {
        let _ = writeln!(s, "const {name}: u32 = {value}u;");
    }
    // A variant missing here fails the composite shader's compilation
    // (its TONEMAP_* name is undefined), which the registry test catches.
    for t in [
        Tonemapper::None,
        Tonemapper::Agx,
        Tonemapper::Aces,
        Tonemapper::KhronosNeutral,
        Tonemapper::Reinhard,
    ] {
        let _ = writeln!(
            s,
            "const TONEMAP_{}: u32 = {}u;",
            t.as_str()
                .bytes()
                .map(|b| if b == b'-' {
                    '_'
                } else {
                    b.to_ascii_uppercase() as char
                })
                .collect::<String>(),
            t.shader_index()
        );
    }
    s
}

/// Declares `name`, the image a compute pass writes
/// (`FrameBuilder::compute_image`), at `group` and `binding`.
pub fn declare_image_out(
    s: &mut String,
    group: u32,
    binding: u32,
    name: &str,
    format: wgpu::TextureFormat,
) {
    let format = crate::formats::name(format);
    let _ = writeln!(
        s,
        "@group({group}) @binding({binding}) var {name}: texture_storage_2d<{format}, write>;"
    );
}

/// The workgroups of a compute pass that writes every pixel of an image of
/// `size` (one invocation per pixel, [`IMAGE_GROUP`] squared a group).
pub fn image_workgroups((w, h): (u32, u32)) -> [u32; 3] {
    [w.div_ceil(IMAGE_GROUP), h.div_ceil(IMAGE_GROUP), 1]
}

/// A compute entry point `entry` that stores, at each pixel of the storage
/// texture `out`, what `function(in: FullscreenOut) -> vec4f` gives for
/// the input a full-screen draw would give that pixel (`fx_fullscreen_at`):
/// a full-screen pass run as compute (`FrameBuilder::compute_image`).
/// `function` and `out` keep their names in minified WGSL (`fx_*`).
pub fn image_entry(entry: &str, function: &str, out: &str) -> String {
    format!(
        "@compute @workgroup_size(IMAGE_GROUP, IMAGE_GROUP)\n\
         fn {entry}(@builtin(global_invocation_id) id: vec3u) {{\n    \
         let size = textureDimensions({out});\n    \
         if all(id.xy < size) {{\n        \
         textureStore({out}, id.xy, {function}(fx_fullscreen_at(id.xy, size)));\n    }}\n}}\n"
    )
}

/// The WGSL of a module: the generated constants, the shared full-screen
/// vertex stage, guards and compute helper, then `parts`.
pub fn compose(parts: &[&str]) -> String {
    let mut source = format!(
        "{}\n{FULLSCREEN_WGSL}\n{GUARDS_WGSL}\n{IMAGE_WGSL}",
        constants()
    );
    for p in parts {
        source.push('\n');
        source.push_str(p);
    }
    source
}

/// Compiles a module made of [`compose`]d `parts`.
pub fn shader_module(gpu: &Gpu, label: &str, parts: &[&str]) -> wgpu::ShaderModule {
    gpu.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(compose(parts).into()),
    })
}
