//! How the last pass writes into the output texture (the canvas, natively a
//! plain texture): which view format, who encodes sRGB, what alpha means.
//!
//! The fourth coherence: lighting stays linear and is encoded to sRGB exactly
//! once. Where the output format has an `-srgb` twin the pass renders through
//! that view and the hardware encodes; where it has none (`rgba16float`) the
//! shader encodes.

use crate::error::Error;
use crate::options::{extended_needs_rgba16float, AlphaMode, ColorSpace, ToneMapping};

/// How the display reads the output's values, beyond its primaries.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Transfer {
    /// sRGB-encoded (by an `-srgb` view or the shader); extended past 1 on
    /// an extended output, as the browser's extended canvas reads it.
    Srgb,
    /// Linear, 1 = SDR white (scRGB, wgpu's `ExtendedSrgbLinear`).
    Linear,
    /// BT.2100 PQ with BT.2020 primaries (HDR10): SDR white at this many
    /// cd/m².
    Pq { sdr_white_nits: f32 },
}

/// Everything the composite pass needs to know about its destination.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OutputSpec {
    /// Format of the output texture itself.
    pub format: wgpu::TextureFormat,
    /// Format of the view the composite pass renders through.
    pub view_format: wgpu::TextureFormat,
    pub alpha_mode: AlphaMode,
    pub tone_mapping: ToneMapping,
    /// The color space the output is read in; the composite converts to it.
    pub color_space: ColorSpace,
    /// Its transfer function (natively; a canvas is always `Srgb`).
    pub transfer: Transfer,
    /// Values above SDR white are kept whatever the tone mapping (an HDR
    /// colour space of a native surface).
    pub extended: bool,
    /// The output has `STORAGE_BINDING` and the composite may write it as
    /// compute ([`OutputSpec::written_by_compute`]).
    pub storage: bool,
}

impl OutputSpec {
    pub fn new(
        format: wgpu::TextureFormat,
        alpha_mode: AlphaMode,
        tone_mapping: ToneMapping,
        color_space: ColorSpace,
    ) -> Result<OutputSpec, Error> {
        use wgpu::TextureFormat as F;
        // rgb10a2unorm: natively, for a BT.2100 PQ surface.
        if !matches!(
            format,
            F::Rgba8Unorm | F::Bgra8Unorm | F::Rgba16Float | F::Rgb10a2Unorm
        ) {
            return Err(Error::Canvas(format!(
                "output format {} is not a canvas format; expected rgba8unorm, \
                 bgra8unorm or rgba16float",
                crate::formats::name(format)
            )));
        }
        if tone_mapping == ToneMapping::Extended
            && !matches!(format, F::Rgba16Float | F::Rgb10a2Unorm)
        {
            return Err(extended_needs_rgba16float().into());
        }
        Ok(OutputSpec {
            format,
            view_format: format.add_srgb_suffix(),
            alpha_mode,
            tone_mapping,
            color_space,
            transfer: Transfer::Srgb,
            extended: false,
            storage: false,
        })
    }

    /// The same output written as a storage texture where its format allows
    /// (`rgba8unorm`, `rgba16float`): the composite then runs as compute
    /// where its effects allow, and encodes sRGB itself (storage views
    /// cannot be `-srgb`). Other formats are left as they are.
    pub fn written_by_compute(mut self) -> OutputSpec {
        if crate::formats::is_storage(self.format) {
            self.storage = true;
            self.view_format = self.format;
        }
        self
    }

    /// Like [`OutputSpec::new`], rendering through `view_format`: the
    /// format's `-srgb` twin (the hardware encodes) or the format itself
    /// (the shader encodes).
    pub fn with_view(
        format: wgpu::TextureFormat,
        view_format: wgpu::TextureFormat,
        alpha_mode: AlphaMode,
        tone_mapping: ToneMapping,
        color_space: ColorSpace,
    ) -> Result<OutputSpec, Error> {
        let mut spec = OutputSpec::new(format, alpha_mode, tone_mapping, color_space)?;
        if view_format.remove_srgb_suffix() != format {
            return Err(Error::Canvas(format!(
                "view format {} is not a view of {}",
                crate::formats::name(view_format),
                crate::formats::name(format)
            )));
        }
        spec.view_format = view_format;
        Ok(spec)
    }

    /// The usage the composite needs of the output: `RENDER_ATTACHMENT`,
    /// and `STORAGE_BINDING` where it may write it as compute.
    pub fn usage(&self) -> wgpu::TextureUsages {
        if self.storage {
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::STORAGE_BINDING
        } else {
            wgpu::TextureUsages::RENDER_ATTACHMENT
        }
    }

    /// `true` when the view is `-srgb` and the hardware does the encoding.
    pub fn hardware_encodes(&self) -> bool {
        self.view_format != self.format
    }

    /// The `viewFormats` the output must be configured with: the `-srgb`
    /// twin where there is one, nothing otherwise.
    pub fn view_formats(&self) -> Vec<wgpu::TextureFormat> {
        if self.hardware_encodes() {
            vec![self.view_format]
        } else {
            Vec::new()
        }
    }

