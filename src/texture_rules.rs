//! The rules of `createTexture`, checked before any texture is created.
//!
//! The browser validates these too, but only after the fact and without
//! saying which of the project's textures was wrong; and some of wgpu's web
//! paths panic instead of reporting. Every texture the crate creates goes
//! through [`check`] first (see `Gpu::create_texture`).

use wgpu::{TextureDescriptor, TextureDimension, TextureUsages};

use crate::error::TextureRuleError;

/// The largest mip count for a size: the number of times the largest
/// dimension can be halved down to 1, plus one. For 3D textures the depth
/// counts; for 2D arrays the layers do not (they share one chain).
pub fn max_mip_levels(size: wgpu::Extent3d, dimension: TextureDimension) -> u32 {
    let depth = match dimension {
        TextureDimension::D3 => size.depth_or_array_layers,
        _ => 1,
    };
    let largest = size.width.max(size.height).max(depth).max(1);
    1 + largest.ilog2()
}

/// Checks a descriptor against the WebGPU rules. The error names the
/// texture (its label) and the rule.
pub fn check(desc: &TextureDescriptor<'_>) -> Result<(), TextureRuleError> {
    let name = desc.label.unwrap_or("unlabelled texture");
    let fail = |rule: String| {
        Err(TextureRuleError {
            texture: name.to_string(),
            rule,
        })
    };
    let size = desc.size;
    if size.width == 0 || size.height == 0 || size.depth_or_array_layers == 0 {
        return fail(format!(
            "size {}×{}×{} has a zero dimension",
            size.width, size.height, size.depth_or_array_layers
        ));
    }
    let compressed_or_depth = desc.format.is_compressed() || desc.format.is_depth_stencil_format();
    match desc.dimension {
        TextureDimension::D1 => {
            if size.height != 1 || size.depth_or_array_layers != 1 {
                return fail("a 1d texture has height and depthOrArrayLayers 1".into());
            }
            if desc.sample_count != 1 {
                return fail("a 1d texture cannot be multisampled".into());
            }
            if compressed_or_depth {
                return fail("a 1d texture cannot be compressed or depth".into());
            }
        }
        TextureDimension::D3 => {
            if desc.sample_count != 1 {
                return fail("a 3d texture cannot be multisampled".into());
            }
            if compressed_or_depth {
                return fail("a 3d texture cannot be compressed or depth".into());
            }
        }
        TextureDimension::D2 => {}
    }
    match desc.sample_count {
        1 => {}
        4 => {
            if desc.mip_level_count != 1 {
                return fail("a multisampled texture has exactly 1 mip level".into());
            }
            if size.depth_or_array_layers != 1 {
                return fail("a multisampled texture has exactly 1 layer".into());
            }
            if !desc.usage.contains(TextureUsages::RENDER_ATTACHMENT) {
                return fail("a multisampled texture needs RENDER_ATTACHMENT".into());
            }
            if desc.usage.contains(TextureUsages::STORAGE_BINDING) {
                return fail("a multisampled texture cannot have STORAGE_BINDING".into());
            }
        }
        n => return fail(format!("sampleCount must be 1 or 4, got {n}")),
    }
    let max = max_mip_levels(size, desc.dimension);
    if desc.mip_level_count == 0 || desc.mip_level_count > max {
        return fail(format!(
            "mipLevelCount {} is outside 1..={max} for {}×{}",
            desc.mip_level_count, size.width, size.height
        ));
    }
    for view in desc.view_formats {
        if view.remove_srgb_suffix() != desc.format.remove_srgb_suffix() {
            return fail(format!(
                "view format {} differs from {} by more than -srgb",
                crate::formats::name(*view),
                crate::formats::name(desc.format)
            ));
        }
    }
    if desc.usage.contains(TextureUsages::TRANSIENT_ATTACHMENT) {
        if desc.usage != TextureUsages::TRANSIENT_ATTACHMENT | TextureUsages::RENDER_ATTACHMENT {
            return fail(
                "TRANSIENT_ATTACHMENT allows exactly TRANSIENT_ATTACHMENT | RENDER_ATTACHMENT"
                    .into(),
            );
        }
        if desc.dimension != TextureDimension::D2
            || desc.mip_level_count != 1
            || size.depth_or_array_layers != 1
        {
            return fail("a transient attachment is 2d with 1 mip level and 1 layer".into());
        }
    }
    if desc.usage.is_empty() {
        return fail("usage is empty".into());
    }
    Ok(())
}

