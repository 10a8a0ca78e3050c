//! The option schema against what documents it: the options guide's
//! table (`docs/options.md`, written from the schema with
//! `AFTERGLOW_BLESS=1`), the TypeScript declarations (`src/web/afterglow.d.ts`) and the
//! demo panel's `SCHEMA` (`www/panel.js`) list exactly the schema's
//! options, with its allowed values, defaults and ranges; the panel gives
//! each a plain label, and `www/option-table.js` (its tooltips and its
//! "Library defaults") is the schema's defaults and documentation lines.
//! Also: every error name is declared and documented.

use std::collections::BTreeSet;

use crate::error::{
    ArgumentError, DeviceErrorKind, Error, ShaderError, StateErrorKind, TextureRuleError,
};
use crate::graph::GraphError;
use crate::options::schema::GroupSpec;
use crate::options::table::{keys_of, spec};
use crate::options::{groups, schema, Allowed, Kind, Literal, OptionError, OptionSpec};

const OPTIONS_GUIDE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/options.md"));
const API_GUIDE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/api.md"));
const DTS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/src/web/afterglow.d.ts"
));
const PANEL: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/www/panel.js"));

fn paths() -> BTreeSet<&'static str> {
    schema().iter().map(|s| s.path).collect()
}

fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The part of `text` from the line `start` up to the next line starting
/// with `end`.
fn section<'a>(text: &'a str, start: &str, end: &str) -> &'a str {
    let from = text.find(start).unwrap_or_else(|| panic!("no {start:?}"));
    let rest = &text[from + start.len()..];
    let to = rest.find(end).unwrap_or(rest.len());
    &rest[..to]
}

// ---- the options guide ----

/// The options guide's "values" cell for an option.
fn readme_values(spec: &OptionSpec) -> String {
    match spec.kind {
        Kind::Bool => "`true`, `false`".into(),
        Kind::Choice(names) => names
            .iter()
            .map(|n| format!("`'{n}'`"))
            .collect::<Vec<_>>()
            .join(", "),
        Kind::Count { values, .. } => values
            .iter()
            .map(|v| format!("`{v}`"))
            .collect::<Vec<_>>()
            .join(", "),
        Kind::Number {
            min,
            max,
            above_min,
        } => format!(
            "number, {}{min} to {max}",
            if above_min { "above " } else { "" }
        ),
        Kind::Integer { min, max } => format!("whole number, {min} to {max}"),
    }
}

/// The options guide's table as the schema writes it: one row per option,
/// in the schema's order, with its values and default; each row keeps the
/// description `guide` gives it (the schema's documentation line for an
/// option the guide does not have yet).
fn options_guide_table(guide: &str) -> String {
    let mut described = std::collections::BTreeMap::new();
    for line in guide.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line
            .trim_start_matches("| ")
            .trim_end_matches(" |")
            .splitn(4, " | ")
            .collect();
        if let [path, _, _, what] = cells[..] {
            described.insert(path.trim_matches('`').to_string(), what.to_string());
        }
    }
    let mut out = String::from("| option | values | default | what it does |\n|---|---|---|---|\n");
    for spec in schema() {
        let what = described
            .get(spec.path)
            .cloned()
            .unwrap_or_else(|| spec.doc.to_string());
        out.push_str(&format!(
            "| `{}` | {} | `{}` | {what} |\n",
            spec.path,
            readme_values(spec),
            spec.default.js()
        ));
    }
    out
}

#[test]
fn the_options_guide_table_is_the_schema() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/options.md");
    let table = section(OPTIONS_GUIDE, "\n## The table\n", "\n## ").trim();
    let expected = options_guide_table(table);
    if std::env::var_os("AFTERGLOW_BLESS").is_some() {
        let text = OPTIONS_GUIDE.replacen(table, expected.trim(), 1);
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    for (found, wanted) in table.lines().zip(expected.lines()) {
        assert_eq!(found, wanted, "a row of the options guide's table");
    }
    assert_eq!(
        table.lines().count(),
        expected.lines().count(),
        "rows of the options guide's table; write it again with \
         AFTERGLOW_BLESS=1 cargo test --lib tests::schema"
    );
}

