//! Typed, validated renderer options.
//!
//! Options arrive from JavaScript as one plain object. The web layer turns it
//! into a [`Value`] tree (no JS types here), and this module validates that
//! tree field by field. Keeping the rules in pure Rust means they are unit
//! tested natively and every error names the field and what is allowed.

use std::fmt;

/// A JavaScript value as the option parser sees it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `undefined`: the same as leaving the key out.
    Undefined,
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    /// A plain object, keys in insertion order.
    Object(Vec<(String, Value)>),
    /// Anything else (array, function, symbol, bigint), by its type name.
    Other(String),
}

impl Value {
    /// A short description used in error messages: `'foo'`, `12`, `an array`.
    pub fn describe(&self) -> String {
        match self {
            Value::Undefined => "undefined".into(),
            Value::Null => "null".into(),
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => format_number(*n),
            Value::String(s) => format!("'{s}'"),
            Value::Object(_) => "an object".into(),
            Value::Other(kind) => kind.clone(),
        }
    }
}

fn format_number(n: f64) -> String {
    if n.is_nan() {
        "NaN".into()
    } else if n.is_infinite() {
        if n > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else {
        format!("{n}")
    }
}

/// A rejected option: which field, and what would have been accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    /// Dotted path of the field, e.g. `canvas.alphaMode`.
    pub field: String,
    /// What is allowed and what was given.
    pub message: String,
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option '{}' {}", self.field, self.message)
    }
}

impl std::error::Error for OptionError {}

/// Format of the canvas texture (`configure({ format })`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CanvasFormat {
    /// `navigator.gpu.getPreferredCanvasFormat()`: `rgba8unorm` or
    /// `bgra8unorm` depending on the platform. Written through its `-srgb`
    /// view so the hardware encodes once.
    #[default]
    Preferred,
    /// 16-bit float canvas, for HDR displays; the shader encodes sRGB.
    Rgba16Float,
}

/// How the canvas is composited with the page (`configure({ alphaMode })`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum AlphaMode {
    /// Alpha is ignored; the canvas covers what is under it.
    #[default]
    Opaque,
    /// The canvas holds premultiplied color and blends over the page.
    Premultiplied,
}

/// How the compositor interprets the canvas values (`configure({ colorSpace })`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ColorSpace {
    #[default]
    Srgb,
    DisplayP3,
}

/// What happens to values above 1 (`configure({ toneMapping: { mode } })`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ToneMapping {
    /// Values are clamped to [0, 1].
    #[default]
    Standard,
    /// Values above 1 reach HDR displays. Needs `format: 'rgba16float'`.
    Extended,
}

/// The `canvas` group of options: everything that goes into `configure()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CanvasOptions {
    /// Default `'preferred'`.
    pub format: CanvasFormat,
    /// Default `'opaque'`.
    pub alpha_mode: AlphaMode,
    /// Default `'srgb'`.
    pub color_space: ColorSpace,
    /// Default `'standard'`; `'extended'` only with `format: 'rgba16float'`.
    pub tone_mapping: ToneMapping,
    /// Default `false`. `true` adds `COPY_SRC` to the canvas usage so frames
    /// can be read back; leave it off otherwise (it can cost compression).
    pub screenshots: bool,
}

/// Multisampling of the scene pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Msaa {
    /// No multisampling: the scene renders straight into the HDR target.
    Off,
    /// 4× multisampling (the only other count WebGPU allows).
    #[default]
    X4,
}

impl Msaa {
    pub fn sample_count(self) -> u32 {
        match self {
            Msaa::Off => 1,
            Msaa::X4 => 4,
        }
    }
}

/// How the multisampled scene is resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Resolve {
    /// The fixed-function resolve (`resolveTarget`): an average of linear
    /// HDR samples. Bright edges against dark ones can alias after tonemapping.
    #[default]
    Hardware,
    /// A resolve pass that tonemaps each sample before averaging and inverts
    /// after, so bright edges stay antialiased. Costs a stored MSAA target.
    Tonemapped,
}

