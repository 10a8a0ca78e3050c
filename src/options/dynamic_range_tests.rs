//! `canvas.dynamicRange`: parsing, the rules with `format` and
//! `toneMapping`, and the options in effect for a display.

use super::*;

fn obj(entries: Vec<(&str, Value)>) -> Value {
    Value::Object(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
}
fn s(v: &str) -> Value {
    Value::String(v.into())
}

#[test]
fn dynamic_range_auto_picks_the_canvas_from_the_display() {
    let auto = Options::from_value(&obj(vec![(
        "canvas",
        obj(vec![("dynamicRange", s("auto"))]),
    )]))
    .expect("valid");
    assert_eq!(auto.canvas.dynamic_range, DynamicRange::Auto);
    // options() reports what was set, not what the display chose.
    assert_eq!(auto.canvas.format, CanvasFormat::Preferred);
    let hdr = auto.for_display(true);
    assert_eq!(hdr.canvas.format, CanvasFormat::Rgba16Float);
    assert_eq!(hdr.canvas.tone_mapping, ToneMapping::Extended);
    assert_eq!(auto.for_display(false), auto);
    let standard = Options::default();
    assert_eq!(standard.for_display(true), standard);
}

#[test]
fn dynamic_range_auto_leaves_format_and_tone_mapping_to_itself() {
    let auto = obj(vec![("dynamicRange", s("auto"))]);
    let e = Options::default()
        .merged(&obj(vec![(
            "canvas",
            obj(vec![
                ("dynamicRange", s("auto")),
                ("format", s("rgba16float")),
            ]),
        )]))
        .unwrap_err();
    assert_eq!(e.field, "canvas.format");
    assert_eq!(
        e.allowed,
        Allowed::OneOf(vec![AllowedValue::Text("preferred".into())])
    );
    assert!(e.message.contains("dynamicRange"), "{e}");
    let with_auto = Options::default()
        .merged(&obj(vec![("canvas", auto)]))
        .expect("valid");
    let e = with_auto
        .merged(&obj(vec![(
            "canvas",
            obj(vec![("toneMapping", s("extended"))]),
        )]))
        .unwrap_err();
    assert_eq!(e.field, "canvas.toneMapping");
    assert_eq!(
        e.allowed,
        Allowed::OneOf(vec![AllowedValue::Text("standard".into())])
    );
    // Back to 'standard', the format can be set again.
    with_auto
        .merged(&obj(vec![(
            "canvas",
            obj(vec![
                ("dynamicRange", s("standard")),
                ("format", s("rgba16float")),
            ]),
        )]))
        .expect("valid");
}