    /// Flag bits for the composite shader (written into its WGSL from
    /// [`FLAGS`]). Dithering applies to 8-bit outputs only (a float canvas has no
    /// visible quantization step).
    pub fn shader_flags(&self, dither: bool) -> u32 {
        let mut flags = 0;
        let eight_bit = self.format.remove_srgb_suffix() != wgpu::TextureFormat::Rgba16Float
            && self.format != wgpu::TextureFormat::Rgb10a2Unorm;
        if dither && eight_bit {
            flags |= FLAG_DITHER;
        }
        if !self.hardware_encodes() {
            flags |= FLAG_SHADER_ENCODES;
        }
        if self.alpha_mode == AlphaMode::Premultiplied {
            flags |= FLAG_PREMULTIPLIED;
        }
        if self.tone_mapping == ToneMapping::Extended || self.extended {
            flags |= FLAG_EXTENDED;
        }
        match self.transfer {
            Transfer::Srgb => {}
            Transfer::Linear => flags |= FLAG_LINEAR,
            Transfer::Pq { .. } => flags |= FLAG_PQ,
        }
        if self.color_space == ColorSpace::DisplayP3 {
            flags |= FLAG_DISPLAY_P3;
        }
        flags
    }
}

/// The shader writes sRGB-encoded values itself (no `-srgb` view).
pub const FLAG_SHADER_ENCODES: u32 = 1;
/// Output is premultiplied by alpha; otherwise alpha is written as 1.
pub const FLAG_PREMULTIPLIED: u32 = 2;
/// Values above 1 are kept (extended tone mapping); otherwise clamped.
pub const FLAG_EXTENDED: u32 = 4;
/// Noise of one 8-bit step is added before quantization.
pub const FLAG_DITHER: u32 = 8;
/// The canvas is read as Display P3: linear sRGB-primary colour is
/// converted to P3 primaries before encoding (same transfer function).
pub const FLAG_DISPLAY_P3: u32 = 16;

/// The HDR image maps 1:1 onto the output: loaded, not filtered.
pub const FLAG_ONE_TO_ONE: u32 = 32;
/// Linear output (scRGB): no transfer function.
pub const FLAG_LINEAR: u32 = 64;
/// BT.2100 PQ output: BT.2020 primaries, PQ of absolute luminance.
pub const FLAG_PQ: u32 = 128;
/// The HDR image is smaller than the output and scaled up by the
/// edge-adaptive filter (`upscale: 'edge'`), not bilinearly.
pub const FLAG_EDGE_UPSCALE: u32 = 256;

/// Every flag by its WGSL name, written into the shaders (`src/shaders.rs`).
pub const FLAGS: [(&str, u32); 9] = [
    ("FLAG_SHADER_ENCODES", FLAG_SHADER_ENCODES),
    ("FLAG_PREMULTIPLIED", FLAG_PREMULTIPLIED),
    ("FLAG_EXTENDED", FLAG_EXTENDED),
    ("FLAG_DITHER", FLAG_DITHER),
    ("FLAG_DISPLAY_P3", FLAG_DISPLAY_P3),
    ("FLAG_ONE_TO_ONE", FLAG_ONE_TO_ONE),
    ("FLAG_LINEAR", FLAG_LINEAR),
    ("FLAG_PQ", FLAG_PQ),
    ("FLAG_EDGE_UPSCALE", FLAG_EDGE_UPSCALE),
];

#[cfg(test)]
mod tests {
    use super::*;
    use wgpu::TextureFormat as F;

    #[test]
    fn eight_bit_formats_encode_in_hardware() {
        for (format, view) in [
            (F::Rgba8Unorm, F::Rgba8UnormSrgb),
            (F::Bgra8Unorm, F::Bgra8UnormSrgb),
        ] {
            let o = OutputSpec::new(
                format,
                AlphaMode::Opaque,
                ToneMapping::Standard,
                ColorSpace::Srgb,
            )
            .unwrap();
            assert_eq!(o.view_format, view);
            assert!(o.hardware_encodes());
            assert_eq!(o.view_formats(), vec![view]);
            assert_eq!(o.shader_flags(false) & FLAG_SHADER_ENCODES, 0);
            assert_eq!(o.shader_flags(true) & FLAG_DITHER, FLAG_DITHER);
        }
    }

    #[test]
    fn float_format_encodes_in_shader() {
        let o = OutputSpec::new(
            F::Rgba16Float,
            AlphaMode::Premultiplied,
            ToneMapping::Extended,
            ColorSpace::DisplayP3,
        )
        .unwrap();
        assert!(!o.hardware_encodes());
        assert!(o.view_formats().is_empty());
        assert_eq!(
            o.shader_flags(true),
            FLAG_SHADER_ENCODES | FLAG_PREMULTIPLIED | FLAG_EXTENDED | FLAG_DISPLAY_P3
        );
    }

    #[test]
    fn rejects_non_canvas_formats_and_extended_8bit() {
        assert!(OutputSpec::new(
            F::R8Unorm,
            AlphaMode::Opaque,
            ToneMapping::Standard,
            ColorSpace::Srgb
        )
        .is_err());
        assert!(OutputSpec::new(
            F::Rgba8Unorm,
            AlphaMode::Opaque,
            ToneMapping::Extended,
            ColorSpace::Srgb
        )
        .is_err());
    }
}