/// The curve that maps HDR radiance to the display range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Tonemapper {
    /// AgX (Troy Sobotka): filmic, desaturates highlights gracefully.
    #[default]
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
    pub fn shader_index(self) -> u32 {
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BlurMode {
    /// A downsample chain into the mips of one texture, then a tent-filtered
    /// additive upsample chain (Jimenez, Call of Duty: Advanced Warfare).
    #[default]
    Mip,
    /// Separable Gaussian passes ping-ponging between two half-size targets.
    Gaussian,
}

/// The `bloom` group of options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BloomOptions {
    /// Default `true`.
    pub enabled: bool,
    /// Luminance above which light blooms, in scene units (after exposure). Default 1.
    pub threshold: f32,
    /// Softness of the threshold, 0 (hard) to 1. Default 0.5.
    pub knee: f32,
    /// How much of the blurred light is added back. Default 0.5.
    pub intensity: f32,
    /// Spread of the blur, relative to the default, 0.1 to 4. Independent of
    /// resolution and devicePixelRatio. Default 1.
    pub radius: f32,
    /// Most mip levels the chain may use, 1 to 12 (a cost cap). Default 8.
    pub levels: u32,
    /// Default `'mip'`.
    pub blur: BlurMode,
    /// Gaussian mode: horizontal + vertical pass pairs, 1 to 16. Default 3.
    pub iterations: u32,
}

impl Default for BloomOptions {
    fn default() -> Self {
        BloomOptions {
            enabled: true,
            threshold: 1.0,
            knee: 0.5,
            intensity: 0.5,
            radius: 1.0,
            levels: 8,
            blur: BlurMode::Mip,
            iterations: 3,
        }
    }
}

/// All renderer options, defaults filled in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    pub canvas: CanvasOptions,
    /// Samples per pixel of the scene pass, 1 or 4. Default 4.
    pub msaa: Msaa,
    /// Default `'hardware'`.
    pub resolve: Resolve,
    /// Multiplier applied to the scene before bloom and tonemapping, above 0. Default 1.
    pub exposure: f32,
    /// Default `'agx'`.
    pub tonemapper: Tonemapper,
    /// Adds sub-quantum noise before 8-bit output to break up banding. Default `true`.
    pub dither: bool,
    pub bloom: BloomOptions,
    /// Size of the offscreen targets relative to the canvas, 0.25 to 2;
    /// the composite pass rescales. Default 1.
    pub render_scale: f32,
    /// Keep the canvas at its displayed size in device pixels
    /// (ResizeObserver on `device-pixel-content-box`). Default `false`.
    pub auto_resize: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            canvas: CanvasOptions::default(),
            msaa: Msaa::X4,
            resolve: Resolve::Hardware,
            exposure: 1.0,
            tonemapper: Tonemapper::Agx,
            dither: true,
            bloom: BloomOptions::default(),
            render_scale: 1.0,
            auto_resize: false,
        }
    }
}

impl Options {
    /// Options for exact image tests: no MSAA, no dither, no bloom, no curve.
    pub const PREDICTABLE: Options = Options {
        canvas: CanvasOptions {
            format: CanvasFormat::Preferred,
            alpha_mode: AlphaMode::Opaque,
            color_space: ColorSpace::Srgb,
            tone_mapping: ToneMapping::Standard,
            screenshots: false,
        },
        msaa: Msaa::Off,
        resolve: Resolve::Hardware,
        exposure: 1.0,
        tonemapper: Tonemapper::None,
        dither: false,
        bloom: BloomOptions {
            enabled: false,
            threshold: 1.0,
            knee: 0.5,
            intensity: 0.5,
            radius: 1.0,
            levels: 8,
            blur: BlurMode::Mip,
            iterations: 3,
        },
        render_scale: 1.0,
        auto_resize: false,
    };
}

/// One option name and the string each variant is spelled with in JS.
trait Named: Sized + Copy + 'static {
    const ALL: &'static [(Self, &'static str)];
    fn name(self) -> &'static str
    where
        Self: PartialEq,
    {
        Self::ALL
            .iter()
            .find(|(v, _)| *v == self)
            .map(|(_, n)| *n)
            .unwrap_or("")
    }
}

