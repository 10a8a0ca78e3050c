//! The typed options the chain and the web layer read. Their defaults,
//! ranges and cost are in the option table (`table.rs`), their JavaScript
//! spellings here; the documentation here says what each value means.

/// Format of the canvas texture (`configure({ format })`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CanvasFormat {
    /// `navigator.gpu.getPreferredCanvasFormat()`: `rgba8unorm` or
    /// `bgra8unorm` depending on the platform. Written through its `-srgb`
    /// view so the hardware encodes once.
    Preferred,
    /// 16-bit float canvas, for HDR displays; the shader encodes sRGB.
    Rgba16Float,
}

/// How the canvas is composited with the page (`configure({ alphaMode })`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlphaMode {
    /// Alpha is ignored; the canvas covers what is under it.
    Opaque,
    /// The canvas holds premultiplied color and blends over the page.
    Premultiplied,
}

/// How the compositor interprets the canvas values (`configure({ colorSpace })`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorSpace {
    Srgb,
    DisplayP3,
}

/// What happens to values above 1 (`configure({ toneMapping: { mode } })`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToneMapping {
    /// Values are clamped to [0, 1].
    Standard,
    /// Values above 1 reach HDR displays. Needs `format: 'rgba16float'`.
    Extended,
}

/// Who picks the canvas format and tone mapping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DynamicRange {
    /// The `format` and `toneMapping` options, as set.
    Standard,
    /// `rgba16float` with `extended` tone mapping while the display can
    /// show high dynamic range (`matchMedia('(dynamic-range: high)')`),
    /// the preferred 8-bit format with `standard` otherwise; follows the
    /// media query as it changes. `format` and `toneMapping` stay at their
    /// defaults.
    Auto,
}

/// The `canvas` group of options: everything that goes into `configure()`.
///
/// The JavaScript renderer configures its canvas from all of them. A
/// [`PostChain`](crate::PostChain) writes the program's own output and
/// reads only `alpha_mode`, `tone_mapping` and `headroom`; `format`,
/// `color_space`, `screenshots` and `dynamic_range` are the canvas
/// renderer's alone (each field says what the chain follows instead).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CanvasOptions {
    /// Canvas renderer only. A `PostChain` ignores it: its output format
    /// (given to `PostChain::new`, or `Output::format`) stands for it, and
    /// the options are checked as if this were `Rgba16Float` for an
    /// `Rgba16Float` or `Rgb10a2Unorm` output and `Preferred` otherwise.
    pub format: CanvasFormat,
    pub alpha_mode: AlphaMode,
    /// Canvas renderer only. A `PostChain` ignores it and writes in
    /// `Output::color_space`.
    pub color_space: ColorSpace,
    /// `'extended'` only with `format: 'rgba16float'`.
    pub tone_mapping: ToneMapping,
    /// `true` adds `COPY_SRC` to the canvas usage so frames can be read
    /// back; leave it off otherwise (it can cost compression). Canvas
    /// renderer only: a `PostChain` ignores it, the output texture's usage
    /// being the program's.
    pub screenshots: bool,
    /// `Auto` chooses `format` and `tone_mapping` from the display.
    /// Canvas renderer only: a `PostChain` checks the options as if it
    /// were `Standard`; the program picks the output and sets
    /// `tone_mapping` and `headroom` itself
    /// ([`display_headroom`](crate::display_headroom)).
    pub dynamic_range: DynamicRange,
    /// How many times SDR white the display shows at most, for the
    /// `Extended` path: the curves keep the SDR picture and roll the
    /// highlights off into `[1, headroom]`. 1 to 100, default 2; ignored
    /// with `Standard` tone mapping.
    pub headroom: f64,
}

/// Multisampling of the scene pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Msaa {
    /// No multisampling: the scene renders straight into the HDR target.
    Off,
    /// 4× multisampling (the only other count WebGPU allows).
    X4,
}

impl Msaa {
    pub fn sample_count(self) -> u32 {
        match self {
            Msaa::Off => 1,
            Msaa::X4 => 4,
        }
    }

