//! Method arguments that are not options: sizes, frame times, the options
//! object itself, and `setImage`'s `{ gain }`. Pure Rust over the
//! JS-shaped [`Value`] tree, so the rules are unit tested natively; a bad
//! argument is an [`ArgumentError`] naming it.

use crate::error::ArgumentError;
use crate::options::{Allowed, OptionError, Value};

fn error(argument: &str, message: String) -> ArgumentError {
    ArgumentError {
        argument: argument.into(),
        message,
    }
}

/// Validates a size in device pixels: a finite, non-negative integer not
/// above `max`.
pub fn dimension(argument: &str, value: &Value, max: u32) -> Result<u32, ArgumentError> {
    match value {
        Value::Number(n) => {
            if !n.is_finite() || n.fract() != 0.0 || *n < 0.0 {
                Err(error(
                    argument,
                    format!(
                        "must be a whole number of device pixels from 0 to {max}, got {}",
                        value.describe()
                    ),
                ))
            } else if *n > max as f64 {
                Err(error(
                    argument,
                    format!(
                        "is {} but this device allows at most {max} (maxTextureDimension2D)",
                        value.describe()
                    ),
                ))
            } else {
                Ok(*n as u32)
            }
        }
        other => Err(error(
            argument,
            format!(
                "must be a number of device pixels from 0 to {max}, got {}",
                other.describe()
            ),
        )),
    }
}

/// Validates a frame time in seconds: a finite number (any size: the
/// chain reduces it modulo [`crate::chain::TIME_PERIOD_SECONDS`]);
/// `undefined` means 0.
pub fn time(value: &Value) -> Result<f64, ArgumentError> {
    match value {
        Value::Undefined => Ok(0.0),
        Value::Number(n) if n.is_finite() => Ok(*n),
        other => Err(error(
            "timeSeconds",
            format!("must be a finite number, got {}", other.describe()),
        )),
    }
}

/// An options argument must be an object (or be left out); what is in it
/// is then checked option by option.
pub fn options_object(argument: &str, value: &Value, example: &str) -> Result<(), ArgumentError> {
    match value {
        Value::Undefined | Value::Null | Value::Object(_) => Ok(()),
        other => Err(error(
            argument,
            format!("must be an object like {example}, got {}", other.describe()),
        )),
    }
}

/// The one key of a small options argument (`{ gain }`, `{ gpu }`): the
/// argument must be an object or left out, and no other key is allowed.
/// `None` when the key is absent or `undefined`.
fn only_key<'a>(
    value: &'a Value,
    key: &'static str,
    example: &str,
    what: &str,
) -> Result<Option<&'a Value>, crate::error::Error> {
    options_object("options", value, example)?;
    let Value::Object(entries) = value else {
        return Ok(None);
    };
    let mut found = None;
    for (k, v) in entries {
        if k != key {
            return Err(OptionError::one_of(
                k,
                &[key],
                format!("is not {what} option; allowed keys are '{key}'"),
            )
            .into());
        }
        if !matches!(v, Value::Undefined) {
            found = Some(v);
        }
    }
    Ok(found)
}

/// `{ gain }` of `setImage`: a finite number from 0 to 10000, default 1.
pub fn image_gain(value: &Value) -> Result<f32, crate::error::Error> {
    match only_key(value, "gain", "{ gain: 4 }", "an image")? {
        None => Ok(1.0),
        Some(Value::Number(n)) if n.is_finite() && (0.0..=1.0e4).contains(n) => Ok(*n as f32),
        Some(other) => Err(OptionError::new(
            "gain",
            Allowed::Range("a number from 0 to 10000".into()),
            format!("must be a number from 0 to 10000, got {}", other.describe()),
        )
        .into()),
    }
}

/// What `setTexture()`'s options object gives: whether a bloom texture and
/// a depth texture were given (their kinds are checked where they are
/// wrapped), and the camera that reads the depth.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TextureOptions {
    pub bloom: bool,
    pub depth: bool,
    pub camera: Option<Camera>,
}

