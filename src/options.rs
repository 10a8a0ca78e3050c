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

/// All renderer options, defaults filled in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Options {
    pub canvas: CanvasOptions,
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

impl Named for CanvasFormat {
    const ALL: &'static [(Self, &'static str)] = &[
        (CanvasFormat::Preferred, "preferred"),
        (CanvasFormat::Rgba16Float, "rgba16float"),
    ];
}
impl Named for AlphaMode {
    const ALL: &'static [(Self, &'static str)] = &[
        (AlphaMode::Opaque, "opaque"),
        (AlphaMode::Premultiplied, "premultiplied"),
    ];
}
impl Named for ColorSpace {
    const ALL: &'static [(Self, &'static str)] = &[
        (ColorSpace::Srgb, "srgb"),
        (ColorSpace::DisplayP3, "display-p3"),
    ];
}
impl Named for ToneMapping {
    const ALL: &'static [(Self, &'static str)] = &[
        (ToneMapping::Standard, "standard"),
        (ToneMapping::Extended, "extended"),
    ];
}

impl CanvasFormat {
    pub fn as_str(self) -> &'static str {
        self.name()
    }
}
impl AlphaMode {
    pub fn as_str(self) -> &'static str {
        self.name()
    }
}
impl ColorSpace {
    pub fn as_str(self) -> &'static str {
        self.name()
    }
}
impl ToneMapping {
    pub fn as_str(self) -> &'static str {
        self.name()
    }
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
        let Some(root) = ObjectReader::new("", value, &["canvas"])? else {
            return Ok(out);
        };
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
        Value::Object(vec![(
            "canvas".into(),
            Value::Object(vec![
                ("format".into(), Value::String(c.format.as_str().into())),
                (
                    "alphaMode".into(),
                    Value::String(c.alpha_mode.as_str().into()),
                ),
                (
                    "colorSpace".into(),
                    Value::String(c.color_space.as_str().into()),
                ),
                (
                    "toneMapping".into(),
                    Value::String(c.tone_mapping.as_str().into()),
                ),
                ("screenshots".into(), Value::Bool(c.screenshots)),
            ]),
        )])
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