    /// The sample count as JavaScript gives it (`1` or `4`).
    pub(crate) fn from_count(count: f64) -> Option<Msaa> {
        if count == 1.0 {
            Some(Msaa::Off)
        } else if count == 4.0 {
            Some(Msaa::X4)
        } else {
            None
        }
    }
}

/// How the multisampled scene is resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolve {
    /// The fixed-function resolve (`resolveTarget`): an average of linear
    /// HDR samples. Bright edges against dark ones can alias after tonemapping.
    Hardware,
    /// A resolve pass that tonemaps each sample before averaging and inverts
    /// after, so bright edges stay antialiased. Costs a stored MSAA target.
    Tonemapped,
}

/// The curve that maps HDR radiance to the display range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tonemapper {
    /// AgX (Troy Sobotka): filmic, desaturates highlights gracefully.
    Agx,
    /// The ACES RRT+ODT fit by Stephen Hill.
    Aces,
    /// Khronos PBR Neutral: keeps base colors up to 0.8 unchanged.
    KhronosNeutral,
    /// x / (1 + x) per channel.
    Reinhard,
    /// No curve: values are clamped (or passed through with extended tone mapping).
    None,
}

impl Tonemapper {
    /// Index used by composite.wgsl; keep in sync with its TONEMAP_* constants.
    pub(crate) fn shader_index(self) -> u32 {
        match self {
            Tonemapper::None => 0,
            Tonemapper::Agx => 1,
            Tonemapper::Aces => 2,
            Tonemapper::KhronosNeutral => 3,
            Tonemapper::Reinhard => 4,
        }
    }
}

/// How the bright extract is blurred.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlurMode {
    /// A downsample chain into the mips of one texture, then a tent-filtered
    /// additive upsample chain (Jimenez, Call of Duty: Advanced Warfare).
    Mip,
    /// Separable Gaussian passes ping-ponging between two targets of half
    /// the frame (up to 1080p; a whole fraction of it above).
    Gaussian,
}

/// The `bloom` group of options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BloomOptions {
    pub enabled: bool,
    /// Luminance above which light blooms, in scene units (after exposure).
    pub threshold: f64,
    /// Softness of the threshold, 0 (hard) to 1.
    pub knee: f64,
    /// How much of the blurred light is added back.
    pub intensity: f64,
    /// Spread of the blur, relative to the default. Independent of
    /// resolution and devicePixelRatio.
    pub radius: f64,
    /// Most mip levels the chain may use (a cost cap).
    pub levels: u32,
    pub blur: BlurMode,
    /// Gaussian mode: horizontal + vertical pass pairs.
    pub iterations: u32,
    /// How the blur joins the scene.
    pub mode: BloomMode,
    /// How much the lens dirt texture (`setLensDirt`,
    /// `PostChain::set_lens_dirt`) adds to the bloom where it is white:
    /// the bloom is multiplied by `1 + dirt_intensity × dirt`.
    pub dirt_intensity: f64,
}

/// How the bloom joins the scene.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BloomMode {
    /// The blur of the bright light is added: glow is extra light.
    Additive,
    /// Each pixel gives the light that blooms to its neighbours: the scene
    /// is mixed towards its blur (by `intensity`, at most 1), and the
    /// frame's total light stays the scene's own.
    EnergyConserving,
}

/// Anti-aliasing of the picture as displayed: on display values after the
/// curve, where edges are judged as the eye sees them, before the user's
/// `'display'` effects, the lookup table and grain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Antialias {
    /// The pixels as the scene drew them.
    None,
    /// FXAA 3.11 (its quality path, default preset 12): one pass that
    /// finds edges by luma contrast and blends along them.
    Fxaa,
    /// SMAA 1x: edges, blending weights (the area an antialiased line
    /// covers, read from a table computed once per device), and
    /// neighbourhood blending: three passes.
    Smaa,
}