#[test]
fn the_api_guide_documents_every_error_name_and_field() {
    let api = API_GUIDE;
    for (name, fields) in error_fields() {
        assert!(
            api.contains(&format!("`{name}`")),
            "docs/api.md lacks {name}"
        );
        for f in fields {
            assert!(
                api.contains(&format!("`{f}`")),
                "docs/api.md lacks the field {f} of {name}"
            );
        }
    }
}

// ---- TypeScript declarations ----

/// A member of a TypeScript interface: its doc comment, name, type.
struct Member {
    doc: String,
    name: String,
    ty: String,
}

fn interface(name: &str) -> Vec<Member> {
    let body = section(DTS, &format!("export interface {name} "), "\n}");
    let body = body.trim_start_matches(|c| c != '\n');
    let mut members = Vec::new();
    let mut doc = String::new();
    let mut in_doc = false;
    for line in body.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if line.starts_with("/**") {
            in_doc = true;
            doc.clear();
        }
        if in_doc {
            let text = line
                .trim_start_matches("/**")
                .trim_end_matches("*/")
                .trim_start_matches('*');
            doc.push(' ');
            doc.push_str(text);
            in_doc = !line.ends_with("*/");
            continue;
        }
        let (name, ty) = line
            .trim_end_matches(';')
            .split_once(':')
            .unwrap_or_else(|| panic!("{name}: cannot read {line:?}"));
        members.push(Member {
            doc: normalize(&doc),
            name: name.trim_end_matches('?').to_string(),
            ty: ty.trim().to_string(),
        });
        doc.clear();
    }
    members
}

/// The TypeScript type of an option.
fn ts_type(spec: &OptionSpec) -> String {
    match spec.kind {
        Kind::Bool => "boolean".into(),
        Kind::Choice(names) => names
            .iter()
            .map(|n| format!("'{n}'"))
            .collect::<Vec<_>>()
            .join(" | "),
        Kind::Count { values, .. } => values
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(" | "),
        Kind::Number { .. } | Kind::Integer { .. } => "number".into(),
    }
}

/// The path of `key` in the object at `group`.
fn joined(group: &str, key: &str) -> String {
    if group.is_empty() {
        key.to_string()
    } else {
        format!("{group}.{key}")
    }
}

/// The object of options at `path`, if it is one.
fn group_at(path: &str) -> Option<&'static GroupSpec> {
    groups().iter().find(|g| g.path == path)
}

#[test]
fn the_option_groups_are_the_tables() {
    let mut interfaces = BTreeSet::new();
    for g in groups() {
        assert!(interfaces.insert(g.interface), "{} twice", g.interface);
        assert!(!g.doc.is_empty(), "{} has no documentation", g.interface);
        assert!(!keys_of(g.path).is_empty(), "no option in '{}'", g.path);
        if !g.path.is_empty() {
            let (parent, key) = g.path.rsplit_once('.').unwrap_or(("", g.path));
            assert!(
                group_at(parent).is_some() && keys_of(parent).contains(&key),
                "'{}' sits in no declared group",
                g.path
            );
        }
    }
    // Every object of the table is declared: each key is an option or a group.
    for g in groups() {
        for key in keys_of(g.path) {
            let path = joined(g.path, key);
            assert!(
                spec(&path).is_some() || group_at(&path).is_some(),
                "'{path}' is a group of the table that `groups!` (src/options/table.rs) lacks"
            );
        }
    }
    assert!(group_at("").is_some(), "the top level is not declared");
}

/// Columns of the generated declarations' documentation.
const WIDTH: usize = 92;

