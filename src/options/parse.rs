//! Options from a JS-shaped [`Value`] tree and back, driven by the schema
//! table: unknown keys (usually typos) are refused with the allowed keys,
//! bad values with what the option allows.

use super::schema::{Allowed, OptionError};
use super::table::{keys_of, schema, spec};
use super::types::{CanvasFormat, DynamicRange, Msaa, Options, Resolve, ToneMapping};
use super::value::{decimal, quote_list, Value};

/// Options to and from the JavaScript-shaped [`Value`] tree: the web
/// layer's conversions (and the tests'), kept out of the Rust API (a trait
/// of a private module: nothing outside the crate can bring it in scope).
pub trait OptionsValue: Sized {
    /// Parses a full options object; missing fields take their defaults.
    fn from_value(value: &Value) -> Result<Self, OptionError>;
    /// Applies a partial options object on top of `self`: fields that are
    /// absent keep their current value. The result is validated as a whole.
    fn merged(&self, value: &Value) -> Result<Self, OptionError>;
    /// The effective options as a [`Value`] tree, in the shape JS passes them.
    fn to_value(&self) -> Value;
}

impl OptionsValue for Options {
    fn from_value(value: &Value) -> Result<Options, OptionError> {
        Options::default().merged(value)
    }

    fn merged(&self, value: &Value) -> Result<Options, OptionError> {
        let mut out = *self;
        if matches!(value, Value::Undefined | Value::Null) {
            return Ok(out);
        }
        check_shape("", value)?;
        for s in schema() {
            let mut v = value;
            for key in super::schema::path_keys(s.path) {
                v = v.get(key);
            }
            if let Some(literal) = s.check(v)? {
                (s.access.set)(&mut out, literal);
            }
        }
        out.validate()?;
        Ok(out)
    }

    fn to_value(&self) -> Value {
        let mut root = Vec::new();
        for s in schema() {
            let mut entries = &mut root;
            let (group, key) = (s.group(), s.key());
            if !group.is_empty() {
                let at = match entries.iter().position(|(k, _)| k == group) {
                    Some(i) => i,
                    None => {
                        entries.push((group.to_string(), Value::Object(Vec::new())));
                        entries.len() - 1
                    }
                };
                entries = match &mut entries[at].1 {
                    Value::Object(inner) => inner,
                    _ => unreachable!("groups are objects"),
                };
            }
            entries.push((key.to_string(), s.get(self).to_value()));
        }
        Value::Object(root)
    }
}

impl Options {
    /// Every option against the table (its type and range, as JavaScript
    /// is checked: a NaN intensity or `levels: 0` set from Rust is refused
    /// with the same path and message), then the rules that involve more
    /// than one option, whose `allowed` lists what is left given the others.
    pub fn validate(&self) -> Result<(), OptionError> {
        for s in schema() {
            s.check(&s.get(self).to_value())?;
        }
        if self.resolve == Resolve::Tonemapped && self.msaa == Msaa::Off {
            return Err(OptionError::one_of(
                "resolve",
                &[Resolve::Hardware.as_str()],
                "'tonemapped' resolves multisampled color and needs msaa: 4; \
                 use 'hardware' with msaa: 1",
            ));
        }
        let exposure = &self.auto_exposure;
        if exposure.high_percentile <= exposure.low_percentile {
            return Err(OptionError::new(
                "autoExposure.highPercentile",
                Allowed::Range(format!(
                    "a number above autoExposure.lowPercentile ({}) up to 1",
                    decimal(exposure.low_percentile)
                )),
                format!(
                    "is {} and autoExposure.lowPercentile is {}: the average is taken between \
                     the two positions of the histogram, so highPercentile must be above \
                     lowPercentile (the defaults are 0.1 and 0.9)",
                    decimal(exposure.high_percentile),
                    decimal(exposure.low_percentile)
                ),
            ));
        }
        let dof = &self.depth_of_field;
        if dof.focus_distance <= dof.focal_length {
            return Err(OptionError::new(
                "depthOfField.focusDistance",
                Allowed::Range(format!(
                    "a number above depthOfField.focalLength ({})",
                    decimal(dof.focal_length)
                )),
                format!(
                    "is {} and depthOfField.focalLength is {}: a lens focuses no nearer than \
                     its focal length (both are in the camera's units)",
                    decimal(dof.focus_distance),
                    decimal(dof.focal_length)
                ),
            ));
        }
        if self.canvas.dynamic_range == DynamicRange::Auto {
            if self.canvas.format != CanvasFormat::Preferred {
                return Err(OptionError::one_of(
                    "canvas.format",
                    &[CanvasFormat::Preferred.as_str()],
                    "is chosen by canvas.dynamicRange 'auto' ('rgba16float' on an HDR display); \
                     leave it at 'preferred', or set dynamicRange to 'standard'",
                ));
            }
            if self.canvas.tone_mapping != ToneMapping::Standard {
                return Err(OptionError::one_of(
                    "canvas.toneMapping",
                    &[ToneMapping::Standard.as_str()],
                    "is chosen by canvas.dynamicRange 'auto' ('extended' on an HDR display); \
                     leave it at 'standard', or set dynamicRange to 'standard'",
                ));
            }
        }
        if self.canvas.tone_mapping == ToneMapping::Extended
            && self.canvas.format != CanvasFormat::Rgba16Float
        {
            return Err(extended_needs_rgba16float());
        }
        Ok(())
    }
}

/// `canvas.toneMapping: 'extended'` on a canvas format other than
/// `rgba16float`.
pub fn extended_needs_rgba16float() -> OptionError {
    OptionError::one_of(
        "canvas.toneMapping",
        &[ToneMapping::Standard.as_str()],
        "'extended' needs canvas.format 'rgba16float' (an 8-bit canvas cannot hold values \
         above 1); use 'standard' or set the format",
    )
}

/// Checks that `value` (the object at `group`) is an object whose keys
/// are all options or groups of options, recursively.
fn check_shape(group: &str, value: &Value) -> Result<(), OptionError> {
    let entries = match value {
        Value::Object(entries) => entries,
        other => {
            return Err(OptionError::new(
                if group.is_empty() { "options" } else { group },
                Allowed::Range("an object".into()),
                format!("must be an object, got {}", other.describe()),
            ))
        }
    };
    let known = keys_of(group);
    for (key, v) in entries {
        let path = if group.is_empty() {
            key.clone()
        } else {
            format!("{group}.{key}")
        };
        if !known.contains(&key.as_str()) {
            let of = if group.is_empty() {
                String::new()
            } else {
                format!(" of '{group}'")
            };
            return Err(OptionError::one_of(
                &path,
                &known,
                format!(
                    "is not an option; allowed keys{of} are {}",
                    quote_list(&known)
                ),
            ));
        }
        if spec(&path).is_none() && *v != Value::Undefined {
            check_shape(&path, v)?;
        }
    }
    Ok(())
}