/// Implements [`Named`] and `as_str` for an option enum from its JS spellings.
macro_rules! names {
    ($($t:ident { $($v:ident => $s:literal),+ $(,)? })+) => {
        $(
            impl Named for $t {
                const ALL: &'static [(Self, &'static str)] = &[$(($t::$v, $s)),+];
            }
            impl $t {
                /// The option's spelling in JS.
                pub fn as_str(self) -> &'static str {
                    self.name()
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
    Resolve { Hardware => "hardware", Tonemapped => "tonemapped" }
    Tonemapper { Agx => "agx", Aces => "aces", KhronosNeutral => "khronos-neutral", Reinhard => "reinhard", None => "none" }
    BlurMode { Mip => "mip", Gaussian => "gaussian" }
}

/// Reads one object, remembering which keys were consumed so that unknown
/// keys (usually typos) are rejected instead of silently ignored.
struct ObjectReader<'a> {
    path: &'a str,
    entries: &'a [(String, Value)],
    known: &'static [&'static str],
}

impl<'a> ObjectReader<'a> {
    fn new(
        path: &'a str,
        value: &'a Value,
        known: &'static [&'static str],
    ) -> Result<Option<Self>, OptionError> {
        match value {
            Value::Undefined => Ok(None),
            Value::Object(entries) => {
                let reader = ObjectReader {
                    path,
                    entries,
                    known,
                };
                reader.reject_unknown()?;
                Ok(Some(reader))
            }
            other => Err(OptionError {
                field: display_path(path),
                message: format!("must be an object, got {}", other.describe()),
            }),
        }
    }

    fn field(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    fn reject_unknown(&self) -> Result<(), OptionError> {
        for (key, _) in self.entries {
            if !self.known.contains(&key.as_str()) {
                return Err(OptionError {
                    field: self.field(key),
                    message: format!(
                        "is not an option; allowed keys{} are {}",
                        if self.path.is_empty() {
                            String::new()
                        } else {
                            format!(" of '{}'", self.path)
                        },
                        quote_list(self.known)
                    ),
                });
            }
        }
        Ok(())
    }

    fn get(&self, key: &str) -> &'a Value {
        self.entries
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
            .unwrap_or(&Value::Undefined)
    }

    fn choice<T: Named + PartialEq>(&self, key: &str, current: T) -> Result<T, OptionError> {
        let allowed: Vec<&str> = T::ALL.iter().map(|(_, n)| *n).collect();
        match self.get(key) {
            Value::Undefined => Ok(current),
            Value::String(s) => T::ALL
                .iter()
                .find(|(_, n)| n == s)
                .map(|(v, _)| *v)
                .ok_or_else(|| OptionError {
                    field: self.field(key),
                    message: format!("must be one of {}, got '{s}'", quote_list(&allowed)),
                }),
            other => Err(OptionError {
                field: self.field(key),
                message: format!(
                    "must be one of {}, got {}",
                    quote_list(&allowed),
                    other.describe()
                ),
            }),
        }
    }

    /// A finite number in `[min, max]`.
    fn number(&self, key: &str, current: f32, min: f32, max: f32) -> Result<f32, OptionError> {
        match self.get(key) {
            Value::Undefined => Ok(current),
            Value::Number(n) if n.is_finite() && *n >= min as f64 && *n <= max as f64 => {
                Ok(*n as f32)
            }
            other => Err(OptionError {
                field: self.field(key),
                message: format!(
                    "must be a number from {min} to {max}, got {}",
                    other.describe()
                ),
            }),
        }
    }

    /// A whole number in `[min, max]`.
    fn integer(&self, key: &str, current: u32, min: u32, max: u32) -> Result<u32, OptionError> {
        match self.get(key) {
            Value::Undefined => Ok(current),
            Value::Number(n)
                if n.is_finite() && n.fract() == 0.0 && *n >= min as f64 && *n <= max as f64 =>
            {
                Ok(*n as u32)
            }
            other => Err(OptionError {
                field: self.field(key),
                message: format!(
                    "must be a whole number from {min} to {max}, got {}",
                    other.describe()
                ),
            }),
        }
    }

    fn boolean(&self, key: &str, current: bool) -> Result<bool, OptionError> {
        match self.get(key) {
            Value::Undefined => Ok(current),
            Value::Bool(b) => Ok(*b),
            other => Err(OptionError {
                field: self.field(key),
                message: format!("must be true or false, got {}", other.describe()),
            }),
        }
    }
}

fn display_path(path: &str) -> String {
    if path.is_empty() {
        "options".into()
    } else {
        path.into()
    }
}

fn quote_list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| format!("'{s}'")).collect();
    quoted.join(", ")
}