/// How the composite scales the scene up to the output when `render_scale`
/// is below 1 (at 1 every output pixel is one scene texel, and neither
/// runs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Upscale {
    /// Each output pixel interpolated from the four texels around it: the
    /// cheapest; edges go soft and stepped.
    Bilinear,
    /// Edge-adaptive: the direction and strength of the edge through
    /// twelve texels around the pixel shape a filter stretched along the
    /// edge and narrow across it, whose result is clamped to the four
    /// nearest texels' range (no ringing).
    Edge,
}

/// What the frame shows, for seeing what the chain does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DebugView {
    /// The picture.
    None,
    /// The bloom alone, through the curve.
    Bloom,
    /// The picture with auto exposure's histogram over its lower part: the
    /// metered range in white, the metered average in orange.
    Exposure,
    /// Depth of field's signed circle of confusion, as display values:
    /// red for the near field (in front of the focus), blue for the far
    /// field, each `|CoC| / max_blur`; green where the CoC is under a
    /// pixel (the plane in focus). Needs depth (the picture otherwise).
    Coc,
}

/// Where auto exposure looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metering {
    /// Every pixel alike.
    Average,
    /// The centre of the frame weighs up to four times the corners.
    Center,
}

/// The `autoExposure` group: an exposure that adapts to the scene, metered
/// on the GPU (a log-luminance histogram between two percentiles, aimed at
/// mid grey). `exposure` still multiplies on top.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AutoExposureOptions {
    pub enabled: bool,
    /// The lowest and highest exposure it may choose, in EV (log2 of the
    /// multiplier).
    pub min_ev: f64,
    pub max_ev: f64,
    /// EV added to the metered exposure (positive: brighter).
    pub compensation: f64,
    /// How fast it brightens (the scene got darker) and darkens, in EV
    /// per second.
    pub speed_brighten: f64,
    pub speed_darken: f64,
    /// Where in the histogram the average starts and ends, as fractions of
    /// the pixels counted from the darkest (0.1 and 0.9: the darkest and
    /// the brightest tenth left out); `high_percentile` is above
    /// `low_percentile`.
    pub low_percentile: f64,
    pub high_percentile: f64,
    pub metering: Metering,
}

/// The `grading` group: colour grading in scene-linear light, before the
/// curve, so one grade serves the SDR and the HDR (headroom) output alike.
/// At their defaults the composite leaves it out entirely.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GradingOptions {
    /// White balance, -1 (cooler) to 1 (warmer): a chromatic adaptation
    /// (CAT02) from a white on the daylight locus to D65.
    pub temperature: f64,
    /// White balance, -1 (greener) to 1 (more magenta), across the locus.
    pub tint: f64,
    /// 0 (grey) to 2; 1 leaves colours as they are.
    pub saturation: f64,
    /// 0 to 2, around mid grey (0.18) in log space; 1 leaves it.
    pub contrast: f64,
    /// How much of the 3D lookup table (`setLut`, `PostChain::set_lut`)
    /// is mixed in, 0 to 1.
    pub lut_intensity: f64,
}

/// The `vignette` group: light darkened towards the corners, before the
/// curve, round on any aspect ratio.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VignetteOptions {
    /// How much of the light the corners lose, 0 (none: the default) to 1.
    pub intensity: f64,
    /// Where the darkening starts, as a fraction of the distance from the
    /// centre to a corner.
    pub radius: f64,
    /// Over how much of that distance it reaches full strength.
    pub smoothness: f64,
}

/// The `lens` group: what the camera's lens does to the light.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LensOptions {
    /// Lateral chromatic aberration: red and blue shifted radially by this
    /// many output pixels at the corners (0: none, the default).
    pub chromatic_aberration: f64,
}

