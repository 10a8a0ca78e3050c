//! Writes every shader of `shaders/` minified into `OUT_DIR` (see
//! `build/wgsl_minify.rs`); the crate includes those copies through
//! `wgsl!`. The WGSL is part of the shipped wasm, and its comments and
//! indentation are about a third of it.

include!("build/wgsl_minify.rs");

fn main() {
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo:rerun-if-changed=shaders");
    println!("cargo:rerun-if-changed=build/wgsl_minify.rs");
    let entries = std::fs::read_dir("shaders").expect("the shaders/ directory");
    for entry in entries {
        let path = entry.expect("a readable shaders/ entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("wgsl") {
            continue;
        }
        let source = std::fs::read_to_string(&path).expect("a UTF-8 shader");
        let name = path.file_name().expect("a file name");
        std::fs::write(out.join(name), minify_wgsl(&source)).expect("OUT_DIR is writable");
    }
}
