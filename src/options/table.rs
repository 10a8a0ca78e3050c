//! The option schema: one table with every option's path, the values it
//! takes, its default, a line of documentation and what changing it costs.
//! Parsing, `options()`, the errors for unknown keys, `Options::default()`
//! and [`reshapes`] are derived from it; tests hold the options guide, the
//! TypeScript declarations and the demo's panel to it.

use super::schema::{Access, Effect, GroupSpec, Kind, Literal, OptionSpec};
use super::types::{
    AlphaMode, Antialias, AutoExposureOptions, BloomMode, BloomOptions, BlurMode, CanvasFormat,
    CanvasOptions, ColorSpace, DebugView, DepthOfFieldOptions, DynamicRange, GradingOptions,
    GrainOptions, LensOptions, Metering, Msaa, Options, Resolve, SharpenOptions, ToneMapping,
    Tonemapper, Upscale, VignetteOptions,
};

use super::schema::{choice, doc_line, flag, number, whole};

/// `Default` for the parts of [`Options`]: their value in
/// `Options::default()`, so the table stays the one place for defaults.
macro_rules! default_from_table {
    ($($t:ty => $($f:ident).+;)+) => {
        $(
            impl Default for $t {
                fn default() -> Self {
                    Options::default().$($f).+
                }
            }
        )+
    };
}

/// [`GROUPS`] from the top level's interface and each group's path,
/// struct, field and documentation, and `Default` for each struct.
macro_rules! groups {
    (
        $top:ident: $top_doc:literal;
        $($path:literal $t:ident = $($f:ident).+: $doc:literal;)+
    ) => {
        static GROUPS: &[GroupSpec] = &[
            GroupSpec {
                path: "",
                interface: stringify!($top),
                doc: doc_line!($top_doc),
            },
            $(GroupSpec {
                path: $path,
                interface: stringify!($t),
                doc: doc_line!($doc),
            },)+
        ];
        default_from_table! { $($t => $($f).+;)+ }
    };
}

/// Every option, in the order the docs list them: the frame's own, then
/// the built-in effects' (in the order of `crate::effects`), then the
/// page's. The effects read their options; the table knows no effect.
pub fn schema() -> &'static [OptionSpec] {
    ALL
}

/// The objects of options, in the order of their first option in the
/// table: the top level, then each group with its struct in [`Options`]
/// and the field that holds it (whose `Default` is its part of
/// `Options::default()`). The TypeScript declarations are written from
/// these and the table.
#[cfg_attr(not(test), allow(dead_code))]
pub fn groups() -> &'static [GroupSpec] {
    GROUPS
}

groups! {
    RendererOptions: "Options of `Renderer.create` and `setOptions`. Every field is optional.";
    "canvas" CanvasOptions = canvas:
        "Options of the canvas context, applied with `configure()`.";
    "bloom" BloomOptions = bloom:
        "Bloom: bright extract, blur, added back in the composite pass.";
    "autoExposure" AutoExposureOptions = auto_exposure:
        "Auto exposure: the exposure adapts to the scene, metered on the GPU (a histogram of \
         log luminance averaged between two percentiles, aimed at mid grey).";
    "depthOfField" DepthOfFieldOptions = depth_of_field:
        "Depth of field: a thin lens's blur, from `setTexture`'s `depth`. Lengths in the camera's units.";
    "lens" LensOptions = lens:
        "The camera's lens.";
    "vignette" VignetteOptions = vignette:
        "Vignette: light darkened towards the corners, before the curve.";
    "grading" GradingOptions = grading:
        "Colour grading in scene-linear light, before the curve: one grade serves the SDR and \
         the HDR (headroom) output alike. At the defaults the composite leaves it out.";
    "grain" GrainOptions = grain:
        "Film grain on the displayed picture.";
    "sharpen" SharpenOptions = sharpen:
        "Contrast-adaptive sharpening of the displayed picture, limited by each pixel's \
         neighbourhood so flat areas and already-sharp edges are left alone.";
}