impl Options {
    /// Parses a full options object; missing fields take their defaults.
    pub fn from_value(value: &Value) -> Result<Options, OptionError> {
        Options::default().merged(value)
    }

    /// Applies a partial options object on top of `self`: fields that are
    /// absent keep their current value. The result is validated as a whole.
    pub fn merged(&self, value: &Value) -> Result<Options, OptionError> {
        let mut out = *self;
        if let Value::Null = value {
            return Ok(out);
        }
        let Some(root) = ObjectReader::new(
            "",
            value,
            &[
                "canvas",
                "msaa",
                "resolve",
                "exposure",
                "tonemapper",
                "dither",
                "bloom",
                "renderScale",
                "autoResize",
            ],
        )?
        else {
            return Ok(out);
        };
        out.msaa = match root.get("msaa") {
            Value::Undefined => out.msaa,
            Value::Number(n) if *n == 1.0 => Msaa::Off,
            Value::Number(n) if *n == 4.0 => Msaa::X4,
            other => {
                return Err(OptionError {
                    field: "msaa".into(),
                    message: format!(
                        "must be 1 or 4 (WebGPU allows no other sample count), got {}",
                        other.describe()
                    ),
                })
            }
        };
        out.resolve = root.choice("resolve", out.resolve)?;
        out.exposure = root.number("exposure", out.exposure, 0.0, 1.0e4)?;
        if out.exposure <= 0.0 {
            return Err(OptionError {
                field: "exposure".into(),
                message: "must be above 0 (up to 10000), got 0".into(),
            });
        }
        out.tonemapper = root.choice("tonemapper", out.tonemapper)?;
        out.dither = root.boolean("dither", out.dither)?;
        out.render_scale = root.number("renderScale", out.render_scale, 0.25, 2.0)?;
        out.auto_resize = root.boolean("autoResize", out.auto_resize)?;
        if let Some(bloom) = ObjectReader::new(
            "bloom",
            root.get("bloom"),
            &[
                "enabled",
                "threshold",
                "knee",
                "intensity",
                "radius",
                "levels",
                "blur",
                "iterations",
            ],
        )? {
            let b = &mut out.bloom;
            b.enabled = bloom.boolean("enabled", b.enabled)?;
            b.threshold = bloom.number("threshold", b.threshold, 0.0, 1.0e4)?;
            b.knee = bloom.number("knee", b.knee, 0.0, 1.0)?;
            b.intensity = bloom.number("intensity", b.intensity, 0.0, 100.0)?;
            b.radius = bloom.number("radius", b.radius, 0.1, 4.0)?;
            b.levels = bloom.integer("levels", b.levels, 1, 12)?;
            b.blur = bloom.choice("blur", b.blur)?;
            b.iterations = bloom.integer("iterations", b.iterations, 1, 16)?;
        }
        if let Some(canvas) = ObjectReader::new(
            "canvas",
            root.get("canvas"),
            &[
                "format",
                "alphaMode",
                "colorSpace",
                "toneMapping",
                "screenshots",
            ],
        )? {
            let c = &mut out.canvas;
            c.format = canvas.choice("format", c.format)?;
            c.alpha_mode = canvas.choice("alphaMode", c.alpha_mode)?;
            c.color_space = canvas.choice("colorSpace", c.color_space)?;
            c.tone_mapping = canvas.choice("toneMapping", c.tone_mapping)?;
            c.screenshots = canvas.boolean("screenshots", c.screenshots)?;
        }
        out.validate()?;
        Ok(out)
    }

    /// Rules that involve more than one field.
    pub fn validate(&self) -> Result<(), OptionError> {
        if self.resolve == Resolve::Tonemapped && self.msaa == Msaa::Off {
            return Err(OptionError {
                field: "resolve".into(),
                message: "'tonemapped' resolves multisampled color and needs msaa: 4; \
                          use 'hardware' with msaa: 1"
                    .into(),
            });
        }
        if self.canvas.tone_mapping == ToneMapping::Extended
            && self.canvas.format != CanvasFormat::Rgba16Float
        {
            return Err(OptionError {
                field: "canvas.toneMapping".into(),
                message: "'extended' needs canvas.format 'rgba16float' (an 8-bit canvas \
                          cannot hold values above 1); use 'standard' or set the format"
                    .into(),
            });
        }
        Ok(())
    }

