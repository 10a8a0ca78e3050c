//! What the chain needs to know, typed: the options that shape the frame
//! or feed its uniforms, without the canvas- and page-level ones (those
//! are the output's and the web layer's business).

use crate::options::{BloomOptions, Msaa, OptionError, Options, Resolve, Tonemapper};

/// Settings of the HDR chain.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChainSettings {
    pub msaa: Msaa,
    pub resolve: Resolve,
    pub exposure: f64,
    pub tonemapper: Tonemapper,
    pub dither: bool,
    pub bloom: BloomOptions,
}

/// The part of the settings that decides which passes, targets and
/// pipelines a frame has. Two settings with the same shape share a frame:
/// changing anything else only rewrites uniforms. The tonemapper,
/// dithering and the bloom radius are part of it because pipelines are
/// specialised for them (override constants, not run-time branches); a
/// rebuild that keeps the size takes the old frame's textures over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameShape {
    pub samples: u32,
    pub resolve: Resolve,
    /// Blur, levels, iterations, and the radius (its bits: the upsample is
    /// specialised for radii up to 1).
    pub bloom: Option<(crate::options::BlurMode, u32, u32, u64)>,
    pub tonemapper: Tonemapper,
    pub dither: bool,
}

impl ChainSettings {
    /// Rules that involve more than one setting.
    pub fn validate(&self) -> Result<(), OptionError> {
        Options {
            msaa: self.msaa,
            resolve: self.resolve,
            ..Options::default()
        }
        .validate()
    }

    pub fn shape(&self) -> FrameShape {
        let b = &self.bloom;
        FrameShape {
            samples: self.msaa.sample_count(),
            resolve: self.resolve,
            bloom: b
                .enabled
                .then_some((b.blur, b.levels, b.iterations, b.radius.to_bits())),
            tonemapper: self.tonemapper,
            dither: self.dither,
        }
    }
}

impl Default for ChainSettings {
    fn default() -> Self {
        ChainSettings::from(&Options::default())
    }
}

impl From<&Options> for ChainSettings {
    fn from(o: &Options) -> Self {
        ChainSettings {
            msaa: o.msaa,
            resolve: o.resolve,
            exposure: o.exposure,
            tonemapper: o.tonemapper,
            dither: o.dither,
            bloom: o.bloom,
        }
    }
}

impl From<Options> for ChainSettings {
    fn from(o: Options) -> Self {
        ChainSettings::from(&o)
    }
}