// `Default` for the options' enums: their option's default.
default_from_table! {
    CanvasFormat => canvas.format;
    AlphaMode => canvas.alpha_mode;
    ColorSpace => canvas.color_space;
    ToneMapping => canvas.tone_mapping;
    DynamicRange => canvas.dynamic_range;
    Msaa => msaa;
    Resolve => resolve;
    Tonemapper => tonemapper;
    BlurMode => bloom.blur;
    BloomMode => bloom.mode;
    Metering => auto_exposure.metering;
    DebugView => debug;
    Antialias => antialias;
    Upscale => upscale;
}

impl Default for Options {
    /// Every option at the default the table gives it.
    fn default() -> Self {
        let mut o = super::types::PREDICTABLE;
        for s in schema() {
            (s.access.set)(&mut o, s.default);
        }
        o
    }
}

/// 0 to 1 (the vignette).
const FRACTION: Kind = Kind::Number {
    min: 0.0,
    max: 1.0,
    above_min: false,
};

/// -1 to 1 (the white balance) and 0 to 2 (saturation, contrast).
const SIGNED: Kind = Kind::Number {
    min: -1.0,
    max: 1.0,
    above_min: false,
};

const UP_TO_TWO: Kind = Kind::Number {
    min: 0.0,
    max: 2.0,
    above_min: false,
};