/// The `depthOfField` group: a thin-lens camera's blur, from the depth
/// the caller gives with its scene (`setTexture`'s `depth`,
/// `PostChain::render_with_depth`). Lengths are in the camera's units,
/// those of its depth (metres for the defaults); without depth it does
/// nothing (`stats()` and `PostChain::depth_of_field` say so).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DepthOfFieldOptions {
    /// Off by default; on, it costs four half-resolution passes and one
    /// full-resolution pass, before the bloom.
    pub enabled: bool,
    /// Distance of the plane in focus, along the view direction.
    pub focus_distance: f64,
    /// The aperture as an f-number (focal length over aperture diameter):
    /// smaller is blurrier.
    pub f_stop: f64,
    /// Focal length of the lens (0.05: 50 mm in metres).
    pub focal_length: f64,
    /// Height of the sensor the image covers (0.024: full frame).
    pub sensor_height: f64,
    /// The largest circle of confusion, as a diameter in pixels of a
    /// 1080-pixel-high image (scaled with the image's height).
    pub max_blur: f64,
}

/// The `grain` group: film grain on the displayed picture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GrainOptions {
    /// 0 (none: the default) to 1.
    pub intensity: f64,
    /// Size of a grain in output pixels, 1 to 8.
    pub size: f64,
}

/// The `sharpen` group: contrast-adaptive sharpening of the displayed
/// picture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SharpenOptions {
    /// 0 (off: the default) to 1.
    pub amount: f64,
}

/// All renderer options. `Options::default()` takes every default from
/// the schema table.
///
/// They are the JavaScript renderer's options, so some fields only the
/// canvas renderer reads, and a [`PostChain`](crate::PostChain) ignores:
/// of `canvas`, `format`, `color_space`, `screenshots` and
/// `dynamic_range` (see [`CanvasOptions`]); and `msaa`, `resolve`,
/// `render_scale` and `auto_resize`, since the program renders the scene
/// itself, at the size it chooses. The chain follows its output format and
/// [`Output`](crate::Output) instead, and the sizes of the views handed
/// to `PostChain::render` (or `PostChain::resize`). They are still checked
/// by the table, with the rest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    pub canvas: CanvasOptions,
    /// Samples per pixel of the scene pass. Canvas renderer only: a
    /// `PostChain` reads the program's scene as it is.
    pub msaa: Msaa,
    /// Canvas renderer only, as `msaa`.
    pub resolve: Resolve,
    /// Multiplier applied to the scene before bloom and tonemapping.
    pub exposure: f64,
    pub tonemapper: Tonemapper,
    /// Adds sub-quantum noise before 8-bit output to break up banding.
    pub dither: bool,
    pub antialias: Antialias,
    pub bloom: BloomOptions,
    pub auto_exposure: AutoExposureOptions,
    pub grading: GradingOptions,
    pub vignette: VignetteOptions,
    pub lens: LensOptions,
    pub grain: GrainOptions,
    pub sharpen: SharpenOptions,
    pub depth_of_field: DepthOfFieldOptions,
    /// Size of the offscreen targets relative to the canvas; the composite
    /// pass rescales. Canvas renderer only: a `PostChain` reads the
    /// program's scene at the size it was rendered.
    pub render_scale: f64,
    /// How the scene is scaled up where `render_scale` is below 1. Canvas
    /// renderer only, as `render_scale`.
    pub upscale: Upscale,
    /// Keep the canvas at its displayed size in device pixels
    /// (ResizeObserver on `device-pixel-content-box`). Canvas renderer
    /// only: a `PostChain` follows its output view's size.
    pub auto_resize: bool,
    /// What the frame shows (`None`: the picture).
    pub debug: DebugView,
}

impl Options {
    /// The options the GPU work follows on a display that can (`hdr`) or
    /// cannot show high dynamic range: with `dynamicRange: 'auto'` and an
    /// HDR display, an `rgba16float` canvas with `extended` tone mapping;
    /// otherwise the options as they are.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))] // the web renderer's
    pub(crate) fn for_display(self, hdr: bool) -> Options {
        let mut out = self;
        if self.canvas.dynamic_range == DynamicRange::Auto && hdr {
            out.canvas.format = CanvasFormat::Rgba16Float;
            out.canvas.tone_mapping = ToneMapping::Extended;
        }
        out
    }
}

