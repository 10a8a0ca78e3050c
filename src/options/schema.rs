//! How the option table describes an option: its [`Kind`] of values, its
//! default as a [`Literal`], the [`Effect`] of changing it, how to read
//! and write it in [`Options`] ([`Access`]), and the [`OptionError`] that
//! names it when a value is refused.

use std::fmt;

use super::types::Options;
use super::value::{format_number, join, quote_list, Value};

/// What the values of an option may be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// `true` or `false`.
    Bool,
    /// One of these strings.
    Choice(&'static [&'static str]),
    /// One of these numbers; `why` says why there are no others.
    Count {
        values: &'static [u32],
        why: &'static str,
    },
    /// A finite number from `min` (excluded when `above_min`) to `max`.
    Number { min: f64, max: f64, above_min: bool },
    /// A whole number from `min` to `max`.
    Integer { min: u32, max: u32 },
}

impl Kind {
    /// What is allowed, as a phrase: `true or false`, `one of 'mip',
    /// 'gaussian'`, `1 or 4`, `a number from 0 to 1`.
    pub fn describe(&self) -> String {
        match *self {
            Kind::Bool => "true or false".into(),
            Kind::Choice(names) => format!("one of {}", quote_list(names)),
            Kind::Count { values, .. } => {
                let all: Vec<String> = values.iter().map(|v| v.to_string()).collect();
                match all.split_last() {
                    Some((last, rest)) if !rest.is_empty() => {
                        format!("{} or {last}", join(rest, ", "))
                    }
                    _ => join(&all, ""),
                }
            }
            Kind::Number {
                min,
                max,
                above_min: true,
            } => format!(
                "a number above {} up to {}",
                format_number(min),
                format_number(max)
            ),
            Kind::Number { min, max, .. } => format!(
                "a number from {} to {}",
                format_number(min),
                format_number(max)
            ),
            Kind::Integer { min, max } => format!("a whole number from {min} to {max}"),
        }
    }

    /// What is allowed, for `OptionError.allowed`.
    pub fn allowed(&self) -> Allowed {
        match *self {
            Kind::Bool => Allowed::true_or_false(),
            Kind::Choice(names) => Allowed::texts(names),
            Kind::Count { values, .. } => Allowed::OneOf(
                values
                    .iter()
                    .map(|v| AllowedValue::Number(f64::from(*v)))
                    .collect(),
            ),
            Kind::Number { .. } | Kind::Integer { .. } => Allowed::Range(self.describe()),
        }
    }

    /// The value `v` as this kind, or what is wrong with it.
    fn check(&self, v: &Value) -> Result<Literal, String> {
        let ok = match (*self, v) {
            (Kind::Bool, Value::Bool(b)) => Some(Literal::Bool(*b)),
            (Kind::Choice(names), Value::String(s)) => {
                names.iter().find(|n| *n == s).map(|n| Literal::Str(n))
            }
            (Kind::Count { values, .. }, Value::Number(n)) => values
                .iter()
                .any(|c| *c as f64 == *n)
                .then_some(Literal::Num(*n)),
            (
                Kind::Number {
                    min,
                    max,
                    above_min,
                },
                Value::Number(n),
            ) => {
                // The GPU sees the number as an f32, and may flush a
                // subnormal one to zero: a number that is not a normal f32
                // step above the excluded minimum there (5e-324 or 1e-45
                // for an exposure above 0) is refused, not turned into it.
                let above = *n > min && (*n as f32) - (min as f32) >= f32::MIN_POSITIVE;
                (n.is_finite() && (above || (!above_min && *n >= min)) && *n <= max)
                    .then_some(Literal::Num(*n))
            }
            (Kind::Integer { min, max }, Value::Number(n)) => {
                (n.is_finite() && n.fract() == 0.0 && *n >= min as f64 && *n <= max as f64)
                    .then_some(Literal::Num(*n))
            }
            _ => None,
        };
        ok.ok_or_else(|| {
            let why = match self {
                Kind::Count { why, .. } => format!(" ({why})"),
                _ => String::new(),
            };
            format!("must be {}{why}, got {}", self.describe(), v.describe())
        })
    }
}

