//! `cargo xtask bench --native`: GPU time per pass from the native
//! benchmark (`examples/bench.rs`, timestamp queries on Vulkan), built from
//! this checkout and, with `--before REV`, from commit REV too, the
//! binaries run in turn (before, after, before, after…) and the report
//! written by `bench/native-report.mjs` with the commits, whether the tree
//! was clean, the exact command, the adapter and the machine.
//!
//! Everything a run needs lands in `target/native-bench/`: the binaries,
//! `manifest.json` (what they were built from, and the command) and
//! `run.sh`. `--build-only` stops there, for a GPU on another machine:
//! copy the folder over, run `run.sh OUT` there, bring OUT back and render
//! it with `cargo xtask bench --native --report OUT`.
//!
//! Options: `--before REV`, `--frames N` (per configuration; 200),
//! `--rounds N` (runs of each binary; 2, the better median is reported),
//! `--dirty` (measure a tree with changes; its report says so and goes to
//! `target/bench/results/`), `--build-only`, `--report DIR`.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::before;
use crate::exec::{run, Result};
use crate::pack::json_string;
use crate::setup;

/// What `bench --native` was asked to do.
struct Request {
    before: Option<String>,
    frames: u32,
    rounds: u32,
    dirty: bool,
    build_only: bool,
    report: Option<String>,
}

/// A benchmark binary and what it was built from.
struct Build {
    /// `before`, `after`, or `this` without `--before`.
    label: &'static str,
    commit: String,
    /// Changes on top of the commit in the tree it was built from.
    changes: usize,
    binary: PathBuf,
}

/// `bench --native` with `args`: builds the binaries into the folder,
/// then runs them and renders the report (`--build-only` stops after the
/// folder, `--report DIR` only renders).
pub fn bench(root: &Path, args: &[String]) -> Result<()> {
    let request = parse(args)?;
    let folder = root.join("target/native-bench");
    if let Some(out) = &request.report {
        return render(root, &folder, Path::new(out));
    }
    let here = clean_enough(root, request.dirty)?;
    let head = git(root, &["rev-parse", "--short=10", "HEAD"])?;
    if folder.exists() {
        std::fs::remove_dir_all(&folder)
            .map_err(|e| format!("clearing {}: {e}", folder.display()))?;
    }
    std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let builds = build_binaries(root, request.before.as_deref(), head, here.len())?;
    let mut command = vec!["cargo xtask bench --native".to_string()];
    command.extend(args.iter().filter(|a| *a != "--build-only").cloned());
    lay_out(&folder, &builds, &command.join(" "), &request)?;
    if request.build_only {
        eprintln!(
            "xtask: {} is ready: copy it to the machine with the GPU, run `run.sh OUT` there, \
             then `cargo xtask bench --native --report OUT` here",
            folder.display()
        );
        return Ok(());
    }
    let out = folder.join("out");
    let mut sh = Command::new("sh");
    sh.arg(folder.join("run.sh")).arg(&out);
    if std::env::var_os("XDG_RUNTIME_DIR").is_none() {
        sh.env("XDG_RUNTIME_DIR", setup::runtime_dir());
    }
    run(&mut sh)?;
    render(root, &folder, &out)
}

fn parse(args: &[String]) -> Result<Request> {
    let mut request = Request {
        before: None,
        frames: 200,
        rounds: 2,
        dirty: false,
        build_only: false,
        report: None,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |what: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("bench --native: {arg} needs {what}"))
        };
        match arg.as_str() {
            "--before" => request.before = Some(value("a commit")?),
            "--frames" => request.frames = number(arg, &value("a number")?, 1..=100_000)?,
            "--rounds" => request.rounds = number(arg, &value("a number")?, 1..=20)?,
            "--report" => request.report = Some(value("the folder run.sh wrote")?),
            "--dirty" => request.dirty = true,
            "--build-only" => request.build_only = true,
            other => {
                return Err(format!(
                    "bench --native: unknown argument '{other}' (--before REV, --frames N, \
                     --rounds N, --dirty, --build-only, --report DIR)"
                ))
            }
        }
    }
    Ok(request)
}

/// The working tree's changes, refused unless there are none or `dirty`
/// allows them.
fn clean_enough(root: &Path, dirty: bool) -> Result<Vec<String>> {
    let here = changes(root)?;
    if !here.is_empty() && !dirty {
        let shown: Vec<&str> = here.iter().take(3).map(String::as_str).collect();
        return Err(format!(
            "the working tree has {} change(s) ({}{}): commit them, or pass --dirty to measure \
             anyway (the report then says so)",
            here.len(),
            shown.join("; "),
            if here.len() > 3 { "; …" } else { "" }
        ));
    }
    Ok(here)
}

