//! The package as it was at an earlier commit, for the benchmarks'
//! `--before REV`: a checkout of that commit kept under
//! `target/before/<commit>`, built with that commit's own build steps into
//! a target directory of its own.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::exec::{run, Result};

/// Builds the package as it was at `rev`, with that commit's own build
/// steps, in a worktree under `target/before/<commit>` (kept for the next
/// run), and returns the path the benchmark server serves it at.
pub fn build_web(root: &Path, rev: &str) -> Result<String> {
    let (commit, dir) = worktree(root, rev)?;
    let served = format!("/target/before/{commit}/www/pkg/afterglow.js");
    if dir.join("www/pkg/afterglow.js").exists() {
        return Ok(served);
    }
    // Its build uses the npm tools (wasm-opt, esbuild) installed here.
    #[cfg(unix)]
    if !dir.join("node_modules").exists() {
        std::os::unix::fs::symlink(root.join("node_modules"), dir.join("node_modules"))
            .map_err(|e| format!("linking node_modules into {}: {e}", dir.display()))?;
    }
    run(Command::new("cargo")
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", target(root, &commit))
        .args(["xtask", "build"]))?;
    Ok(served)
}

/// The target directory of commit `commit`'s worktree: cargo does not tell
/// two checkouts of the same package apart by their path, and would take
/// the other commit's build as up to date when this checkout's files are
/// older.
pub fn target(root: &Path, commit: &str) -> PathBuf {
    root.join("target/before-target").join(commit)
}

/// A checkout of `rev` under `target/before/<commit>` (kept for the next
/// run), and its commit's short name.
pub fn worktree(root: &Path, rev: &str) -> Result<(String, PathBuf)> {
    let out = Command::new("git")
        .current_dir(root)
        .args([
            "rev-parse",
            "--short=10",
            "--verify",
            &format!("{rev}^{{commit}}"),
        ])
        .output()
        .map_err(|e| format!("git: {e}"))?;
    if !out.status.success() {
        return Err(format!("--before {rev}: not a commit of this repository"));
    }
    let commit = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let dir = root.join("target/before").join(&commit);
    if !dir.exists() {
        run(Command::new("git")
            .current_dir(root)
            .args(["worktree", "add", "--detach", "--force"])
            .arg(&dir)
            .arg(&commit))?;
    }
    Ok((commit, dir))
}
