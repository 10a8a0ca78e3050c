//! Writes every shader of `shaders/` minified into `OUT_DIR` (see
//! `build/wgsl_minify.rs`); the crate includes those copies through
//! `wgsl!`. The WGSL is part of the shipped wasm, and its comments and
//! indentation are about a third of it; the internal shaders' private
//! names are shortened too.

include!("build/wgsl_minify.rs");

/// The shaders never compiled together with a user's shader: their
/// functions, constants, variables and parameters get short names. The
/// others (the full-screen stage, the scene parameters, the user
/// prelude and entry points) keep every name, since users' shaders
/// see them.
const INTERNAL: &[&str] = &[
    "bloom.wgsl",
    "composite.wgsl",
    "fixtures.wgsl",
    "guards.wgsl",
    "resolve.wgsl",
    "scene.wgsl",
    "tonemap.wgsl",
];

fn main() {
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo:rerun-if-changed=shaders");
    println!("cargo:rerun-if-changed=build/wgsl_minify.rs");
    let mut names = Vec::new();
    let mut sources = Vec::new();
    for entry in std::fs::read_dir("shaders").expect("the shaders/ directory") {
        let path = entry.expect("a readable shaders/ entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("wgsl") {
            continue;
        }
        let source = std::fs::read_to_string(&path).expect("a UTF-8 shader");
        let name = path.file_name().expect("a file name").to_owned();
        names.push(name);
        sources.push(minify_wgsl(&source));
    }
    let internal: Vec<usize> = (0..names.len())
        .filter(|&i| INTERNAL.iter().any(|n| names[i] == *n))
        .collect();
    for (name, text) in names.iter().zip(shorten_names(&sources, &internal)) {
        std::fs::write(out.join(name), text).expect("OUT_DIR is writable");
    }
}