/// A caller's texture that the chain is to sample (`PostChain`'s `hdr` and
/// `bloom` views, `setTexture`'s `GPUTexture`s), as each front end reads it.
#[derive(Clone, Copy)]
pub struct CallerTexture<'a> {
    pub dimension: TextureDimension,
    pub layers: u32,
    pub samples: u32,
    pub usage: TextureUsages,
    /// The usage as the caller spells it (`6`, `COPY_DST`) and the flag's
    /// name in the caller's API (`GPUTextureUsage.TEXTURE_BINDING`).
    pub usage_spelled: (&'a str, &'a str),
    pub format: wgpu::TextureFormat,
    /// The format as the caller spells it (`'r32uint'`, `R32Uint`).
    pub format_spelled: &'a str,
}

/// The one rule for a caller's texture the chain samples: a single-layer,
/// single-sampled 2D texture with `TEXTURE_BINDING` and a colour format
/// the chain can filter on this device. The error names `argument`.
pub fn check_caller_texture(
    argument: &str,
    t: &CallerTexture<'_>,
    features: wgpu::Features,
) -> Result<(), crate::error::ArgumentError> {
    check_shape(argument, t)?;
    let refuse = |message: String| {
        Err(crate::error::ArgumentError {
            argument: argument.into(),
            message,
        })
    };
    let format = t.format_spelled;
    if t.format == wgpu::TextureFormat::Rgba32Float
        && !features.contains(wgpu::Features::FLOAT32_FILTERABLE)
    {
        return refuse(format!(
            "has format {format}, which needs a device created with the \
             'float32-filterable' feature; use rgba16float or request that feature"
        ));
    }
    let filterable = matches!(
        t.format.sample_type(None, Some(features)),
        Some(wgpu::TextureSampleType::Float { filterable: true })
    );
    if !filterable {
        let kind = if t.format.is_depth_stencil_format() {
            "a depth/stencil format, which cannot be filtered as a color"
        } else {
            "a format the chain cannot filter as a color"
        };
        return refuse(format!("has format {format}, {kind}"));
    }
    Ok(())
}

/// What every caller's texture the chain samples is: 2D, one layer, one
/// sample, `TEXTURE_BINDING`.
fn check_shape(argument: &str, t: &CallerTexture<'_>) -> Result<(), crate::error::ArgumentError> {
    let refuse = |message: String| {
        Err(crate::error::ArgumentError {
            argument: argument.into(),
            message,
        })
    };
    if t.dimension != TextureDimension::D2 {
        let name = match t.dimension {
            TextureDimension::D1 => "1d",
            _ => "3d",
        };
        return refuse(format!(
            "is a '{name}' texture; only a '2d' texture can be read"
        ));
    }
    if t.layers != 1 {
        return refuse(format!(
            "has {} array layers; a single-layer 2d texture is needed",
            t.layers
        ));
    }
    if t.samples != 1 {
        return refuse(format!(
            "is multisampled ({} samples); resolve it into a single-sampled texture \
             (a resolve target) and pass that",
            t.samples
        ));
    }
    if !t.usage.contains(TextureUsages::TEXTURE_BINDING) {
        let (usage, flag) = t.usage_spelled;
        return refuse(format!(
            "lacks {flag} in its usage ({usage}); add it where the texture is created"
        ));
    }
    Ok(())
}

/// How a caller's depth texture holds distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DepthKind {
    /// A depth buffer: 0 to 1 between the camera's planes.
    Buffer,
    /// A multisampled depth buffer, read at its first sample (as three.js
    /// reads the depth of a multisampled render target: WebGPU resolves no
    /// depth).
    Multisampled,
    /// `r32float`: the linear distance itself.
    Linear,
}

impl DepthKind {
    /// How a texture of this kind is bound.
    pub fn binding(self) -> wgpu::BindingType {
        let sample_type = match self {
            DepthKind::Buffer | DepthKind::Multisampled => wgpu::TextureSampleType::Depth,
            DepthKind::Linear => wgpu::TextureSampleType::Float { filterable: false },
        };
        wgpu::BindingType::Texture {
            sample_type,
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: self == DepthKind::Multisampled,
        }
    }