/// A value of an option: what the table's defaults and accessors hold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Literal {
    Bool(bool),
    Str(&'static str),
    Num(f64),
}

impl Literal {
    pub fn to_value(self) -> Value {
        match self {
            Literal::Bool(b) => Value::Bool(b),
            Literal::Str(s) => Value::String(s.into()),
            Literal::Num(n) => Value::Number(n),
        }
    }

    /// As JavaScript source: `'agx'`, `0.6`, `true` (the schema tests
    /// compare the options guide and declarations with it).
    #[cfg(test)]
    pub fn js(self) -> String {
        match self {
            Literal::Bool(b) => b.to_string(),
            Literal::Str(s) => format!("'{s}'"),
            Literal::Num(n) => format_number(n),
        }
    }

    pub(crate) fn str(self) -> &'static str {
        match self {
            Literal::Str(s) => s,
            _ => "",
        }
    }

    pub(crate) fn num(self) -> f64 {
        match self {
            Literal::Num(n) => n,
            _ => f64::NAN,
        }
    }

    pub(crate) fn bool(self) -> bool {
        matches!(self, Literal::Bool(true))
    }
}

/// What changing an option costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Reconfigures the canvas context (and the chain's output).
    Canvas,
    /// Reshapes the frame: targets, pipelines and bind groups are rebuilt.
    Rebuild,
    /// Resizes the offscreen targets.
    Resize,
    /// Only rewrites uniforms.
    Uniforms,
    /// Starts or stops the resize observer; nothing on the GPU.
    Observer,
}

/// Reads and writes one option of [`Options`].
#[derive(Clone, Copy)]
pub struct Access {
    pub get: fn(&Options) -> Literal,
    /// Writes a value that passed the option's [`Kind`].
    pub set: fn(&mut Options, Literal),
}

/// One option.
#[derive(Clone, Copy)]
pub struct OptionSpec {
    /// Dotted path in the JS object: `bloom.radius`.
    pub path: &'static str,
    pub kind: Kind,
    pub default: Literal,
    pub effect: Effect,
    /// One line of documentation (the TypeScript declarations repeat it);
    /// empty in the wasm build, where nothing reads it.
    #[cfg_attr(not(test), allow(dead_code))]
    pub doc: &'static str,
    pub access: Access,
}

/// An object of options: the top level (path `""`) or a group of the
/// table (`canvas`, `bloom`), as the TypeScript declarations name and
/// document it. A group sits in the object its path names without its
/// last key (`bloom` in the top level); its keys are the table's.
#[derive(Clone, Copy)]
#[cfg_attr(not(test), allow(dead_code))]
pub struct GroupSpec {
    /// Dotted path in the JS object: `autoExposure`.
    pub path: &'static str,
    /// Its TypeScript interface: `AutoExposureOptions`.
    pub interface: &'static str,
    /// One line of documentation of the interface; empty in the wasm
    /// build, where nothing reads it.
    pub doc: &'static str,
}

/// Where the last `.` of an option path is. Paths are split by byte
/// position throughout: a `char` pattern would bring the standard
/// library's searcher into the wasm for these few dots.
fn last_dot(path: &str) -> Option<usize> {
    path.bytes().rposition(|b| b == b'.')
}

/// The keys of an option path, in order (`bloom.intensity`: `bloom`,
/// `intensity`).
pub fn path_keys(path: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(path);
    std::iter::from_fn(move || {
        let r = rest?;
        match r.bytes().position(|b| b == b'.') {
            Some(i) => {
                rest = Some(&r[i + 1..]);
                Some(&r[..i])
            }
            None => {
                rest = None;
                Some(r)
            }
        }
    })
}

impl OptionSpec {
    /// The group the option belongs to (`canvas`, `bloom`, or `""`).
    pub fn group(&self) -> &'static str {
        last_dot(self.path).map_or("", |i| &self.path[..i])
    }

    /// The key within its group.
    pub fn key(&self) -> &'static str {
        last_dot(self.path).map_or(self.path, |i| &self.path[i + 1..])
    }

    /// The option's value in `options`.
    pub fn get(&self, options: &Options) -> Literal {
        (self.access.get)(options)
    }

    /// Checks `value` (`undefined` keeps the current value: `None`).
    pub fn check(&self, value: &Value) -> Result<Option<Literal>, OptionError> {
        if *value == Value::Undefined {
            return Ok(None);
        }
        self.kind
            .check(value)
            .map(Some)
            .map_err(|message| OptionError::new(self.path, self.kind.allowed(), message))
    }
}