/// `{ bloom, depth, camera }` of `setTexture()`. An unknown key is an
/// [`OptionError`] naming it; `camera` is read by [`camera`], and given
/// without `depth` it is an [`ArgumentError`] naming `camera`.
pub fn texture_options(value: &Value) -> Result<TextureOptions, crate::error::Error> {
    const KEYS: &[&str] = &["bloom", "depth", "camera"];
    options_object("options", value, "{ bloom: emissiveTexture }")?;
    let Value::Object(entries) = value else {
        return Ok(TextureOptions::default());
    };
    let mut o = TextureOptions::default();
    for (k, v) in entries {
        let given = !matches!(v, Value::Undefined | Value::Null);
        match k.as_str() {
            "bloom" => o.bloom = given,
            "depth" => o.depth = given,
            "camera" if given => o.camera = Some(camera(v)?),
            "camera" => {}
            _ => {
                return Err(OptionError::one_of(
                    k,
                    KEYS,
                    "is not a texture option; allowed keys are 'bloom', 'depth' and 'camera'",
                )
                .into())
            }
        }
    }
    if o.camera.is_some() && !o.depth {
        return Err(error(
            "camera",
            "is given without depth: the camera says how to read the depth texture \
             ({ depth, camera })"
                .into(),
        )
        .into());
    }
    Ok(o)
}

/// `{ gpu }` of `stats()`: `true` turns per-pass GPU timing on (it stays
/// on), `false` off; `None` when left out (no change).
pub fn stats_gpu(value: &Value) -> Result<Option<bool>, crate::error::Error> {
    match only_key(value, "gpu", "{ gpu: true }", "a stats")? {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => Err(OptionError::new(
            "gpu",
            Allowed::true_or_false(),
            format!("must be true or false, got {}", other.describe()),
        )
        .into()),
    }
}

/// How a depth texture's values are read: the camera's clip planes and
/// its projection. A depth buffer holds 0 at `near` and 1 at `far` (the
/// other way round with `reversed_z`), non-linearly for a perspective
/// camera; an `r32float` texture of linear distance needs none of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// Distance of the near clip plane, in the camera's units (above 0;
    /// for an orthographic camera any finite distance, negative behind it).
    pub near: f32,
    /// Distance of the far clip plane (beyond `near`, finite).
    pub far: f32,
    /// The depth buffer holds 1 at `near` and 0 at `far`.
    pub reversed_z: bool,
    /// An orthographic projection: depth is linear between the planes.
    pub orthographic: bool,
}

impl Camera {
    /// A perspective camera with a standard (not reversed) depth buffer.
    pub fn perspective(near: f32, far: f32) -> Camera {
        Camera {
            near,
            far,
            reversed_z: false,
            orthographic: false,
        }
    }

    /// An orthographic camera with a standard depth buffer.
    pub fn orthographic(near: f32, far: f32) -> Camera {
        Camera {
            orthographic: true,
            ..Camera::perspective(near, far)
        }
    }

    /// The same camera with a reversed depth buffer (1 at `near`).
    pub fn reversed(self) -> Camera {
        Camera {
            reversed_z: true,
            ..self
        }
    }

    /// Whether the planes can be read: `near` above 0 (any finite distance
    /// for an orthographic camera, behind it too) and `far` finite and
    /// beyond it. The error
    /// names `camera.near` or `camera.far`.
    pub(crate) fn check(&self) -> Result<(), ArgumentError> {
        check_planes(
            (f64::from(self.near), f64::from(self.far)),
            self.orthographic,
            spell,
        )
    }
}

/// An `f32` in an error message: natively as Rust writes it; in the wasm
/// through JavaScript's `String` (Rust's float formatting would add
/// kilobytes there).
#[cfg(not(target_arch = "wasm32"))]
fn spell(x: f64) -> String {
    format!("{}", x as f32)
}
#[cfg(target_arch = "wasm32")]
fn spell(x: f64) -> String {
    crate::options::value::format_number(x)
}