    /// Its WGSL type.
    pub fn wgsl_type(self) -> &'static str {
        match self {
            DepthKind::Buffer => "texture_depth_2d",
            DepthKind::Multisampled => "texture_depth_multisampled_2d",
            DepthKind::Linear => "texture_2d<f32>",
        }
    }

    /// Whether its values go through a camera (a depth buffer's do).
    pub fn needs_camera(self) -> bool {
        self != DepthKind::Linear
    }
}

/// The one rule for a caller's depth texture (`setTexture`'s `depth`,
/// `PostChain`'s): the shape of [`check_caller_texture`] (but a depth
/// buffer may have 4 samples), a format the chain reads as depth or linear
/// distance, and the scene's size. The error names `argument`.
pub fn check_caller_depth(
    argument: &str,
    t: &CallerTexture<'_>,
    size: (u32, u32),
    scene: (u32, u32),
) -> Result<DepthKind, crate::error::ArgumentError> {
    use wgpu::TextureFormat as F;
    let buffer = matches!(
        t.format,
        F::Depth32Float | F::Depth24Plus | F::Depth24PlusStencil8 | F::Depth16Unorm
    );
    let multisampled = buffer && t.samples == 4;
    check_shape(
        argument,
        &CallerTexture {
            samples: if multisampled { 1 } else { t.samples },
            ..*t
        },
    )?;
    let refuse = |message: String| {
        Err(crate::error::ArgumentError {
            argument: argument.into(),
            message,
        })
    };
    let kind = match t.format {
        _ if multisampled => DepthKind::Multisampled,
        _ if buffer => DepthKind::Buffer,
        F::R32Float => DepthKind::Linear,
        _ => {
            return refuse(format!(
                "has format {}; depth is read from depth32float, depth24plus, \
                 depth24plus-stencil8 or depth16unorm, or from r32float holding linear distance",
                t.format_spelled
            ))
        }
    };
    if size != scene {
        return refuse(format!(
            "is {}×{} but the scene texture is {}×{}; depth must have the scene's size",
            size.0, size.1, scene.0, scene.1
        ));
    }
    Ok(kind)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wgpu::{Extent3d, TextureFormat as F};

    fn size(w: u32, h: u32, d: u32) -> Extent3d {
        Extent3d {
            width: w,
            height: h,
            depth_or_array_layers: d,
        }
    }

    fn desc(
        size: Extent3d,
        mips: u32,
        samples: u32,
        dim: TextureDimension,
        format: F,
        usage: TextureUsages,
    ) -> TextureDescriptor<'static> {
        TextureDescriptor {
            label: Some("t"),
            size,
            mip_level_count: mips,
            sample_count: samples,
            dimension: dim,
            format,
            usage,
            view_formats: &[],
        }
    }

    const RT: TextureUsages = TextureUsages::RENDER_ATTACHMENT;
    const D2: TextureDimension = TextureDimension::D2;

    #[test]
    fn max_mips_follow_the_largest_dimension() {
        assert_eq!(max_mip_levels(size(1024, 1024, 1), D2), 11);
        assert_eq!(max_mip_levels(size(1024, 256, 1), D2), 11);
        assert_eq!(max_mip_levels(size(300, 200, 1), D2), 9);
        assert_eq!(max_mip_levels(size(1, 1, 1), D2), 1);
        // Array layers do not count for 2d; depth does for 3d.
        assert_eq!(max_mip_levels(size(16, 16, 256), D2), 5);
        assert_eq!(max_mip_levels(size(16, 16, 256), TextureDimension::D3), 9);
    }

    #[test]
    fn mip_count_is_bounded() {
        let ok = desc(
            size(300, 200, 1),
            9,
            1,
            D2,
            F::Rgba8Unorm,
            TextureUsages::TEXTURE_BINDING,
        );
        assert!(check(&ok).is_ok());
        let bad = TextureDescriptor {
            mip_level_count: 10,
            ..ok.clone()
        };
        assert!(check(&bad).unwrap_err().rule.contains("mipLevelCount 10"));
        let zero = TextureDescriptor {
            mip_level_count: 0,
            ..ok
        };
        assert!(check(&zero).is_err());
    }

    #[test]
    fn multisampling_restrictions() {
        let ok = desc(size(64, 64, 1), 1, 4, D2, F::Rgba16Float, RT);
        assert!(check(&ok).is_ok());
        for (bad, needle) in [
            (
                TextureDescriptor {
                    sample_count: 2,
                    ..ok.clone()
                },
                "1 or 4",
            ),
            (
                TextureDescriptor {
                    sample_count: 8,
                    ..ok.clone()
                },
                "1 or 4",
            ),
            (
                TextureDescriptor {
                    mip_level_count: 2,
                    ..ok.clone()
                },
                "1 mip",
            ),
            (
                TextureDescriptor {
                    size: size(64, 64, 2),
                    ..ok.clone()
                },
                "1 layer",
            ),
            (
                TextureDescriptor {
                    usage: TextureUsages::TEXTURE_BINDING,
                    ..ok.clone()
                },
                "RENDER_ATTACHMENT",
            ),
            (
                TextureDescriptor {
                    usage: RT | TextureUsages::STORAGE_BINDING,
                    ..ok.clone()
                },
                "STORAGE_BINDING",
            ),
            (
                TextureDescriptor {
                    dimension: TextureDimension::D3,
                    ..ok.clone()
                },
                "3d",
            ),
        ] {
            let e = check(&bad).unwrap_err();
            assert!(e.rule.contains(needle), "{e} lacks {needle}");
        }
    }

    #[test]
    fn one_and_three_d_rules() {
        let d1 = desc(
            size(64, 1, 1),
            1,
            1,
            TextureDimension::D1,
            F::R8Unorm,
            TextureUsages::TEXTURE_BINDING,
        );
        assert!(check(&d1).is_ok());
        assert!(check(&TextureDescriptor {
            size: size(64, 2, 1),
            ..d1.clone()
        })
        .is_err());
        assert!(check(&TextureDescriptor {
            format: F::Depth32Float,
            ..d1.clone()
        })
        .is_err());
        let d3 = desc(
            size(8, 8, 8),
            4,
            1,
            TextureDimension::D3,
            F::Rgba8Unorm,
            TextureUsages::TEXTURE_BINDING,
        );
        assert!(check(&d3).is_ok());
        assert!(check(&TextureDescriptor {
            format: F::Depth24Plus,
            ..d3
        })
        .is_err());
    }

    #[test]
    fn view_formats_differ_only_in_srgb() {
        let base = desc(size(8, 8, 1), 1, 1, D2, F::Rgba8Unorm, RT);
        let srgb = [F::Rgba8UnormSrgb];
        assert!(check(&TextureDescriptor {
            view_formats: &srgb,
            ..base.clone()
        })
        .is_ok());
        let other = [F::Bgra8UnormSrgb];
        assert!(check(&TextureDescriptor {
            view_formats: &other,
            ..base.clone()
        })
        .unwrap_err()
        .rule
        .contains("-srgb"));
        let wide = [F::Rgba16Float];
        assert!(check(&TextureDescriptor {
            view_formats: &wide,
            ..base
        })
        .is_err());
    }

    #[test]
    fn transient_attachment_rule() {
        let t = TextureUsages::TRANSIENT_ATTACHMENT | RT;
        let ok = desc(size(64, 64, 1), 1, 4, D2, F::Depth24Plus, t);
        assert!(check(&ok).is_ok());
        let extra = TextureDescriptor {
            usage: t | TextureUsages::TEXTURE_BINDING,
            ..ok.clone()
        };
        assert!(check(&extra).unwrap_err().rule.contains("exactly"));
        let alone = TextureDescriptor {
            usage: TextureUsages::TRANSIENT_ATTACHMENT,
            ..ok.clone()
        };
        assert!(check(&alone).is_err());
        let mips = desc(size(64, 64, 1), 2, 1, D2, F::Rgba8Unorm, t);
        assert!(check(&mips).is_err());
    }

    #[test]
    fn zero_sizes_are_refused() {
        let z = desc(size(0, 8, 1), 1, 1, D2, F::Rgba8Unorm, RT);
        assert!(check(&z).unwrap_err().rule.contains("zero"));
    }
}