static ALL: &[OptionSpec] = &[
    // The frame's own options.
    OptionSpec {
        path: "canvas.format",
        kind: Kind::Choice(CanvasFormat::NAMES),
        default: Literal::Str("preferred"),
        effect: Effect::Canvas,
        doc: doc_line!(
            "Canvas texture format. `'preferred'` is `navigator.gpu.getPreferredCanvasFormat()`; \
              `'rgba16float'` is for HDR displays."
        ),
        access: choice!(CanvasFormat, canvas.format),
    },
    OptionSpec {
        path: "canvas.alphaMode",
        kind: Kind::Choice(AlphaMode::NAMES),
        default: Literal::Str("opaque"),
        effect: Effect::Canvas,
        doc: doc_line!("`'opaque'` shows the canvas as a solid picture; `'premultiplied'` blends it over the page by its alpha."),
        access: choice!(AlphaMode, canvas.alpha_mode),
    },
    OptionSpec {
        path: "canvas.colorSpace",
        kind: Kind::Choice(ColorSpace::NAMES),
        default: Literal::Str("srgb"),
        effect: Effect::Canvas,
        doc: doc_line!("Color space the compositor reads the canvas in; a browser whose canvas keeps no 'display-p3' (Firefox) refuses it with a CanvasError."),
        access: choice!(ColorSpace, canvas.color_space),
    },
    OptionSpec {
        path: "canvas.toneMapping",
        kind: Kind::Choice(ToneMapping::NAMES),
        default: Literal::Str("standard"),
        effect: Effect::Canvas,
        doc: doc_line!(
            "`'extended'` lets values above 1 reach HDR displays; needs `format: 'rgba16float'`."
        ),
        access: choice!(ToneMapping, canvas.tone_mapping),
    },
    OptionSpec {
        path: "canvas.dynamicRange",
        kind: Kind::Choice(DynamicRange::NAMES),
        default: Literal::Str("standard"),
        effect: Effect::Canvas,
        doc: doc_line!(
            "`'auto'` picks `'rgba16float'` with `'extended'` tone mapping while \
              `matchMedia('(dynamic-range: high)')` matches, the 8-bit path otherwise, and \
              follows changes; `format` and `toneMapping` then stay at their defaults. \
              `'standard'`: `format` and `toneMapping` as set."
        ),
        access: choice!(DynamicRange, canvas.dynamic_range),
    },
    OptionSpec {
        path: "canvas.headroom",
        kind: Kind::Number {
            min: 1.0,
            max: 100.0,
            above_min: false,
        },
        default: Literal::Num(2.0),
        effect: Effect::Uniforms,
        doc: doc_line!(
            "How many times SDR white the display can show, for `'extended'` tone mapping: \
              the curve keeps the SDR picture and rolls highlights off up to this. \
              Ignored with `'standard'`."
        ),
        access: number!(canvas.headroom),
    },
    OptionSpec {
        path: "canvas.screenshots",
        kind: Kind::Bool,
        default: Literal::Bool(false),
        effect: Effect::Canvas,
        doc: doc_line!(
            "Adds `COPY_SRC` to the canvas usage so frames can be read back (`screenshot()`)."
        ),
        access: flag!(canvas.screenshots),
    },
    OptionSpec {
        path: "msaa",
        kind: Kind::Count {
            values: &[1, 4],
            why: "WebGPU allows no other sample count",
        },
        default: Literal::Num(4.0),
        effect: Effect::Rebuild,
        doc: doc_line!("Samples per pixel of the scene: 4 smooths the edges of geometry, 1 renders faster."),
        access: Access {
            get: |o| Literal::Num(o.msaa.sample_count() as f64),
            set: |o, v| {
                if let Some(m) = Msaa::from_count(v.num()) {
                    o.msaa = m;
                }
            },
        },
    },
    OptionSpec {
        path: "resolve",
        kind: Kind::Choice(Resolve::NAMES),
        default: Literal::Str("hardware"),
        effect: Effect::Rebuild,
        doc: doc_line!(
            "`'tonemapped'` is a resolve pass that tonemaps each sample before averaging, so \
              bright edges stay antialiased (needs msaa 4; keeps the multisampled color in memory)."
        ),
        access: choice!(Resolve, resolve),
    },
    OptionSpec {
        path: "exposure",
        kind: Kind::Number {
            min: 0.0,
            max: 1.0e4,
            above_min: true,
        },
        default: Literal::Num(1.0),
        effect: Effect::Uniforms,
        doc: doc_line!("Multiplier on the scene radiance."),
        access: number!(exposure),
    },
    OptionSpec {
        path: "tonemapper",
        kind: Kind::Choice(Tonemapper::NAMES),
        default: Literal::Str("agx"),
        effect: Effect::Rebuild,
        doc: doc_line!("The curve from HDR to the display range."),
        access: choice!(Tonemapper, tonemapper),
    },
    OptionSpec {
        path: "dither",
        kind: Kind::Bool,
        default: Literal::Bool(true),
        effect: Effect::Rebuild,
        doc: doc_line!("Noise of one 8-bit step against banding (8-bit canvases)."),
        access: flag!(dither),
    },
    OptionSpec {
        path: "antialias",
        kind: Kind::Choice(Antialias::NAMES),
        default: Literal::Str("none"),
        effect: Effect::Rebuild,
        doc: doc_line!(
            "Anti-aliasing of the displayed picture, after the curve: `'fxaa'` one pass, the \
              cheapest; `'smaa'` three passes, sharper. For edges a scene shader, an image or a \
              texture drew without MSAA."
        ),
        access: choice!(Antialias, antialias),
    },
    OptionSpec {
        path: "bloom.enabled",
        kind: Kind::Bool,
        default: Literal::Bool(true),
        effect: Effect::Rebuild,
        doc: doc_line!("Whether light above the threshold glows; off, no bloom pass runs."),
        access: flag!(bloom.enabled),
    },
    OptionSpec {
        path: "bloom.threshold",
        kind: Kind::Number {
            min: 0.0,
            max: 1.0e4,
            above_min: false,
        },
        default: Literal::Num(1.0),
        effect: Effect::Uniforms,
        doc: doc_line!("Brightness (after exposure) above which light blooms."),
        access: number!(bloom.threshold),
    },
    OptionSpec {
        path: "bloom.knee",
        kind: Kind::Number {
            min: 0.0,
            max: 1.0,
            above_min: false,
        },
        default: Literal::Num(0.5),
        effect: Effect::Uniforms,
        doc: doc_line!("Softness of the threshold, 0 (hard) to 1."),
        access: number!(bloom.knee),
    },
    OptionSpec {
        path: "bloom.intensity",
        kind: Kind::Number {
            min: 0.0,
            max: 100.0,
            above_min: false,
        },
        default: Literal::Num(1.6),
        effect: Effect::Uniforms,
        doc: doc_line!("How much blurred light is added back."),
        access: number!(bloom.intensity),
    },
    OptionSpec {
        path: "bloom.radius",
        kind: Kind::Number {
            min: 0.1,
            max: 4.0,
            above_min: false,
        },
        default: Literal::Num(1.0),
        effect: Effect::Rebuild,
        doc: doc_line!(
            "Spread of the blur relative to the default; independent of resolution and \
              devicePixelRatio."
        ),
        access: number!(bloom.radius),
    },
    OptionSpec {
        path: "bloom.levels",
        kind: Kind::Integer { min: 1, max: 12 },
        default: Literal::Num(7.0),
        effect: Effect::Rebuild,
        doc: doc_line!("Most mip levels of the chain (a cost cap)."),
        access: whole!(bloom.levels),
    },
    OptionSpec {
        path: "bloom.blur",
        kind: Kind::Choice(BlurMode::NAMES),
        default: Literal::Str("mip"),
        effect: Effect::Rebuild,
        doc: doc_line!("`'mip'` (downsample/upsample chain) or `'gaussian'` (separable ping-pong)."),
        access: choice!(BlurMode, bloom.blur),
    },
    OptionSpec {
        path: "bloom.iterations",
        kind: Kind::Integer { min: 1, max: 16 },
        default: Literal::Num(3.0),
        effect: Effect::Rebuild,
        doc: doc_line!("Gaussian mode: horizontal + vertical pass pairs."),
        access: whole!(bloom.iterations),
    },
    OptionSpec {
        path: "bloom.mode",
        kind: Kind::Choice(BloomMode::NAMES),
        default: Literal::Str("additive"),
        effect: Effect::Rebuild,
        doc: doc_line!(
            "`'additive'` adds the blur of the bright light; `'energy-conserving'` moves that light \
              to its neighbours (mixing by `intensity`, at most 1), keeping the frame's total."
        ),
        access: choice!(BloomMode, bloom.mode),
    },
    OptionSpec {
        path: "autoExposure.enabled",
        kind: Kind::Bool,
        default: Literal::Bool(false),
        effect: Effect::Rebuild,
        doc: doc_line!(
            "Adapts the exposure to the scene, metered on the GPU; `exposure` multiplies on top."
        ),
        access: flag!(auto_exposure.enabled),
    },
    OptionSpec {
        path: "autoExposure.minEv",
        kind: Kind::Number {
            min: -20.0,
            max: 0.0,
            above_min: false,
        },
        default: Literal::Num(-10.0),
        effect: Effect::Uniforms,
        doc: doc_line!("The lowest exposure it may choose, in EV (log2 of the multiplier)."),
        access: number!(auto_exposure.min_ev),
    },
    OptionSpec {
        path: "autoExposure.maxEv",
        kind: Kind::Number {
            min: 0.0,
            max: 20.0,
            above_min: false,
        },
        default: Literal::Num(10.0),
        effect: Effect::Uniforms,
        doc: doc_line!("The highest exposure it may choose, in EV."),
        access: number!(auto_exposure.max_ev),
    },
    OptionSpec {
        path: "autoExposure.compensation",
        kind: Kind::Number {
            min: -10.0,
            max: 10.0,
            above_min: false,
        },
        default: Literal::Num(0.0),
        effect: Effect::Uniforms,
        doc: doc_line!("EV added to the metered exposure; positive is brighter."),
        access: number!(auto_exposure.compensation),
    },
    OptionSpec {
        path: "autoExposure.speedBrighten",
        kind: Kind::Number {
            min: 0.0,
            max: 100.0,
            above_min: true,
        },
        default: Literal::Num(3.0),
        effect: Effect::Uniforms,
        doc: doc_line!("How fast it brightens when the scene darkens, in EV per second."),
        access: number!(auto_exposure.speed_brighten),
    },
    OptionSpec {
        path: "autoExposure.speedDarken",
        kind: Kind::Number {
            min: 0.0,
            max: 100.0,
            above_min: true,
        },
        default: Literal::Num(1.0),
        effect: Effect::Uniforms,
        doc: doc_line!("How fast it darkens when the scene brightens, in EV per second."),
        access: number!(auto_exposure.speed_darken),
    },
    OptionSpec {
        path: "autoExposure.lowPercentile",
        kind: Kind::Number {
            min: 0.0,
            max: 1.0,
            above_min: false,
        },
        default: Literal::Num(0.1),
        effect: Effect::Uniforms,
        doc: doc_line!(
            "Where in the histogram the average starts, as a fraction of the pixels from \
             the darkest: 0.1 leaves out the darkest tenth."
        ),
        access: number!(auto_exposure.low_percentile),
    },
    OptionSpec {
        path: "autoExposure.highPercentile",
        kind: Kind::Number {
            min: 0.0,
            max: 1.0,
            above_min: false,
        },
        default: Literal::Num(0.9),
        effect: Effect::Uniforms,
        doc: doc_line!(
            "Where in the histogram the average ends, as a fraction of the pixels from the \
             darkest: 0.9 leaves out the brightest tenth (small lights). Above lowPercentile."
        ),
        access: number!(auto_exposure.high_percentile),
    },
    OptionSpec {
        path: "autoExposure.metering",
        kind: Kind::Choice(Metering::NAMES),
        default: Literal::Str("average"),
        effect: Effect::Uniforms,
        doc: doc_line!(
            "`'average'` weighs every pixel alike; `'center'` weighs the centre up to four times the corners."
        ),
        access: choice!(Metering, auto_exposure.metering),
    },
    // Depth of field (`crate::passes::depth_of_field`).
    OptionSpec {
        path: "depthOfField.enabled",
        kind: Kind::Bool,
        default: Literal::Bool(false),
        effect: Effect::Rebuild,
        doc: doc_line!("Blurs what is out of focus, from the scene's depth."),
        access: flag!(depth_of_field.enabled),
    },
    OptionSpec {
        path: "depthOfField.focusDistance",
        kind: Kind::Number {
            min: 0.0,
            max: 1.0e9,
            above_min: true,
        },
        default: Literal::Num(10.0),
        effect: Effect::Uniforms,
        doc: doc_line!("Distance in focus, along the view; beyond focalLength."),
        access: number!(depth_of_field.focus_distance),
    },
    OptionSpec {
        path: "depthOfField.fStop",
        kind: Kind::Number {
            min: 0.5,
            max: 128.0,
            above_min: false,
        },
        default: Literal::Num(2.8),
        effect: Effect::Uniforms,
        doc: doc_line!("The aperture as an f-number: smaller blurs more."),
        access: number!(depth_of_field.f_stop),
    },
    OptionSpec {
        path: "depthOfField.focalLength",
        kind: Kind::Number {
            min: 0.0,
            max: 1.0e3,
            above_min: true,
        },
        default: Literal::Num(0.05),
        effect: Effect::Uniforms,
        doc: doc_line!("Focal length (0.05: 50 mm)."),
        access: number!(depth_of_field.focal_length),
    },
    OptionSpec {
        path: "depthOfField.sensorHeight",
        kind: Kind::Number {
            min: 0.0,
            max: 1.0e3,
            above_min: true,
        },
        default: Literal::Num(0.024),
        effect: Effect::Uniforms,
        doc: doc_line!("Sensor height (0.024: full frame)."),
        access: number!(depth_of_field.sensor_height),
    },
    OptionSpec {
        path: "depthOfField.maxBlur",
        kind: Kind::Number {
            min: 0.0,
            max: 128.0,
            above_min: false,
        },
        default: Literal::Num(16.0),
        effect: Effect::Rebuild,
        doc: doc_line!("Largest blur: a diameter in pixels at 1080p, scaled with the height."),
        access: number!(depth_of_field.max_blur),
    },
    // The built-in effects' options (`crate::effects`), in the order the
    // effects run within their place.
    // Lens dirt (`crate::effects::lens_dirt`).
    OptionSpec {
        path: "bloom.dirtIntensity",
        kind: Kind::Number {
            min: 0.0,
            max: 16.0,
            above_min: false,
        },
        default: Literal::Num(1.0),
        effect: Effect::Rebuild,
        doc: doc_line!(
            "How much the lens dirt texture (`setLensDirt`) adds to the bloom where it is white: \
              the bloom is multiplied by 1 + dirtIntensity × dirt. No dirt texture, or 0: no cost."
        ),
        access: number!(bloom.dirt_intensity),
    },
    // Chromatic aberration (`crate::effects::chromatic_aberration`).
    OptionSpec {
        path: "lens.chromaticAberration",
        kind: Kind::Number {
            min: 0.0,
            max: 64.0,
            above_min: false,
        },
        default: Literal::Num(0.0),
        effect: Effect::Rebuild,
        doc: doc_line!(
            "Lens fringing, in output pixels at the corners: red is shifted outwards and blue \
              inwards by this much there, less towards the centre. 0: none, and no cost."
        ),
        access: number!(lens.chromatic_aberration),
    },
    // The vignette (`crate::effects::vignette`).
    OptionSpec {
        path: "vignette.intensity",
        kind: FRACTION,
        default: Literal::Num(0.0),
        effect: Effect::Rebuild,
        doc: doc_line!(
            "How much light the corners lose, before the curve (0: no vignette). Round on any \
              aspect ratio."
        ),
        access: number!(vignette.intensity),
    },
    OptionSpec {
        path: "vignette.radius",
        kind: FRACTION,
        default: Literal::Num(0.5),
        effect: Effect::Uniforms,
        doc: doc_line!("Where the darkening starts, as a fraction of the distance from the centre to a corner."),
        access: number!(vignette.radius),
    },
    OptionSpec {
        path: "vignette.smoothness",
        kind: FRACTION,
        default: Literal::Num(0.5),
        effect: Effect::Uniforms,
        doc: doc_line!("Over how much of that distance the darkening reaches its full strength."),
        access: number!(vignette.smoothness),
    },
    // Grading (`crate::effects::grading`).
    OptionSpec {
        path: "grading.temperature",
        kind: SIGNED,
        default: Literal::Num(0.0),
        effect: Effect::Rebuild,
        doc: doc_line!(
            "White balance before the curve, -1 (cooler) to 1 (warmer): a chromatic adaptation \
              (CAT02) to D65 from a white on the daylight locus between about 4 300 K and 9 800 K."
        ),
        access: number!(grading.temperature),
    },
    OptionSpec {
        path: "grading.tint",
        kind: SIGNED,
        default: Literal::Num(0.0),
        effect: Effect::Rebuild,
        doc: doc_line!("White balance across the daylight locus, -1 (greener) to 1 (more magenta)."),
        access: number!(grading.tint),
    },
    OptionSpec {
        path: "grading.saturation",
        kind: UP_TO_TWO,
        default: Literal::Num(1.0),
        effect: Effect::Rebuild,
        doc: doc_line!("Saturation in scene-linear light: 0 is grey, 1 leaves colours, 2 doubles their distance from grey."),
        access: number!(grading.saturation),
    },
    OptionSpec {
        path: "grading.contrast",
        kind: UP_TO_TWO,
        default: Literal::Num(1.0),
        effect: Effect::Rebuild,
        doc: doc_line!(
            "Contrast of luminance in log space around mid grey (0.18), which stays where it is; \
              hue and saturation are kept."
        ),
        access: number!(grading.contrast),
    },
    // The lookup table's mix (`crate::effects::lookup_table`).
    OptionSpec {
        path: "grading.lutIntensity",
        kind: Kind::Number {
            min: 0.0,
            max: 1.0,
            above_min: false,
        },
        default: Literal::Num(1.0),
        effect: Effect::Rebuild,
        doc: doc_line!(
            "How much of the 3D lookup table (`setLut`) is mixed in, after the curve in display \
              space. No table, or 0: no cost."
        ),
        access: number!(grading.lut_intensity),
    },
    // Film grain (`crate::effects::film_grain`).
    OptionSpec {
        path: "grain.intensity",
        kind: Kind::Number {
            min: 0.0,
            max: 1.0,
            above_min: false,
        },
        default: Literal::Num(0.0),
        effect: Effect::Rebuild,
        doc: doc_line!(
            "Film grain, animated by time and strongest in the mid-tones: at 1 a mid grey moves \
              by up to ±0.2 of the encoded range. 0: none, and no cost."
        ),
        access: number!(grain.intensity),
    },
    OptionSpec {
        path: "grain.size",
        kind: Kind::Number {
            min: 1.0,
            max: 8.0,
            above_min: false,
        },
        default: Literal::Num(1.0),
        effect: Effect::Uniforms,
        doc: doc_line!("Size of a grain in output pixels: 1 is a grain per pixel at any resolution."),
        access: number!(grain.size),
    },
    OptionSpec {
        path: "sharpen.amount",
        kind: FRACTION,
        default: Literal::Num(0.0),
        effect: Effect::Rebuild,
        doc: doc_line!(
            "How much to sharpen, 0 (off) to 1, on display values after the curve and \
              anti-aliasing. Counters the softness of a low `renderScale` and of FXAA."
        ),
        access: number!(sharpen.amount),
    },
    // The page's options: the canvas's size and what the frame shows.
    OptionSpec {
        path: "renderScale",
        kind: Kind::Number {
            min: 0.25,
            max: 2.0,
            above_min: false,
        },
        default: Literal::Num(1.0),
        effect: Effect::Resize,
        doc: doc_line!("Size of the offscreen targets relative to the canvas."),
        access: number!(render_scale),
    },
    OptionSpec {
        path: "upscale",
        kind: Kind::Choice(Upscale::NAMES),
        default: Literal::Str("bilinear"),
        effect: Effect::Rebuild,
        doc: doc_line!(
            "How the scene is scaled up to the canvas where `renderScale` is below 1: \
              `'bilinear'` the cheapest; `'edge'` edge-adaptive, sharp edges without ringing."
        ),
        access: choice!(Upscale, upscale),
    },
    OptionSpec {
        path: "autoResize",
        kind: Kind::Bool,
        default: Literal::Bool(false),
        effect: Effect::Observer,
        doc: doc_line!(
            "Keep the canvas at its displayed size in device pixels (an `HTMLCanvasElement` \
              in the page)."
        ),
        access: flag!(auto_resize),
    },
    OptionSpec {
        path: "debug",
        kind: Kind::Choice(DebugView::NAMES),
        default: Literal::Str("none"),
        effect: Effect::Rebuild,
        doc: doc_line!(
            "What the frame shows: `'bloom'` the bloom alone; `'exposure'` auto exposure's histogram \
              over the lower part, the metered range in white, its average in orange; `'coc'` depth \
              of field's circle of confusion (near red, far blue, in focus green)."
        ),
        access: choice!(DebugView, debug),
    },
];

/// The option at `path`.
pub fn spec(path: &str) -> Option<&'static OptionSpec> {
    schema().iter().find(|s| s.path == path)
}

/// The keys of the options object at `group` (`""` for the top level):
/// its options and its sub-groups, in table order.
pub fn keys_of(group: &str) -> Vec<&'static str> {
    let mut keys: Vec<&'static str> = Vec::new();
    for s in schema() {
        let rest = if group.is_empty() {
            Some(s.path)
        } else {
            s.path.strip_prefix(group).and_then(|r| r.strip_prefix('.'))
        };
        if let Some(key) = rest.and_then(|r| super::schema::path_keys(r).next()) {
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
    }
    keys
}

/// `true` when going from `a` to `b` reshapes the frame (targets,
/// pipelines, bind groups); otherwise uniforms are enough.
pub fn reshapes(a: &Options, b: &Options) -> bool {
    changes(a, b, Effect::Rebuild)
}

/// `true` when an option with `effect` differs between `a` and `b`.
pub fn changes(a: &Options, b: &Options, effect: Effect) -> bool {
    schema()
        .iter()
        .filter(|s| s.effect == effect)
        .any(|s| s.get(a) != s.get(b))
}