/// `words` as a `/** … */` comment at `indent`, wrapped at [`WIDTH`]
/// columns (a word may hold spaces that do not break).
fn doc_comment(words: &[String], indent: &str) -> String {
    let columns = |s: &str| s.chars().count();
    let fresh = format!("{indent} *");
    let mut out = String::new();
    let mut line = format!("{indent}/**");
    let mut empty = true;
    for (i, word) in words.iter().enumerate() {
        // The last word carries the closing ` */`.
        let tail = if i + 1 == words.len() { 3 } else { 0 };
        if !empty && columns(&line) + 1 + columns(word) + tail > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line = fresh.clone();
        }
        line.push(' ');
        line.push_str(word);
        empty = false;
    }
    out.push_str(&line);
    out.push_str(" */\n");
    out
}

/// The words of `text`.
fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

/// An option's documentation in the declarations: the table's line, its
/// range for a number, and its default (kept on one line).
fn member_doc(spec: &OptionSpec) -> Vec<String> {
    assert!(
        spec.doc.ends_with('.'),
        "the doc of {} is a sentence ending in a full stop: {:?}",
        spec.path,
        spec.doc
    );
    let mut doc = words(spec.doc);
    if matches!(spec.kind, Kind::Number { .. } | Kind::Integer { .. }) {
        doc.extend(words(&format!("{}.", capitalized(&spec.kind.describe()))));
    }
    doc.push(format!("Default `{}`.", spec.default.js()));
    doc
}

/// `Required` all the way down the object at `group`.
fn effective(group: &GroupSpec, indent: &str) -> String {
    let subs: Vec<(&str, &GroupSpec)> = keys_of(group.path)
        .into_iter()
        .filter_map(|k| group_at(&joined(group.path, k)).map(|g| (k, g)))
        .collect();
    if subs.is_empty() {
        return format!("Required<{}>", group.interface);
    }
    let keys: Vec<String> = subs.iter().map(|(k, _)| format!("'{k}'")).collect();
    let mut out = format!(
        "Required<Omit<{}, {}>> & {{\n",
        group.interface,
        keys.join(" | ")
    );
    let inner = format!("{indent}  ");
    for (key, g) in subs {
        out.push_str(&format!("{inner}{key}: {};\n", effective(g, &inner)));
    }
    out.push_str(&format!("{indent}}}"));
    out
}

/// The option interfaces of `afterglow.d.ts` as the table writes them:
/// one per object of options, each option with its type and its
/// documentation, and `EffectiveOptions`.
fn option_declarations() -> String {
    let mut out = String::new();
    for group in groups() {
        out.push_str(&doc_comment(&words(group.doc), ""));
        out.push_str(&format!("export interface {} {{\n", group.interface));
        for key in keys_of(group.path) {
            let path = joined(group.path, key);
            match (spec(&path), group_at(&path)) {
                (Some(spec), _) => {
                    out.push_str(&doc_comment(&member_doc(spec), "  "));
                    out.push_str(&format!("  {key}?: {};\n", ts_type(spec)));
                }
                (None, Some(sub)) => out.push_str(&format!("  {key}?: {};\n", sub.interface)),
                (None, None) => panic!("'{path}' is a group that `groups!` lacks"),
            }
        }
        out.push_str("}\n\n");
    }
    let top = group_at("").expect("the top level is declared");
    out.push_str("/** Every option with its effective value. */\n");
    out.push_str(&format!(
        "export type EffectiveOptions = {};\n",
        effective(top, "")
    ));
    out
}

/// The option interfaces as `npm/index.d.ts` re-exports them by name.
fn option_exports() -> String {
    let mut names: Vec<&str> = groups().iter().map(|g| g.interface).collect();
    names.push("EffectiveOptions");
    names.sort_unstable();
    let list: String = names.iter().map(|n| format!("  {n},\n")).collect();
    format!("export type {{\n{list}}} from './afterglow.js';\n")
}