/// [`Camera::check`] on the planes as given (JavaScript's numbers, before
/// they are narrowed), each written in messages by `spelled`.
fn check_planes(
    (near, far): (f64, f64),
    orthographic: bool,
    spelled: fn(f64) -> String,
) -> Result<(), ArgumentError> {
    // An orthographic camera's depth is linear between its planes wherever
    // they are, so its near plane may lie behind it (three.js's
    // `OrthographicCamera(…, -1000, 1000)`); a perspective one divides by
    // the distance, so its near plane lies in front.
    let (least, what) = if orthographic {
        (f64::from(-f32::MAX), "")
    } else {
        (f64::from(f32::MIN_POSITIVE), " above 0")
    };
    if !(near.is_finite() && near >= least) {
        return Err(error(
            "camera.near",
            format!(
                "is {}; the near plane's distance is a finite number{what}",
                spelled(near)
            ),
        ));
    }
    // Beyond near also once narrowed to the f32 the GPU reads, and with
    // the span between them finite there (the shader divides by it).
    let (near32, far32) = (near as f32, far as f32);
    if !(far.is_finite() && far > near && far32 > near32 && (far32 - near32).is_finite()) {
        return Err(error(
            "camera.far",
            format!(
                "is {} with camera.near {}; the far plane is a finite distance beyond the near one",
                spelled(far),
                spelled(near)
            ),
        ));
    }
    Ok(())
}