/// What an option allows, as `OptionError.allowed` reports it.
#[derive(Clone, Debug, PartialEq)]
pub enum Allowed {
    /// Exactly these values (an array in JS): the choices, `[true, false]`,
    /// `[1, 4]`, the keys of an options object, or what is left given the
    /// other options.
    OneOf(Vec<AllowedValue>),
    /// A range or a shape, as a phrase (a string in JS): `a number from 0
    /// to 1`, `an object`.
    Range(String),
}

/// One value of [`Allowed::OneOf`], as JavaScript holds it: a string
/// (`'agx'`, a key of an options object), a number (`4`) or a boolean.
#[derive(Clone, Debug, PartialEq)]
pub enum AllowedValue {
    Text(String),
    Number(f64),
    Bool(bool),
}

impl Allowed {
    /// Exactly these strings.
    pub(crate) fn texts(values: &[&str]) -> Allowed {
        let values = values.iter().map(|s| AllowedValue::Text(s.to_string()));
        Allowed::OneOf(values.collect())
    }

    /// `true` or `false`.
    pub(crate) fn true_or_false() -> Allowed {
        Allowed::OneOf(vec![AllowedValue::Bool(true), AllowedValue::Bool(false)])
    }
}

/// A rejected option: which one, what is allowed, and what was given.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionError {
    /// Dotted path of the option, e.g. `canvas.alphaMode` (`option` in JS).
    pub field: String,
    pub allowed: Allowed,
    /// What is allowed and what was given.
    pub message: String,
}

impl OptionError {
    pub fn new(field: impl Into<String>, allowed: Allowed, message: impl Into<String>) -> Self {
        OptionError {
            field: field.into(),
            allowed,
            message: message.into(),
        }
    }

    /// Allowed: exactly these strings.
    pub fn one_of(field: &str, allowed: &[&str], message: impl Into<String>) -> Self {
        OptionError::new(field, Allowed::texts(allowed), message)
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option '{}' {}", self.field, self.message)
    }
}

impl std::error::Error for OptionError {}

// The accessors of the option table's entries (`options::table` and the
// effects' own entries, `crate::effects`).

macro_rules! choice {
    ($t:ident, $($f:ident).+) => {
        $crate::options::schema::Access {
            get: |o| $crate::options::schema::Literal::Str(o.$($f).+.as_str()),
            set: |o, v| {
                if let Some(x) = $t::from_name(v.str()) {
                    o.$($f).+ = x;
                }
            },
        }
    };
}

macro_rules! flag {
    ($($f:ident).+) => {
        $crate::options::schema::Access {
            get: |o| $crate::options::schema::Literal::Bool(o.$($f).+),
            set: |o, v| o.$($f).+ = v.bool(),
        }
    };
}

macro_rules! number {
    ($($f:ident).+) => {
        $crate::options::schema::Access {
            get: |o| $crate::options::schema::Literal::Num(o.$($f).+),
            set: |o, v| o.$($f).+ = v.num(),
        }
    };
}

macro_rules! whole {
    ($($f:ident).+) => {
        $crate::options::schema::Access {
            get: |o| $crate::options::schema::Literal::Num(o.$($f).+ as f64),
            set: |o, v| o.$($f).+ = v.num() as u32,
        }
    };
}

/// An option's line of documentation. Only the tests read it (they hold
/// the options guide and the TypeScript declarations to it), so the shipped wasm
/// leaves the text out.
#[cfg(not(target_arch = "wasm32"))]
macro_rules! doc_line {
    ($text:literal) => {
        $text
    };
}
#[cfg(target_arch = "wasm32")]
macro_rules! doc_line {
    ($text:literal) => {
        ""
    };
}

pub(crate) use {choice, doc_line, flag, number, whole};
