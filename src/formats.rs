//! Texture formats by their WebGPU names, for messages.

/// The WebGPU name of a format (`'rgba16float'`), for messages. Written
/// out rather than derived from `Debug`, whose generated code for every
/// format would be shipped in the wasm; formats afterglow never creates
/// share one description.
pub fn name(format: wgpu::TextureFormat) -> &'static str {
    use wgpu::TextureFormat as F;
    match format {
        F::R8Unorm => "r8unorm",
        F::Rg8Unorm => "rg8unorm",
        F::Rgba8Unorm => "rgba8unorm",
        F::Rgba8UnormSrgb => "rgba8unorm-srgb",
        F::Bgra8Unorm => "bgra8unorm",
        F::Bgra8UnormSrgb => "bgra8unorm-srgb",
        F::Rgb10a2Unorm => "rgb10a2unorm",
        F::Rg11b10Ufloat => "rg11b10ufloat",
        F::R16Float => "r16float",
        F::Rg16Float => "rg16float",
        F::Rgba16Float => "rgba16float",
        F::R32Float => "r32float",
        F::Rg32Float => "rg32float",
        F::Rgba32Float => "rgba32float",
        F::Depth16Unorm => "depth16unorm",
        F::Depth24Plus => "depth24plus",
        F::Depth24PlusStencil8 => "depth24plus-stencil8",
        F::Depth32Float => "depth32float",
        _ => "a format afterglow does not use",
    }
}

/// Whether core WebGPU lets a compute pass write `format` as a storage
/// texture (of the formats afterglow uses; `rg8unorm`, `r16float` and the
/// `-srgb` ones it does not).
pub fn is_storage(format: wgpu::TextureFormat) -> bool {
    use wgpu::TextureFormat as F;
    matches!(
        format,
        F::Rgba8Unorm | F::Rgba16Float | F::R32Float | F::Rg32Float | F::Rgba32Float
    )
}