/// `camera` of `setTexture()`: `{ near, far, reversedZ, orthographic }`,
/// `near` and `far` numbers (checked by [`Camera::check`]), the flags
/// booleans defaulting to false. Any other key or kind of value is an
/// [`ArgumentError`] naming `camera` or `camera.<field>`.
pub fn camera(value: &Value) -> Result<Camera, ArgumentError> {
    const KEYS: [&str; 4] = ["near", "far", "reversedZ", "orthographic"];
    let Value::Object(fields) = value else {
        return Err(error(
            "camera",
            format!(
                "must be an object {{ near, far, reversedZ?, orthographic? }}, got {}",
                value.describe()
            ),
        ));
    };
    // near and far, then the two flags; a plane left out (or undefined)
    // stays None, to be reported missing.
    let (mut planes, mut flags) = ([None; 2], [false; 2]);
    for (key, v) in fields {
        let at = KEYS.iter().position(|k| k == key);
        match (at, v) {
            (Some(i @ 0..=1), Value::Number(n)) => planes[i] = Some(*n),
            (Some(i @ 2..=3), Value::Bool(b)) => flags[i - 2] = *b,
            (Some(_), Value::Undefined) => {}
            (Some(i), _) => {
                let kind = if i < 2 { "a number" } else { "true or false" };
                return Err(error(
                    &format!("camera.{key}"),
                    format!("must be {kind}, got {}", v.describe()),
                ));
            }
            (None, _) => {
                return Err(error(
                    &format!("camera.{key}"),
                    format!(
                        "is not a field of camera; its fields are {}",
                        crate::options::value::quote_list(&KEYS)
                    ),
                ))
            }
        }
    }
    let [Some(near), Some(far)] = planes else {
        let key = if planes[0].is_none() { "near" } else { "far" };
        return Err(error(
            &format!("camera.{key}"),
            "is missing; the camera needs both planes, { near, far }, as numbers".into(),
        ));
    };
    let [reversed_z, orthographic] = flags;
    check_planes(
        (near, far),
        orthographic,
        crate::options::value::format_number,
    )?;
    Ok(Camera {
        near: near as f32,
        far: far as f32,
        reversed_z,
        orthographic,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::options::AllowedValue;

    #[test]
    fn dimensions() {
        assert_eq!(dimension("width", &Value::Number(640.0), 8192), Ok(640));
        assert_eq!(dimension("width", &Value::Number(0.0), 8192), Ok(0));
        for bad in [
            Value::Number(-1.0),
            Value::Number(f64::NAN),
            Value::Number(f64::INFINITY),
            Value::Number(1.5),
            Value::String("640".into()),
            Value::Undefined,
        ] {
            let e = dimension("width", &bad, 8192).unwrap_err();
            assert_eq!(e.argument, "width");
        }
        let e = dimension("height", &Value::Number(9000.0), 8192).unwrap_err();
        assert!(e.message.contains("8192"), "{e}");
        assert_eq!(
            e.to_string(),
            "argument 'height' is 9000 but this device allows at most 8192 (maxTextureDimension2D)"
        );
    }

    #[test]
    fn times() {
        assert_eq!(time(&Value::Undefined), Ok(0.0));
        assert_eq!(time(&Value::Number(1.25)), Ok(1.25));
        assert_eq!(
            time(&Value::Number(f64::NAN)).unwrap_err().argument,
            "timeSeconds"
        );
        assert!(time(&Value::String("1".into())).is_err());
    }

    #[test]
    fn gains() {
        let obj = |k: &str, v: Value| Value::Object(vec![(k.into(), v)]);
        assert_eq!(image_gain(&Value::Undefined), Ok(1.0));
        assert_eq!(image_gain(&obj("gain", Value::Number(4.0))), Ok(4.0));
        match image_gain(&obj("gain", Value::Number(-1.0))) {
            Err(Error::Option(e)) => assert_eq!(e.field, "gain"),
            other => panic!("{other:?}"),
        }
        match image_gain(&obj("gian", Value::Number(2.0))) {
            Err(Error::Option(e)) => {
                assert_eq!(e.field, "gian");
                assert_eq!(
                    e.allowed,
                    Allowed::OneOf(vec![AllowedValue::Text("gain".into())])
                );
            }
            other => panic!("{other:?}"),
        }
        match image_gain(&Value::Number(3.0)) {
            Err(Error::Argument(e)) => assert_eq!(e.argument, "options"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn texture_options_read_depth_and_its_camera() {
        let obj = |entries: Vec<(&str, Value)>| {
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v))
                    .collect(),
            )
        };
        let camera = |near: f64, far: f64| {
            obj(vec![
                ("near", Value::Number(near)),
                ("far", Value::Number(far)),
            ])
        };
        let texture = || Value::Other("GPUTexture".into());
        let o = texture_options(&obj(vec![
            ("depth", texture()),
            ("camera", camera(0.1, 50.0)),
        ]));
        assert_eq!(
            o,
            Ok(TextureOptions {
                bloom: false,
                depth: true,
                camera: Some(Camera::perspective(0.1, 50.0)),
            })
        );
        let flagged = obj(vec![
            ("near", Value::Number(1.0)),
            ("far", Value::Number(9.0)),
            ("reversedZ", Value::Bool(true)),
            ("orthographic", Value::Bool(true)),
        ]);
        let o = texture_options(&obj(vec![("depth", texture()), ("camera", flagged)]));
        assert_eq!(
            o.map(|o| o.camera),
            Ok(Some(Camera::orthographic(1.0, 9.0).reversed()))
        );
        let refused = |camera: Value| match texture_options(&obj(vec![
            ("depth", texture()),
            ("camera", camera),
        ])) {
            Err(Error::Argument(e)) => e.argument,
            other => panic!("{other:?}"),
        };
        assert_eq!(refused(camera(0.0, 1.0)), "camera.near");
        // three.js's usual orthographic camera: its near plane behind it.
        let ortho = |near: f64, far: f64| {
            obj(vec![
                ("near", Value::Number(near)),
                ("far", Value::Number(far)),
                ("orthographic", Value::Bool(true)),
            ])
        };
        let o = texture_options(&obj(vec![
            ("depth", texture()),
            ("camera", ortho(-1000.0, 1000.0)),
        ]));
        assert_eq!(
            o.map(|o| o.camera),
            Ok(Some(Camera::orthographic(-1000.0, 1000.0)))
        );
        assert_eq!(Camera::orthographic(-1000.0, 1000.0).check(), Ok(()));
        assert_eq!(refused(ortho(f64::NEG_INFINITY, 1.0)), "camera.near");
        assert_eq!(refused(ortho(-1e39, 1.0)), "camera.near");
        assert_eq!(refused(ortho(-3e38, 3e38)), "camera.far");
        assert_eq!(refused(ortho(-2.0, -3.0)), "camera.far");
        assert_eq!(
            Camera::perspective(-1.0, 10.0)
                .check()
                .map_err(|e| e.argument),
            Err("camera.near".to_string())
        );
        assert_eq!(refused(camera(2.0, 1.0)), "camera.far");
        assert_eq!(refused(camera(0.1, f64::INFINITY)), "camera.far");
        assert_eq!(refused(Value::Number(3.0)), "camera");
        assert_eq!(
            refused(obj(vec![("near", Value::String("1".into()))])),
            "camera.near"
        );
        assert_eq!(
            refused(obj(vec![("near", Value::Number(1.0))])),
            "camera.far"
        );
        // A plane left out is missing, not NaN.
        let missing = |camera: Value| match texture_options(&obj(vec![
            ("depth", texture()),
            ("camera", camera),
        ])) {
            Err(Error::Argument(e)) => e.to_string(),
            other => panic!("{other:?}"),
        };
        let far_only = missing(obj(vec![("far", Value::Number(9.0))]));
        assert!(far_only.contains("'camera.near' is missing"), "{far_only}");
        let undefined_far = missing(obj(vec![
            ("near", Value::Number(1.0)),
            ("far", Value::Undefined),
        ]));
        assert!(
            undefined_far.contains("'camera.far' is missing"),
            "{undefined_far}"
        );
        assert!(!missing(obj(vec![])).contains("NaN"));
        let flag = obj(vec![
            ("near", Value::Number(1.0)),
            ("far", Value::Number(9.0)),
            ("reversedZ", Value::Number(1.0)),
        ]);
        assert_eq!(refused(flag), "camera.reversedZ");
        assert_eq!(
            refused(obj(vec![("fov", Value::Number(1.0))])),
            "camera.fov"
        );
        // A camera without depth.
        match texture_options(&obj(vec![("camera", camera(0.1, 5.0))])) {
            Err(Error::Argument(e)) => assert_eq!(e.argument, "camera"),
            other => panic!("{other:?}"),
        }
        match texture_options(&obj(vec![("dpeth", texture())])) {
            Err(Error::Option(e)) => assert_eq!(e.field, "dpeth"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn stats_gpu_is_true_false_or_left_out() {
        use crate::error::Error;
        let obj = |k: &str, v: Value| Value::Object(vec![(k.to_string(), v)]);
        assert_eq!(stats_gpu(&Value::Undefined), Ok(None));
        assert_eq!(stats_gpu(&obj("gpu", Value::Bool(true))), Ok(Some(true)));
        assert_eq!(stats_gpu(&obj("gpu", Value::Undefined)), Ok(None));
        match stats_gpu(&obj("gpu", Value::String("yes".into()))) {
            Err(Error::Option(e)) => assert_eq!(e.field, "gpu"),
            other => panic!("{other:?}"),
        }
        match stats_gpu(&obj("gpus", Value::Bool(true))) {
            Err(Error::Option(e)) => assert!(e.message.contains("'gpu'"), "{e}"),
            other => panic!("{other:?}"),
        }
        match stats_gpu(&Value::Number(1.0)) {
            Err(Error::Argument(e)) => assert_eq!(e.argument, "options"),
            other => panic!("{other:?}"),
        }
    }
}
