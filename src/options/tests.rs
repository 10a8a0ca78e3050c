//! Option parsing and the schema table, natively.

use super::schema::{Kind, Literal};
use super::table::schema;
use super::*;

fn obj(entries: Vec<(&str, Value)>) -> Value {
    Value::Object(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
}
fn s(v: &str) -> Value {
    Value::String(v.into())
}
fn text(v: &str) -> AllowedValue {
    AllowedValue::Text(v.into())
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
            dynamic_range: DynamicRange::Standard,
            headroom: 2.0,
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
    let e =
        Options::from_value(&obj(vec![("canvas", obj(vec![("alpha", s("opaque"))]))])).unwrap_err();
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

/// The percentiles are positions in the histogram: `highPercentile` at or
/// below `lowPercentile` is refused by an error naming both, from
/// JavaScript and from Rust, and the options in use stay as they were.
#[test]
fn high_percentile_must_be_above_low_percentile() {
    let percentiles = |low: f64, high: f64| {
        obj(vec![(
            "autoExposure",
            obj(vec![
                ("lowPercentile", Value::Number(low)),
                ("highPercentile", Value::Number(high)),
            ]),
        )])
    };
    let ok = Options::from_value(&percentiles(0.1, 0.9)).unwrap();
    assert_eq!(ok.auto_exposure.high_percentile, 0.9);
    assert_eq!(Options::default().auto_exposure.low_percentile, 0.1);
    assert_eq!(Options::default().auto_exposure.high_percentile, 0.9);
    assert!(Options::from_value(&percentiles(0.5, 0.55)).is_ok());
    for (low, high) in [(0.1, 0.1), (0.5, 0.4), (0.9, 0.1)] {
        let e = ok.merged(&percentiles(low, high)).unwrap_err();
        assert_eq!(e.field, "autoExposure.highPercentile", "{e}");
        assert!(e.message.contains("autoExposure.lowPercentile"), "{e}");
        assert_eq!(
            e.allowed,
            Allowed::Range(format!(
                "a number above autoExposure.lowPercentile ({low}) up to 1"
            ))
        );
    }
    // Setting only one of them is checked against the other in use.
    let e = ok
        .merged(&obj(vec![(
            "autoExposure",
            obj(vec![("lowPercentile", Value::Number(0.95))]),
        )]))
        .unwrap_err();
    assert_eq!(e.field, "autoExposure.highPercentile");
    let mut rust = Options::default();
    rust.auto_exposure.high_percentile = 0.05;
    assert_eq!(
        rust.validate().unwrap_err().field,
        "autoExposure.highPercentile"
    );
    // Out of 0 to 1, each is refused by its own name first.
    let e = Options::from_value(&percentiles(0.1, 1.5)).unwrap_err();
    assert_eq!(e.field, "autoExposure.highPercentile");
    assert!(!e.message.contains("lowPercentile"), "{e}");
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
fn every_default_comes_from_the_table() {
    let d = Options::default();
    for spec in schema() {
        assert_eq!(spec.get(&d), spec.default, "{}", spec.path);
        // The default is a value the option accepts.
        assert_eq!(
            spec.check(&spec.default.to_value()),
            Ok(Some(spec.default)),
            "{}",
            spec.path
        );
    }
    // The documented defaults, spelled out once more.
    assert_eq!(
        (d.msaa, d.resolve, d.tonemapper, d.exposure),
        (Msaa::X4, Resolve::Hardware, Tonemapper::Agx, 1.0)
    );
    assert_eq!((d.bloom.intensity, d.bloom.levels), (1.6, 7));
}

#[test]
fn every_option_is_read_and_written_by_its_own_accessor() {
    // Set each option to a value other than its default: only that option
    // changes, and it reads back.
    for spec in schema() {
        let other = match spec.kind {
            Kind::Bool => Literal::Bool(spec.default != Literal::Bool(true)),
            Kind::Choice(names) => Literal::Str(
                names
                    .iter()
                    .find(|n| Literal::Str(n) != spec.default)
                    .unwrap(),
            ),
            Kind::Count { values, .. } => Literal::Num(
                values
                    .iter()
                    .map(|v| *v as f64)
                    .find(|v| Literal::Num(*v) != spec.default)
                    .unwrap(),
            ),
            // The other end where the default is the maximum.
            Kind::Number { min, max, .. } => Literal::Num(if spec.default == Literal::Num(max) {
                min
            } else {
                max
            }),
            Kind::Integer { min, .. } => Literal::Num(min as f64),
        };
        assert_ne!(other, spec.default, "{}", spec.path);
        let mut o = Options::default();
        (spec.access.set)(&mut o, other);
        assert_eq!(spec.get(&o), other, "{}", spec.path);
        for s in schema().iter().filter(|s| s.path != spec.path) {
            assert_eq!(
                s.get(&o),
                s.get(&Options::default()),
                "{} moved {}",
                spec.path,
                s.path
            );
        }
    }
}

#[test]
fn predictable_is_the_defaults_without_msaa_dither_bloom_or_curve() {
    let d = Options::default();
    let o = Options {
        msaa: Msaa::Off,
        dither: false,
        tonemapper: Tonemapper::None,
        bloom: BloomOptions {
            enabled: false,
            ..d.bloom
        },
        ..d
    };
    assert_eq!(super::types::PREDICTABLE, o);
}

#[test]
fn options_come_back_as_js_prints_them() {
    let v = Options::default().to_value();
    assert_eq!(v.get("bloom").get("intensity"), &Value::Number(1.6));
    assert_eq!(v.get("msaa"), &Value::Number(4.0));
    assert_eq!(v.get("canvas").get("alphaMode"), &s("opaque"));
    // Every option is there, nothing else.
    let Value::Object(root) = &v else { panic!() };
    let keys: Vec<&str> = root.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, table::keys_of(""));
    let mut leaves = 0;
    for (_, value) in root {
        leaves += match value {
            Value::Object(inner) => inner.len(),
            _ => 1,
        };
    }
    assert_eq!(leaves, schema().len());
}

#[test]
fn reshaping_options_are_the_ones_that_rebuild() {
    let base = Options::default();
    let rebuild: Vec<&str> = schema()
        .iter()
        .filter(|s| s.effect == Effect::Rebuild)
        .map(|s| s.path)
        .collect();
    // The frame's own options that change its passes or their pipelines
    // (the effects' switches: `tests::schema`, from the effects).
    for path in [
        "msaa",
        "resolve",
        "tonemapper",
        "dither",
        "bloom.enabled",
        "bloom.radius",
        "bloom.levels",
        "bloom.blur",
        "bloom.iterations",
        "bloom.mode",
        "autoExposure.enabled",
        "debug",
    ] {
        assert!(rebuild.contains(&path), "{path} reshapes the frame");
    }
    for path in [
        "exposure",
        "bloom.threshold",
        "bloom.knee",
        "bloom.intensity",
        "autoExposure.compensation",
        "canvas.headroom",
        "renderScale",
    ] {
        assert!(
            !rebuild.contains(&path),
            "{path} only changes uniforms or sizes"
        );
    }
    let mut o = base;
    o.bloom.intensity = 2.0;
    o.exposure = 3.0;
    assert!(!reshapes(&base, &o));
    o.tonemapper = Tonemapper::Aces;
    assert!(
        reshapes(&base, &o),
        "the composite is specialised per tonemapper"
    );
    let mut o = base;
    o.bloom.levels = 4;
    assert!(reshapes(&base, &o));
    let mut o = base;
    o.msaa = Msaa::Off;
    assert!(reshapes(&base, &o));
    assert!(changes(&base, &o, Effect::Rebuild));
    assert!(!changes(&base, &o, Effect::Canvas));
}

#[test]
fn errors_say_what_is_allowed() {
    let e = Options::from_value(&obj(vec![("tonemapper", s("filmic"))])).unwrap_err();
    assert_eq!(
        e.allowed,
        Allowed::OneOf(Tonemapper::NAMES.iter().map(|n| text(n)).collect())
    );
    let e = Options::from_value(&obj(vec![(
        "bloom",
        obj(vec![("radius", Value::Number(9.0))]),
    )]))
    .unwrap_err();
    assert_eq!(e.field, "bloom.radius");
    assert_eq!(e.allowed, Allowed::Range("a number from 0.1 to 4".into()));
    let e = Options::from_value(&obj(vec![("msaa", Value::Number(2.0))])).unwrap_err();
    assert_eq!(
        e.allowed,
        Allowed::OneOf(vec![AllowedValue::Number(1.0), AllowedValue::Number(4.0)])
    );
    let e = Options::from_value(&obj(vec![("dither", s("yes"))])).unwrap_err();
    assert_eq!(
        e.allowed,
        Allowed::OneOf(vec![AllowedValue::Bool(true), AllowedValue::Bool(false)])
    );
    let e = Options::from_value(&obj(vec![(
        "bloom",
        obj(vec![("glow", Value::Number(1.0))]),
    )]))
    .unwrap_err();
    assert_eq!(e.field, "bloom.glow");
    let Allowed::OneOf(keys) = &e.allowed else {
        panic!("{e:?}")
    };
    assert_eq!(keys.len(), 10);
    assert!(keys.contains(&text("intensity")));
    let e = Options::from_value(&obj(vec![("bloom", Value::Number(1.0))])).unwrap_err();
    assert_eq!(e.allowed, Allowed::Range("an object".into()));
    // Cross-option rules: what is left given the other options.
    let e = Options::from_value(&obj(vec![
        ("resolve", s("tonemapped")),
        ("msaa", Value::Number(1.0)),
    ]))
    .unwrap_err();
    assert_eq!(e.allowed, Allowed::OneOf(vec![text("hardware")]));
    let e = Options::from_value(&obj(vec![(
        "canvas",
        obj(vec![("toneMapping", s("extended"))]),
    )]))
    .unwrap_err();
    assert_eq!(e.allowed, Allowed::OneOf(vec![text("standard")]));
    // Rendering fewer pixels: the upscaler's two choices, sharpening's range.
    let e = Options::from_value(&obj(vec![("upscale", s("fsr"))])).unwrap_err();
    assert_eq!(e.field, "upscale");
    assert_eq!(
        e.allowed,
        Allowed::OneOf(vec![text("bilinear"), text("edge")])
    );
    for amount in [-0.1, 1.5, f64::NAN] {
        let e = Options::from_value(&obj(vec![(
            "sharpen",
            obj(vec![("amount", Value::Number(amount))]),
        )]))
        .unwrap_err();
        assert_eq!(e.field, "sharpen.amount", "{amount}");
        assert_eq!(e.allowed, Allowed::Range("a number from 0 to 1".into()));
    }
}

#[test]
fn option_paths_split_at_their_dots() {
    use super::schema::path_keys;
    assert_eq!(
        path_keys("bloom.intensity").collect::<Vec<_>>(),
        ["bloom", "intensity"]
    );
    assert_eq!(path_keys("msaa").collect::<Vec<_>>(), ["msaa"]);
    assert_eq!(path_keys("a..b.").collect::<Vec<_>>(), ["a", "", "b", ""]);
    for spec in schema() {
        let keys: Vec<&str> = spec.path.split('.').collect();
        assert_eq!(path_keys(spec.path).collect::<Vec<_>>(), keys);
        assert_eq!(spec.key(), *keys.last().unwrap());
        assert_eq!(spec.group(), keys[..keys.len() - 1].join("."));
    }
}

#[test]
fn a_number_that_rounds_to_an_excluded_minimum_is_refused() {
    // `exposure` must be above 0: Number.MIN_VALUE is 0 as the GPU's f32,
    // and a subnormal f32 may be flushed to 0 there.
    for tiny in [5e-324, 1e-46, 1e-45, 1e-39] {
        let e = Options::default()
            .merged(&obj(vec![("exposure", Value::Number(tiny))]))
            .unwrap_err();
        assert_eq!(e.field, "exposure", "{tiny}");
    }
    // The smallest normal f32 is above 0 there, and kept.
    let o = Options::default()
        .merged(&obj(vec![("exposure", Value::Number(1.2e-38))]))
        .unwrap();
    assert!(o.exposure > 0.0);
    // Where the minimum is allowed, a tiny number is simply a number.
    let o = Options::default()
        .merged(&obj(vec![(
            "bloom",
            obj(vec![("threshold", Value::Number(5e-324))]),
        )]))
        .unwrap();
    assert_eq!(o.bloom.threshold, 5e-324);
}
