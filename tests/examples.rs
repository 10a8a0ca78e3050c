//! The examples as a user runs them: `own_renderer` writes its PNG and
//! prints nothing on stderr, even on a machine without a login session
//! (no `XDG_RUNTIME_DIR`), where Mesa's Vulkan layers used to print an
//! error although nothing failed. `cargo test` builds the examples next to
//! the test binaries.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;
use std::process::Command;

/// `target/<profile>/examples/<name>`, from this test's own path
/// (`target/<profile>/deps/examples-<hash>`).
fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test's path");
    let profile = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>/deps");
    let path = profile
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(format!("{name}.rs"));
    let modified = |p: &std::path::Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    assert!(
        path.exists() && modified(&path) >= modified(&source),
        "{} is missing or older than its source: `cargo test` (all targets) builds the \
         examples, `cargo test --test examples` alone does not",
        path.display()
    );
    path
}

#[test]
fn own_renderer_writes_its_picture_and_prints_no_error_without_a_session() {
    let dir = std::env::temp_dir().join(format!("afterglow-example-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("own.png");
    let out = Command::new(example("own_renderer"))
        .args([png.to_str().unwrap(), "64", "48"])
        .env_remove("XDG_RUNTIME_DIR")
        .env_remove("NODEVICE_SELECT")
        .output()
        .expect("own_renderer runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "own_renderer failed: {stderr}");
    assert_eq!(stderr, "", "own_renderer printed on stderr");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("wrote "));
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG"), "not a PNG");
    std::fs::remove_dir_all(&dir).ok();
}