    /// The effective options as a [`Value`] tree, in the shape JS passes them.
    pub fn to_value(&self) -> Value {
        let c = &self.canvas;
        let b = &self.bloom;
        let s = |v: &str| Value::String(v.into());
        let n = |v: f32| Value::Number(v as f64);
        let obj = |entries: Vec<(&str, Value)>| {
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v))
                    .collect(),
            )
        };
        obj(vec![
            (
                "canvas",
                obj(vec![
                    ("format", s(c.format.as_str())),
                    ("alphaMode", s(c.alpha_mode.as_str())),
                    ("colorSpace", s(c.color_space.as_str())),
                    ("toneMapping", s(c.tone_mapping.as_str())),
                    ("screenshots", Value::Bool(c.screenshots)),
                ]),
            ),
            ("msaa", Value::Number(self.msaa.sample_count() as f64)),
            ("resolve", s(self.resolve.as_str())),
            ("exposure", n(self.exposure)),
            ("tonemapper", s(self.tonemapper.as_str())),
            ("dither", Value::Bool(self.dither)),
            (
                "bloom",
                obj(vec![
                    ("enabled", Value::Bool(b.enabled)),
                    ("threshold", n(b.threshold)),
                    ("knee", n(b.knee)),
                    ("intensity", n(b.intensity)),
                    ("radius", n(b.radius)),
                    ("levels", Value::Number(b.levels as f64)),
                    ("blur", s(b.blur.as_str())),
                    ("iterations", Value::Number(b.iterations as f64)),
                ]),
            ),
            ("renderScale", n(self.render_scale)),
            ("autoResize", Value::Bool(self.auto_resize)),
        ])
    }
}

/// Validates a size in device pixels: a finite, non-negative integer not
/// above `max`.
pub fn parse_dimension(field: &str, value: &Value, max: u32) -> Result<u32, OptionError> {
    let err = |message: String| OptionError {
        field: field.into(),
        message,
    };
    match value {
        Value::Number(n) => {
            if !n.is_finite() || n.fract() != 0.0 || *n < 0.0 {
                Err(err(format!(
                    "must be a whole number of device pixels from 0 to {max}, got {}",
                    value.describe()
                )))
            } else if *n > max as f64 {
                Err(err(format!(
                    "is {} but this device allows at most {max} (maxTextureDimension2D)",
                    value.describe()
                )))
            } else {
                Ok(*n as u32)
            }
        }
        other => Err(err(format!(
            "must be a number of device pixels from 0 to {max}, got {}",
            other.describe()
        ))),
    }
}