const GENERATED: &str =
    "// Generated from the option table (src/options/table.rs) by src/tests/schema.rs;\n\
                         // `AFTERGLOW_BLESS=1 cargo test --lib tests::schema` writes it again.\n";
const GENERATED_END: &str = "// End of the part generated from the option table.\n";

/// Holds the part of the file at `path` (from the repository's root)
/// between the markers to `generated`, or, with `AFTERGLOW_BLESS`, writes
/// it there.
fn holds_generated(path: &str, generated: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let start = text
        .find(GENERATED)
        .unwrap_or_else(|| panic!("{} lacks the line {GENERATED:?}", path.display()))
        + GENERATED.len();
    let end = start
        + text[start..]
            .find(GENERATED_END)
            .unwrap_or_else(|| panic!("{} lacks the line {GENERATED_END:?}", path.display()));
    if std::env::var_os("AFTERGLOW_BLESS").is_some() {
        let written = format!("{}{generated}{}", &text[..start], &text[end..]);
        std::fs::write(&path, written).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    let found = &text[start..end];
    for (i, (f, w)) in found.lines().zip(generated.lines()).enumerate() {
        assert_eq!(
            f,
            w,
            "line {} of the generated part of {}",
            i + 1,
            path.display()
        );
    }
    assert!(
        found == generated,
        "the generated part of {} is not the option table's; write it again with \
         AFTERGLOW_BLESS=1 cargo test --lib tests::schema",
        path.display()
    );
}

#[test]
fn the_typescript_option_declarations_are_generated_from_the_table() {
    holds_generated("src/web/afterglow.d.ts", &option_declarations());
}

#[test]
fn the_package_exports_every_option_interface() {
    holds_generated("npm/index.d.ts", &option_exports());
}

/// The declarations as written, held to the table member by member (the
/// generator's own check).
#[test]
fn the_typescript_option_interfaces_are_the_schema() {
    let mut seen = BTreeSet::new();
    for group in groups() {
        let interface_name = group.interface;
        for m in interface(interface_name) {
            let path = joined(group.path, &m.name);
            if let Some(sub) = group_at(&path) {
                assert_eq!(m.ty, sub.interface, "{interface_name}.{}", m.name);
                continue;
            }
            let spec = schema()
                .iter()
                .find(|s| s.path == path)
                .unwrap_or_else(|| panic!("{interface_name} declares '{path}', not an option"));
            assert_eq!(m.ty, ts_type(spec), "type of {path}");
            assert!(
                m.doc.contains(&normalize(spec.doc)),
                "the doc of {path} lacks the schema's {:?}: {:?}",
                spec.doc,
                m.doc
            );
            assert!(
                m.doc.contains(&format!("Default `{}`.", spec.default.js())),
                "the doc of {path} lacks its default: {:?}",
                m.doc
            );
            if matches!(spec.kind, Kind::Number { .. } | Kind::Integer { .. }) {
                let range = format!("{}.", capitalized(&spec.kind.describe()));
                assert!(
                    m.doc.contains(&range),
                    "the doc of {path} lacks {range:?}: {:?}",
                    m.doc
                );
            }
            assert!(seen.insert(path.clone()), "{path} declared twice");
        }
    }
    assert_eq!(
        seen.iter().map(String::as_str).collect::<BTreeSet<_>>(),
        paths(),
        "TypeScript option interfaces"
    );
}

// ---- The effects' switches ----

/// Values of an option to try: every choice, the ends and middle of a range.
fn samples(kind: Kind) -> Vec<Literal> {
    match kind {
        Kind::Bool => vec![Literal::Bool(false), Literal::Bool(true)],
        Kind::Choice(names) => names.iter().map(|n| Literal::Str(n)).collect(),
        Kind::Count { values, .. } => values.iter().map(|v| Literal::Num(*v as f64)).collect(),
        Kind::Number {
            min,
            max,
            above_min,
        } => {
            let low = if above_min {
                min + (max - min) * 1e-3
            } else {
                min
            };
            vec![low, (min + max) / 2.0, max]
                .into_iter()
                .map(Literal::Num)
                .collect()
        }
        Kind::Integer { min, max } => vec![Literal::Num(min as f64), Literal::Num(max as f64)],
    }
}

/// A built-in effect that an option turns on or off changes the
/// composite's shader, so that option must reshape the frame
/// (`Effect::Rebuild`); one that only rewrites uniforms would leave the
/// effect out, or in, until something else rebuilt it.
#[test]
fn every_option_that_turns_an_effect_on_or_off_reshapes_the_frame() {
    use crate::effect::{Context, LutDomain};
    let context = Context {
        size: (64, 64),
        output_size: (64, 64),
        bloom: true,
        lut: Some(LutDomain {
            size: 2,
            min: [0.0; 3],
            max: [1.0; 3],
        }),
        dirt: Some((8, 8)),
    };
    let base = crate::options::Options::default();
    let switches = |o: &crate::options::Options| -> Vec<bool> {
        crate::effects::BUILTINS
            .iter()
            .map(|b| (b.on)(o, &context))
            .collect()
    };
    let mut reshaping = 0;
    for spec in schema() {
        for value in samples(spec.kind) {
            let mut o = base;
            (spec.access.set)(&mut o, value);
            if switches(&o) != switches(&base) {
                assert_eq!(
                    spec.effect,
                    crate::options::Effect::Rebuild,
                    "{} at {} turns an effect on or off",
                    spec.path,
                    value.js()
                );
                reshaping += 1;
            }
        }
    }
    assert!(reshaping > 0, "no option turned an effect on or off");
}

/// One error of each kind, and the fields its JS `Error` carries besides
/// `name` and `message` (they are set in `src/web/interop.rs`; the browser
/// tests check each thrown error against the declarations).
fn error_fields() -> Vec<(&'static str, &'static [&'static str])> {
    let errors: Vec<(Error, &'static [&'static str])> = vec![
        (
            Error::Option(OptionError::new("msaa", Allowed::Range("x".into()), "m")),
            &["option", "allowed"],
        ),
        (
            Error::Argument(ArgumentError {
                argument: "width".into(),
                message: "m".into(),
            }),
            &["argument"],
        ),
        (
            Error::Shader(ShaderError {
                line: 1,
                column: 1,
                message: "m".into(),
                details: String::new(),
            }),
            &["line", "column", "details"],
        ),
        (
            Error::Graph(GraphError {
                pass: "p".into(),
                attachment: "a".into(),
                message: "m".into(),
            }),
            &["pass", "attachment"],
        ),
        (
            Error::TextureRule(TextureRuleError {
                texture: "t".into(),
                rule: "r".into(),
            }),
            &["texture", "rule"],
        ),
        (Error::device(DeviceErrorKind::Lost, "m"), &["reason"]),
        (Error::Canvas("m".into()), &[]),
        (Error::destroyed("render"), &["method", "state"]),
        (Error::Readback("m".into()), &[]),
    ];
    errors.into_iter().map(|(e, f)| (e.name(), f)).collect()
}

#[test]
fn the_typescript_declarations_have_every_error() {
    for (name, fields) in error_fields() {
        let members = interface(&format!("{name} extends Error"));
        let declared: Vec<&str> = members.iter().map(|m| m.name.as_str()).collect();
        let mut expected = vec!["name"];
        expected.extend_from_slice(fields);
        assert_eq!(declared, expected, "members of {name}");
        assert_eq!(members[0].ty, format!("'{name}'"));
        assert!(
            section(DTS, "export type AfterglowError =", ";").contains(name),
            "AfterglowError lacks {name}"
        );
    }
    // The spelled-out unions match the Rust enums.
    let reasons = [
        DeviceErrorKind::NoWebGpu,
        DeviceErrorKind::NoAdapter,
        DeviceErrorKind::NoDevice,
        DeviceErrorKind::Lost,
        DeviceErrorKind::RecoveryFailed,
        DeviceErrorKind::SharedLost,
        DeviceErrorKind::OutOfMemory,
    ];
    let reason = &interface("DeviceError extends Error")[1];
    let spelled: Vec<String> = reasons
        .iter()
        .map(|r| format!("'{}'", r.as_str()))
        .collect();
    assert_eq!(reason.ty, spelled.join(" | "));
    let states = [
        StateErrorKind::Destroyed,
        StateErrorKind::Busy,
        StateErrorKind::Superseded,
        StateErrorKind::Broken,
        StateErrorKind::NotInitialized,
    ];
    let state = &interface("StateError extends Error")[2];
    let spelled: Vec<String> = states.iter().map(|s| format!("'{}'", s.as_str())).collect();
    assert_eq!(state.ty, spelled.join(" | "));
}

// ---- The demo panel ----

/// One control of the panel:
/// `['bloom.knee', 'Soft threshold', 'range', [0, 1, 0.05]],`.
struct Control {
    path: String,
    label: String,
    kind: String,
    spec: Vec<String>,
}

/// The single-quoted strings at the start of a SCHEMA row, and the rest.
fn quoted_prefix(mut rest: &str) -> (Vec<&str>, &str) {
    let mut strings = Vec::new();
    while let Some(body) = rest.strip_prefix('\'') {
        let Some(end) = body.find('\'') else { break };
        strings.push(&body[..end]);
        rest = body[end + 1..].trim_start_matches([',', ' ']);
    }
    (strings, rest)
}

fn panel_controls() -> Vec<Control> {
    let table = section(PANEL, "const SCHEMA = [", "\n];");
    let mut controls = Vec::new();
    for line in table.lines().map(str::trim) {
        let Some(row) = line.strip_prefix('[') else {
            continue;
        };
        let (strings, rest) = quoted_prefix(row);
        if strings.len() == 1 && rest.starts_with('[') {
            continue; // a section title: ['Bloom', [
        }
        let [path, label, kind] = strings[..] else {
            panic!("a panel row is ['path', 'label', 'kind', spec?]: {line:?}")
        };
        let spec = match rest.strip_prefix('[') {
            Some(list) => list[..list.find(']').expect("a closed list")]
                .split(',')
                .map(|s| s.trim().trim_matches('\'').to_string())
                .collect(),
            None => Vec::new(),
        };
        controls.push(Control {
            path: path.into(),
            label: label.into(),
            kind: kind.into(),
            spec,
        });
    }
    controls
}

/// The panel's section titles, in order.
fn panel_sections() -> Vec<String> {
    let table = section(PANEL, "const SCHEMA = [", "\n];");
    table
        .lines()
        .map(str::trim)
        .filter_map(|l| l.strip_prefix('['))
        .map(quoted_prefix)
        .filter(|(strings, rest)| strings.len() == 1 && rest.starts_with('['))
        .map(|(strings, _)| strings[0].to_string())
        .collect()
}

#[test]
fn the_demo_panel_sections_come_in_the_order_a_user_reaches_for_them() {
    assert_eq!(
        panel_sections(),
        [
            "Bloom",
            "Exposure and curve",
            "Look",
            "Canvas",
            "Resolution",
            "Frame",
            "Depth of field"
        ],
        "the option sections of the panel (Content, the page's own, comes first)"
    );
}

#[test]
fn every_panel_control_has_a_plain_label() {
    for c in panel_controls() {
        let leaf = c.path.rsplit('.').next().unwrap_or_default();
        assert!(
            !c.label.is_empty() && c.label != c.path && c.label != leaf,
            "{}: the label {:?} should say in plain words what it is (the name is shown beside it)",
            c.path,
            c.label
        );
    }
}

/// The JSON string literal of `text`.
fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `www/option-table.js` as the schema writes it: each option's default
/// and line of documentation, for the panel's tooltips and its "Library
/// defaults" button (the shipped wasm leaves the documentation out).
fn option_table_module() -> String {
    let mut out = String::from(
        "// Generated from the option table (src/options/table.rs) by src/tests/schema.rs:\n\
         // each option's default and line of documentation, for the demo panel's\n\
         // tooltips and descriptions. Do not edit; after a change of the table,\n\
         // `AFTERGLOW_BLESS=1 cargo test --lib tests::schema` writes it again.\n\
         export const OPTION_TABLE = {\n",
    );
    for spec in schema() {
        out.push_str(&format!(
            "  '{}': {{ default: {}, doc: {} }},\n",
            spec.path,
            spec.default.js(),
            json_string(spec.doc)
        ));
    }
    out.push_str("};\n");
    out
}

#[test]
fn the_demo_option_table_is_the_schema() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("www/option-table.js");
    let expected = option_table_module();
    if std::env::var_os("AFTERGLOW_BLESS").is_some() {
        std::fs::write(&path, &expected).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    let found = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        found == expected,
        "{} is not the option table's; write it again with \
         AFTERGLOW_BLESS=1 cargo test --lib tests::schema",
        path.display()
    );
}