/// The benchmark built at `before` (when given) and from this checkout,
/// at commit `head` with `here` changes on top.
fn build_binaries(
    root: &Path,
    before: Option<&str>,
    head: String,
    here: usize,
) -> Result<Vec<Build>> {
    let mut builds = Vec::new();
    if let Some(rev) = before {
        let (commit, dir) = before::worktree(root, rev)?;
        // The kept worktree is measured as it is: changes in it are named.
        let changes = changes(&dir)?.len();
        let target = before::target(root, &commit);
        build_example(&dir, &target)?;
        builds.push(Build {
            label: "before",
            commit,
            changes,
            binary: target.join("release/examples/bench"),
        });
    }
    let this = root.join("target");
    build_example(root, &this)?;
    builds.push(Build {
        label: if before.is_some() { "after" } else { "this" },
        commit: head,
        changes: here,
        binary: this.join("release/examples/bench"),
    });
    Ok(builds)
}

/// Everything a run needs in `folder`: the binaries, each named by what it
/// was built from, `manifest.json` (those names, `command` and the
/// request's frames and rounds) and `run.sh`.
fn lay_out(folder: &Path, builds: &[Build], command: &str, request: &Request) -> Result<()> {
    let mut names = Vec::new();
    let mut entries = Vec::new();
    for build in builds {
        // Named by role too: `--before HEAD` builds the same commit twice.
        let name = format!(
            "{}-{}{}",
            build.label,
            build.commit,
            if build.changes > 0 { "-dirty" } else { "" }
        );
        std::fs::copy(&build.binary, folder.join(&name))
            .map_err(|e| format!("copying {}: {e}", build.binary.display()))?;
        entries.push(format!(
            "{{\"label\": {}, \"commit\": {}, \"changes\": {}, \"binary\": {}}}",
            json_string(build.label),
            json_string(&build.commit),
            build.changes,
            json_string(&name)
        ));
        names.push(name);
    }
    let (frames, rounds) = (request.frames, request.rounds);
    let manifest = format!(
        "{{\n  \"command\": {},\n  \"frames\": {frames},\n  \"rounds\": {rounds},\n  \"builds\": [\n    {}\n  ]\n}}\n",
        json_string(command),
        entries.join(",\n    ")
    );
    write(&folder.join("manifest.json"), &manifest)?;
    write(&folder.join("run.sh"), &script(&names, frames, rounds))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        for name in names.iter().map(String::as_str).chain(["run.sh"]) {
            std::fs::set_permissions(folder.join(name), std::fs::Permissions::from_mode(0o755))
                .map_err(|e| format!("{name}: {e}"))?;
        }
    }
    Ok(())
}

/// Runs each binary `rounds` times, interleaved, into one file, after a
/// description of the machine.
fn script(names: &[String], frames: u32, rounds: u32) -> String {
    format!(
        r#"#!/bin/sh
# Written by `cargo xtask bench --native`: runs the benchmark binaries
# beside this script {rounds} time(s) each, interleaved, {frames} frames per
# configuration, into OUT (default: out/ here): machine.txt and runs.txt.
# Render them in the checkout with `cargo xtask bench --native --report OUT`.
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=${{1:-$here/out}}
mkdir -p "$out"
{{
  date -u +%Y-%m-%dT%H:%M:%SZ
  uname -srm
  echo "cpus: $(nproc)"
  grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //' || true
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
}} > "$out/machine.txt"
: > "$out/runs.txt"
for round in $(seq 1 {rounds}); do
  for bin in {bins}; do
    echo "round $round: $bin" >&2
    echo "=== $bin round $round" >> "$out/runs.txt"
    "$here/$bin" {frames} >> "$out/runs.txt"
  done
done
"#,
        bins = names.join(" ")
    )
}

fn render(root: &Path, folder: &Path, out: &Path) -> Result<()> {
    run(Command::new("node")
        .current_dir(root)
        .arg("bench/native-report.mjs")
        .arg(folder.join("manifest.json"))
        .arg(out))
}

fn build_example(dir: &Path, target: &Path) -> Result<()> {
    run(Command::new("cargo")
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .args(["build", "--release", "--example", "bench"]))
}

/// Changes on top of HEAD that git does not ignore, left out: the results
/// folder (this tool's own output) and the `node_modules` link that
/// `bench --before` puts in a kept worktree.
fn changes(root: &Path) -> Result<Vec<String>> {
    Ok(git(root, &["status", "--porcelain"])?
        .lines()
        .filter(|l| {
            l.len() > 3 && !l[3..].starts_with("bench/results/") && &l[3..] != "node_modules"
        })
        .map(|l| l.trim().to_string())
        .collect())
}

fn git(root: &Path, args: &[&str]) -> Result<String> {
    let out = Command::new("git")
        .current_dir(root)
        .args(args)
        .output()
        .map_err(|e| format!("git: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "git {} failed: the figures would name no commit",
            args.join(" ")
        ));
    }
    // Only the end: `status --porcelain` lines begin with a space.
    Ok(String::from_utf8_lossy(&out.stdout).trim_end().to_string())
}

fn number(flag: &str, text: &str, allowed: std::ops::RangeInclusive<u32>) -> Result<u32> {
    text.parse()
        .ok()
        .filter(|n| allowed.contains(n))
        .ok_or_else(|| {
            format!(
                "bench --native: {flag} takes a whole number from {} to {}, not '{text}'",
                allowed.start(),
                allowed.end()
            )
        })
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}