/// Validates a frame time in seconds: a finite number; `undefined` means 0.
pub fn parse_time(value: &Value) -> Result<f64, OptionError> {
    match value {
        Value::Undefined => Ok(0.0),
        Value::Number(n) if n.is_finite() => Ok(*n),
        other => Err(OptionError {
            field: "timeSeconds".into(),
            message: format!("must be a finite number, got {}", other.describe()),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(entries: Vec<(&str, Value)>) -> Value {
        Value::Object(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }
    fn s(v: &str) -> Value {
        Value::String(v.into())
    }

    #[test]
    fn defaults_when_absent() {
        assert_eq!(
            Options::from_value(&Value::Undefined),
            Ok(Options::default())
        );
        assert_eq!(Options::from_value(&obj(vec![])), Ok(Options::default()));
        let d = Options::default().canvas;
        assert_eq!(d.format, CanvasFormat::Preferred);
        assert_eq!(d.alpha_mode, AlphaMode::Opaque);
        assert_eq!(d.color_space, ColorSpace::Srgb);
        assert_eq!(d.tone_mapping, ToneMapping::Standard);
        assert!(!d.screenshots);
    }

    #[test]
    fn every_canvas_field_parses() {
        let v = obj(vec![(
            "canvas",
            obj(vec![
                ("format", s("rgba16float")),
                ("alphaMode", s("premultiplied")),
                ("colorSpace", s("display-p3")),
                ("toneMapping", s("extended")),
                ("screenshots", Value::Bool(true)),
            ]),
        )]);
        let o = Options::from_value(&v).expect("valid");
        assert_eq!(
            o.canvas,
            CanvasOptions {
                format: CanvasFormat::Rgba16Float,
                alpha_mode: AlphaMode::Premultiplied,
                color_space: ColorSpace::DisplayP3,
                tone_mapping: ToneMapping::Extended,
                screenshots: true,
            }
        );
        // Round trip through the JS-shaped tree.
        assert_eq!(Options::from_value(&o.to_value()), Ok(o));
    }

    #[test]
    fn unknown_keys_are_named() {
        let e = Options::from_value(&obj(vec![("canvsa", obj(vec![]))])).unwrap_err();
        assert_eq!(e.field, "canvsa");
        assert!(e.message.contains("'canvas'"), "{e}");
        let e = Options::from_value(&obj(vec![("canvas", obj(vec![("alpha", s("opaque"))]))]))
            .unwrap_err();
        assert_eq!(e.field, "canvas.alpha");
        assert!(e.message.contains("'alphaMode'"), "{e}");
    }

    #[test]
    fn bad_values_name_field_and_allowed_values() {
        let e = Options::from_value(&obj(vec![(
            "canvas",
            obj(vec![("alphaMode", s("postmultiplied"))]),
        )]))
        .unwrap_err();
        assert_eq!(e.field, "canvas.alphaMode");
        assert!(e.message.contains("'opaque', 'premultiplied'"), "{e}");
        assert!(e.message.contains("'postmultiplied'"), "{e}");

        let e = Options::from_value(&obj(vec![(
            "canvas",
            obj(vec![("colorSpace", Value::Number(3.0))]),
        )]))
        .unwrap_err();
        assert_eq!(e.field, "canvas.colorSpace");
        assert!(e.message.contains("got 3"), "{e}");

        let e = Options::from_value(&obj(vec![("canvas", obj(vec![("screenshots", s("yes"))]))]))
            .unwrap_err();
        assert_eq!(e.field, "canvas.screenshots");

        let e = Options::from_value(&obj(vec![("canvas", s("rgba16float"))])).unwrap_err();
        assert_eq!(e.field, "canvas");
        assert!(e.message.contains("must be an object"), "{e}");

        let e = Options::from_value(&Value::Number(1.0)).unwrap_err();
        assert_eq!(e.field, "options");
    }

    #[test]
    fn extended_needs_rgba16float() {
        let e = Options::from_value(&obj(vec![(
            "canvas",
            obj(vec![("toneMapping", s("extended"))]),
        )]))
        .unwrap_err();
        assert_eq!(e.field, "canvas.toneMapping");
        assert!(e.message.contains("rgba16float"), "{e}");
    }

    #[test]
    fn chain_options_parse_and_round_trip() {
        let v = obj(vec![
            ("msaa", Value::Number(1.0)),
            ("exposure", Value::Number(2.5)),
            ("tonemapper", s("khronos-neutral")),
            ("dither", Value::Bool(false)),
            ("renderScale", Value::Number(0.5)),
            ("autoResize", Value::Bool(true)),
            (
                "bloom",
                obj(vec![
                    ("enabled", Value::Bool(true)),
                    ("threshold", Value::Number(0.8)),
                    ("knee", Value::Number(0.2)),
                    ("intensity", Value::Number(1.5)),
                    ("radius", Value::Number(2.0)),
                    ("levels", Value::Number(5.0)),
                    ("blur", s("gaussian")),
                    ("iterations", Value::Number(6.0)),
                ]),
            ),
        ]);
        let o = Options::from_value(&v).expect("valid");
        assert_eq!(o.msaa, Msaa::Off);
        assert_eq!(o.exposure, 2.5);
        assert_eq!(o.tonemapper, Tonemapper::KhronosNeutral);
        assert!(!o.dither);
        assert_eq!(o.render_scale, 0.5);
        assert!(o.auto_resize);
        assert_eq!(o.bloom.blur, BlurMode::Gaussian);
        assert_eq!(o.bloom.levels, 5);
        assert_eq!(o.bloom.iterations, 6);
        assert_eq!(Options::from_value(&o.to_value()), Ok(o));
        assert_eq!(
            Options::from_value(&Options::default().to_value()),
            Ok(Options::default())
        );
        let d = Options::default();
        assert_eq!(
            (d.msaa, d.resolve, d.tonemapper),
            (Msaa::X4, Resolve::Hardware, Tonemapper::Agx)
        );
        assert!(d.dither && d.bloom.enabled);
    }

    #[test]
    fn chain_options_reject_bad_values() {
        let cases: Vec<(Value, &str, &str)> = vec![
            (obj(vec![("msaa", Value::Number(2.0))]), "msaa", "1 or 4"),
            (obj(vec![("msaa", s("4"))]), "msaa", "1 or 4"),
            (
                obj(vec![("exposure", Value::Number(f64::NAN))]),
                "exposure",
                "NaN",
            ),
            (
                obj(vec![("exposure", Value::Number(0.0))]),
                "exposure",
                "above 0",
            ),
            (
                obj(vec![("exposure", Value::Number(-1.0))]),
                "exposure",
                "-1",
            ),
            (
                obj(vec![("tonemapper", s("filmic"))]),
                "tonemapper",
                "'agx', 'aces', 'khronos-neutral', 'reinhard', 'none'",
            ),
            (
                obj(vec![
                    ("resolve", s("tonemapped")),
                    ("msaa", Value::Number(1.0)),
                ]),
                "resolve",
                "msaa: 4",
            ),
            (
                obj(vec![("bloom", obj(vec![("levels", Value::Number(0.0))]))]),
                "bloom.levels",
                "1 to 12",
            ),
            (
                obj(vec![("bloom", obj(vec![("levels", Value::Number(2.5))]))]),
                "bloom.levels",
                "whole number",
            ),
            (
                obj(vec![("bloom", obj(vec![("knee", Value::Number(1.5))]))]),
                "bloom.knee",
                "0 to 1",
            ),
            (
                obj(vec![(
                    "bloom",
                    obj(vec![("intensity", Value::Number(f64::INFINITY))]),
                )]),
                "bloom.intensity",
                "Infinity",
            ),
            (
                obj(vec![("bloom", obj(vec![("blur", s("box"))]))]),
                "bloom.blur",
                "'mip', 'gaussian'",
            ),
            (
                obj(vec![(
                    "bloom",
                    obj(vec![("iterations", Value::Number(100.0))]),
                )]),
                "bloom.iterations",
                "1 to 16",
            ),
            (
                obj(vec![("bloom", obj(vec![("radius", Value::Number(0.0))]))]),
                "bloom.radius",
                "0.1 to 4",
            ),
            (
                obj(vec![("bloom", obj(vec![("size", Value::Number(1.0))]))]),
                "bloom.size",
                "'threshold'",
            ),
            (
                obj(vec![("bloom", Value::Bool(true))]),
                "bloom",
                "must be an object",
            ),
        ];
        for (value, field, needle) in cases {
            let e = Options::from_value(&value).unwrap_err();
            assert_eq!(e.field, field, "{e}");
            assert!(e.to_string().contains(needle), "{e} lacks {needle}");
        }
    }

    #[test]
    fn merge_keeps_absent_fields() {
        let base = Options::from_value(&obj(vec![(
            "canvas",
            obj(vec![("alphaMode", s("premultiplied"))]),
        )]))
        .unwrap();
        let next = base
            .merged(&obj(vec![(
                "canvas",
                obj(vec![("colorSpace", s("display-p3"))]),
            )]))
            .unwrap();
        assert_eq!(next.canvas.alpha_mode, AlphaMode::Premultiplied);
        assert_eq!(next.canvas.color_space, ColorSpace::DisplayP3);
    }

    #[test]
    fn dimensions() {
        assert_eq!(
            parse_dimension("width", &Value::Number(640.0), 8192),
            Ok(640)
        );
        assert_eq!(parse_dimension("width", &Value::Number(0.0), 8192), Ok(0));
        for bad in [
            Value::Number(-1.0),
            Value::Number(f64::NAN),
            Value::Number(f64::INFINITY),
            Value::Number(1.5),
            Value::String("640".into()),
            Value::Undefined,
        ] {
            let e = parse_dimension("width", &bad, 8192).unwrap_err();
            assert_eq!(e.field, "width");
        }
        let e = parse_dimension("height", &Value::Number(9000.0), 8192).unwrap_err();
        assert!(e.message.contains("8192"), "{e}");
    }

    #[test]
    fn times() {
        assert_eq!(parse_time(&Value::Undefined), Ok(0.0));
        assert_eq!(parse_time(&Value::Number(1.25)), Ok(1.25));
        assert!(parse_time(&Value::Number(f64::NAN)).is_err());
        assert!(parse_time(&Value::String("1".into())).is_err());
    }
}