#[test]
fn the_demo_panel_has_a_control_for_every_option_within_its_range() {
    let mut seen = BTreeSet::new();
    for c in panel_controls() {
        let spec = schema()
            .iter()
            .find(|s| s.path == c.path)
            .unwrap_or_else(|| panic!("the panel has '{}', not an option", c.path));
        let numbers = || -> Vec<f64> {
            c.spec
                .iter()
                .map(|v| v.parse().unwrap_or_else(|_| panic!("{}: {v:?}", c.path)))
                .collect()
        };
        match spec.kind {
            Kind::Bool => assert_eq!(c.kind, "bool", "{}", c.path),
            Kind::Choice(names) => {
                assert_eq!(c.kind, "select", "{}", c.path);
                let panel: BTreeSet<&str> = c.spec.iter().map(String::as_str).collect();
                assert_eq!(panel, names.iter().copied().collect(), "{}", c.path);
            }
            Kind::Count { values, .. } => {
                assert_eq!(c.kind, "select", "{}", c.path);
                let mut panel = numbers();
                panel.sort_by(f64::total_cmp);
                let schema: Vec<f64> = values.iter().map(|v| *v as f64).collect();
                assert_eq!(panel, schema, "{}", c.path);
            }
            Kind::Number {
                min,
                max,
                above_min,
            } => {
                assert_eq!(c.kind, "range", "{}", c.path);
                let [lo, hi, step] = numbers()[..] else {
                    panic!("{}: [min, max, step]", c.path)
                };
                assert!(
                    (lo > min || (!above_min && lo == min)) && hi <= max && lo < hi && step > 0.0,
                    "{}: the slider {lo}..{hi} leaves {}",
                    c.path,
                    spec.kind.describe()
                );
                let Literal::Num(d) = spec.default else {
                    panic!()
                };
                assert!(
                    (lo..=hi).contains(&d),
                    "{}: default {d} off the slider",
                    c.path
                );
            }
            Kind::Integer { min, max } => {
                assert_eq!(c.kind, "range", "{}", c.path);
                let [lo, hi, step] = numbers()[..] else {
                    panic!("{}: [min, max, step]", c.path)
                };
                assert!(
                    lo >= min as f64
                        && hi <= max as f64
                        && lo < hi
                        && step >= 1.0
                        && [lo, hi, step].iter().all(|v| v.fract() == 0.0),
                    "{}: the slider {lo}..{hi} step {step} leaves {}",
                    c.path,
                    spec.kind.describe()
                );
            }
        }
        assert!(seen.insert(c.path.clone()), "{} twice in the panel", c.path);
    }
    assert_eq!(
        seen.iter().map(String::as_str).collect::<BTreeSet<_>>(),
        paths(),
        "the panel's controls"
    );
}