/// Options for exact image tests (the test suites' starting point;
/// not part of the API): the defaults, except no MSAA, no
/// dither, no bloom and no curve (a unit test keeps it so).
pub(crate) const PREDICTABLE: Options = Options {
    canvas: CanvasOptions {
        format: CanvasFormat::Preferred,
        alpha_mode: AlphaMode::Opaque,
        color_space: ColorSpace::Srgb,
        tone_mapping: ToneMapping::Standard,
        screenshots: false,
        dynamic_range: DynamicRange::Standard,
        headroom: 2.0,
    },
    msaa: Msaa::Off,
    resolve: Resolve::Hardware,
    exposure: 1.0,
    tonemapper: Tonemapper::None,
    dither: false,
    antialias: Antialias::None,
    bloom: BloomOptions {
        enabled: false,
        threshold: 1.0,
        knee: 0.5,
        intensity: 1.6,
        radius: 1.0,
        levels: 7,
        blur: BlurMode::Mip,
        iterations: 3,
        mode: BloomMode::Additive,
        dirt_intensity: 1.0,
    },
    auto_exposure: AutoExposureOptions {
        enabled: false,
        min_ev: -10.0,
        max_ev: 10.0,
        compensation: 0.0,
        speed_brighten: 3.0,
        speed_darken: 1.0,
        low_percentile: 0.1,
        high_percentile: 0.9,
        metering: Metering::Average,
    },
    grading: GradingOptions {
        temperature: 0.0,
        tint: 0.0,
        saturation: 1.0,
        contrast: 1.0,
        lut_intensity: 1.0,
    },
    vignette: VignetteOptions {
        intensity: 0.0,
        radius: 0.5,
        smoothness: 0.5,
    },
    lens: LensOptions {
        chromatic_aberration: 0.0,
    },
    grain: GrainOptions {
        intensity: 0.0,
        size: 1.0,
    },
    sharpen: SharpenOptions { amount: 0.0 },
    depth_of_field: DepthOfFieldOptions {
        enabled: false,
        focus_distance: 10.0,
        f_stop: 2.8,
        focal_length: 0.05,
        sensor_height: 0.024,
        max_blur: 16.0,
    },
    render_scale: 1.0,
    upscale: Upscale::Bilinear,
    auto_resize: false,
    debug: DebugView::None,
};

/// Implements `NAMES`, `as_str` and `from_name` for an option enum from
/// its JS spellings.
macro_rules! names {
    ($($t:ident { $($v:ident => $s:literal),+ $(,)? })+) => {
        $(
            impl $t {
                /// Every spelling in JS, in the order the docs list them.
                pub const NAMES: &'static [&'static str] = &[$($s),+];

                /// The option's spelling in JS.
                pub fn as_str(self) -> &'static str {
                    match self {
                        $($t::$v => $s),+
                    }
                }

                /// The value spelled `name` in JS.
                pub(crate) fn from_name(name: &str) -> Option<Self> {
                    match name {
                        $($s => Some($t::$v),)+
                        _ => None,
                    }
                }
            }
        )+
    };
}

names! {
    CanvasFormat { Preferred => "preferred", Rgba16Float => "rgba16float" }
    AlphaMode { Opaque => "opaque", Premultiplied => "premultiplied" }
    ColorSpace { Srgb => "srgb", DisplayP3 => "display-p3" }
    ToneMapping { Standard => "standard", Extended => "extended" }
    Metering { Average => "average", Center => "center" }
    Antialias { None => "none", Fxaa => "fxaa", Smaa => "smaa" }
    Upscale { Bilinear => "bilinear", Edge => "edge" }
    DebugView { None => "none", Bloom => "bloom", Exposure => "exposure", Coc => "coc" }
    DynamicRange { Standard => "standard", Auto => "auto" }
    Resolve { Hardware => "hardware", Tonemapped => "tonemapped" }
    Tonemapper { Agx => "agx", Aces => "aces", KhronosNeutral => "khronos-neutral", Reinhard => "reinhard", None => "none" }
    BlurMode { Mip => "mip", Gaussian => "gaussian" }
    BloomMode { Additive => "additive", EnergyConserving => "energy-conserving" }
}
