//! Every shader the crate compiles, validated with naga (the WGSL front end
//! wgpu uses natively), so a shader error fails here with its message
//! rather than as an invalid pipeline at run time; and every uniform block
//! shared with Rust, compared member by member with its Rust struct.

use crate::passes::shader_registry as registry;
use crate::passes::uniform_layouts;

/// The struct names of every `uniform! { … struct Name` in `src/`, these
/// suites (`src/tests/`, which name the macro in text) aside.
fn uniform_blocks_in_src() -> std::collections::BTreeSet<String> {
    fn walk(dir: &std::path::Path, out: &mut std::collections::BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if !path.ends_with("src/tests") {
                    walk(&path, out);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for (at, _) in text.match_indices("uniform! {") {
                    let rest = &text[at..];
                    if let Some(s) = rest.find("struct ") {
                        let name: String = rest[s + 7..]
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        out.insert(name);
                    }
                }
            }
        }
    }
    let mut out = std::collections::BTreeSet::new();
    walk(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut out,
    );
    out
}

fn parse(name: &str, source: &str) -> naga::Module {
    let module = match naga::front::wgsl::parse_str(source) {
        Ok(m) => m,
        Err(e) => panic!("{name}: {}", e.emit_to_string(source)),
    };
    let mut validator = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::empty(),
    );
    if let Err(e) = validator.validate(&module) {
        panic!("{name}: {}", e.emit_to_string(source));
    }
    module
}

#[test]
fn every_shader_in_the_registry_is_valid() {
    let all = registry();
    // The registry is the list the crate builds from: every pass is in it.
    let names: Vec<&str> = all.iter().map(|(n, _)| *n).collect();
    for pass in [
        "scene",
        "bloom",
        "resolve",
        "composite",
        "user scene wrapper",
    ] {
        assert!(names.contains(&pass), "{pass} missing from {names:?}");
    }
    assert!(
        names.contains(&"test fixtures"),
        "the test build includes the test content"
    );
    for (name, source) in all {
        parse(name, &source);
    }
}

#[test]
fn uniform_blocks_match_their_rust_structs() {
    let layouts = uniform_layouts();
    // Every `uniform!` block in src/ is registered by its pass.
    let declared = uniform_blocks_in_src();
    let registered: std::collections::BTreeSet<String> = layouts
        .iter()
        .map(|(_, name, _, _)| name.to_string())
        .collect();
    assert!(!declared.is_empty());
    assert_eq!(
        registered, declared,
        "registered uniform layouts vs uniform! blocks"
    );
    for (source, name, rust_size, rust_offsets) in layouts {
        let module = parse(name, &source);
        let (_, ty) = module
            .types
            .iter()
            .find(|(_, t)| t.name.as_deref() == Some(name))
            .unwrap_or_else(|| panic!("no struct {name} in its WGSL"));
        let naga::TypeInner::Struct { members, span } = &ty.inner else {
            panic!("{name} is not a struct in WGSL");
        };
        assert_eq!(*span as usize, rust_size, "{name}: size in WGSL vs Rust");
        let wgsl: Vec<(&str, usize)> = members
            .iter()
            .map(|m| (m.name.as_deref().unwrap_or(""), m.offset as usize))
            .collect();
        assert_eq!(
            wgsl, rust_offsets,
            "{name}: members and offsets, WGSL vs Rust"
        );
    }
}

#[test]
fn shared_constants_come_from_rust() {
    use crate::options::Tonemapper;
    use crate::output::FLAGS;
    let prelude = crate::shaders::constants();
    for (name, value) in FLAGS {
        assert!(
            prelude.contains(&format!("const {name}: u32 = {value}u;")),
            "{name}"
        );
    }
    assert!(prelude.contains(&format!(
        "const TONEMAP_KHRONOS_NEUTRAL: u32 = {}u;",
        Tonemapper::KhronosNeutral.shader_index()
    )));
    // The shader files do not define them again.
    for (name, source) in registry() {
        let count = source.matches("const FLAG_DITHER").count();
        assert!(count <= 1, "{name} defines FLAG_DITHER {count} times");
    }
}

#[test]
fn every_shader_file_is_shipped_minified_and_still_valid() {
    // The minifier is tested beside its code (src/wgsl/minify.rs).
    // The registry (what the crate compiles, validated above) is built from
    // the minified copies.
    let composite = registry()
        .into_iter()
        .find(|(n, _)| *n == "composite")
        .unwrap()
        .1;
    assert!(
        !composite.contains("// "),
        "the composite shader still has comments"
    );
}
