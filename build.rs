//! Writes every shader of `shaders/` minified into `OUT_DIR` (see
//! `src/wgsl/minify.rs`, on the crate's own WGSL lexer); the crate includes those copies through
//! `wgsl!`. The WGSL is part of the shipped wasm, and its comments and
//! indentation are about a third of it; the internal shaders' private
//! names are shortened too.
//!
//! It also writes the doc test that runs the Rust snippet of the README's
//! "Quick start: Rust with wgpu" section as written (see
//! `readme_doc_test`).

#[path = "src/wgsl/lex.rs"]
#[allow(dead_code)]
mod lex;
#[path = "src/wgsl/minify.rs"]
mod minify;

use minify::{minify_wgsl, shorten_names};

/// The shaders compiled together with a user's scene shader or effect (the
/// full-screen stage, the scene parameters, the user prelude and entry
/// points, the effects' prelude): they keep every name, since users' shaders see them. Every
/// other shader is internal: its functions, constants, variables and
/// parameters get short names, so a new pass's shader needs no entry here.
const SHARED_WITH_USERS: &[&str] = &[
    "effect_prelude.wgsl",
    "fullscreen.wgsl",
    "scene_params.wgsl",
    "user_emissive.wgsl",
    "user_entry.wgsl",
    "user_prelude.wgsl",
];

fn main() {
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    // Cargo runs the build script in the package folder.
    let root = std::env::current_dir().expect("the package folder");
    let watch = |path: &str| println!("cargo:rerun-if-changed={}", root.join(path).display());
    watch("shaders");
    watch("src/wgsl/lex.rs");
    watch("src/wgsl/minify.rs");
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
        .filter(|&i| !SHARED_WITH_USERS.iter().any(|n| names[i] == *n))
        .collect();
    for (name, text) in names.iter().zip(shorten_names(&sources, &internal)) {
        std::fs::write(out.join(name), text).expect("OUT_DIR is writable");
    }
    watch("README.md");
    watch("tests/readme/post_chain.rs");
    let readme = std::fs::read_to_string("README.md").ok();
    let around = std::fs::read_to_string("tests/readme/post_chain.rs").ok();
    let doc = match (readme, around) {
        (Some(readme), Some(around)) => readme_doc_test(&readme, &around),
        // A packaged crate has the README but not the tests: nothing to run.
        _ => String::new(),
    };
    std::fs::write(out.join("readme_post_chain.md"), doc).expect("OUT_DIR is writable");
}

/// A Markdown doc whose one Rust block is the README's PostChain snippet,
/// verbatim, inside the program of `tests/readme/post_chain.rs` (that
/// file's lines hidden, the snippet in place of its `// README` line). When
/// the snippet or the marker is missing, the doc test is one that fails
/// saying so: the library itself still builds.
fn readme_doc_test(readme: &str, around: &str) -> String {
    const HEADING: &str = "## Quick start: Rust with wgpu";
    let snippet = readme.find(HEADING).and_then(|at| {
        let section = &readme[at + HEADING.len()..];
        let section = &section[..section.find("\n## ").unwrap_or(section.len())];
        let start = section.find("```rust\n")? + "```rust\n".len();
        let len = section[start..].find("```")?;
        Some(&section[start..start + len])
    });
    let missing = |what: &str| format!("```rust\npanic!(\"{what}\");\n```\n");
    let Some(snippet) = snippet else {
        return missing("no rust code block in the README's section 'Quick start: Rust with wgpu'");
    };
    if !around.lines().any(|l| l.trim() == "// README") {
        return missing("no '// README' line in tests/readme/post_chain.rs");
    }
    let mut doc = String::from("```rust\n");
    for line in around.lines() {
        if line.trim() == "// README" {
            doc.push_str(snippet);
        } else {
            doc.push_str("# ");
            doc.push_str(line);
            doc.push('\n');
        }
    }
    doc.push_str("```\n");
    doc
}
