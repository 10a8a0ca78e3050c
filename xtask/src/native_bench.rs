//! `cargo xtask bench --native`: GPU time per pass from the native
//! benchmark (the crate's ignored test `tests::bench`, timestamp queries
//! on Vulkan; `examples/bench.rs` at commits before it moved), built from
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
use std::process::{Command, Stdio};

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
    /// Whether `binary` is the crate's test binary (else the `bench`
    /// example of a commit from before the benchmark became a test).
    test: bool,
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
pub fn clean_enough(root: &Path, dirty: bool) -> Result<Vec<String>> {
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
        let (binary, test) = build_bench(&dir, &target)?;
        builds.push(Build {
            label: "before",
            commit,
            changes,
            binary,
            test,
        });
    }
    let (binary, test) = build_bench(root, &root.join("target"))?;
    builds.push(Build {
        label: if before.is_some() { "after" } else { "this" },
        commit: head,
        changes: here,
        binary,
        test,
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
        names.push((name, build.test));
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
        for name in names.iter().map(|(n, _)| n.as_str()).chain(["run.sh"]) {
            std::fs::set_permissions(folder.join(name), std::fs::Permissions::from_mode(0o755))
                .map_err(|e| format!("{name}: {e}"))?;
        }
    }
    Ok(())
}

/// Runs each binary `rounds` times, interleaved, into one file, after a
/// description of the machine. A test binary runs the benchmark, its one
/// ignored test named, with the frames through `AFTERGLOW_ARGS`; an
/// example binary takes them as its argument.
fn script(names: &[(String, bool)], frames: u32, rounds: u32) -> String {
    let runs: Vec<String> = names
        .iter()
        .map(|(name, test)| {
            let command = if *test {
                format!(
                    "AFTERGLOW_ARGS={frames} \"$here/{name}\" --ignored --exact {BENCH_TEST} --nocapture"
                )
            } else {
                format!("\"$here/{name}\" {frames}")
            };
            format!(
                "  echo \"round $round: {name}\" >&2\n  echo \"=== {name} round $round\" >> \"$out/runs.txt\"\n  {command} >> \"$out/runs.txt\"\n"
            )
        })
        .collect();
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
{runs}done
"#,
        runs = runs.concat()
    )
}

fn render(root: &Path, folder: &Path, out: &Path) -> Result<()> {
    run(Command::new("node")
        .current_dir(root)
        .arg("bench/native-report.mjs")
        .arg(folder.join("manifest.json"))
        .arg(out))
}

/// The benchmark's test, by its path in the crate.
const BENCH_TEST: &str = "tests::bench::gpu_time_per_pass";

/// Builds the benchmark of the checkout in `dir` into `target`: the
/// crate's test binary (release), or the `bench` example where the
/// checkout still has one. Returns the binary and whether it is the
/// test binary.
fn build_bench(dir: &Path, target: &Path) -> Result<(PathBuf, bool)> {
    if dir.join("examples/bench.rs").exists() {
        run(Command::new("cargo")
            .current_dir(dir)
            .env("CARGO_TARGET_DIR", target)
            .args(["build", "--release", "--example", "bench"]))?;
        return Ok((target.join("release/examples/bench"), false));
    }
    let mut cargo = Command::new("cargo");
    cargo
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .args([
            "test",
            "--release",
            "--lib",
            "--no-run",
            "--message-format=json",
        ])
        .stderr(Stdio::inherit());
    eprintln!("+ {}", crate::exec::describe(&cargo));
    let out = cargo
        .output()
        .map_err(|e| format!("cargo test --no-run: {e}"))?;
    if !out.status.success() {
        return Err("cargo test --release --lib --no-run failed".into());
    }
    // The lib's test artifact is the one message with an executable.
    let key = "\"executable\":\"";
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.contains("\"test\":true"))
        .find_map(|l| {
            let start = l.find(key)? + key.len();
            let len = l[start..].find('"')?;
            Some((PathBuf::from(&l[start..start + len]), true))
        })
        .ok_or_else(|| "cargo test --no-run named no test binary".into())
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

pub fn git(root: &Path, args: &[&str]) -> Result<String> {
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

pub fn number(flag: &str, text: &str, allowed: std::ops::RangeInclusive<u32>) -> Result<u32> {
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

pub fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_runs_a_test_binary_by_its_test_and_an_example_by_its_argument() {
        let names = [
            ("after-abc".to_string(), true),
            ("before-def".to_string(), false),
        ];
        let text = script(&names, 50, 2);
        assert!(
            text.contains(&format!(
                "AFTERGLOW_ARGS=50 \"$here/after-abc\" --ignored --exact {BENCH_TEST} \
                 --nocapture >> \"$out/runs.txt\""
            )),
            "{text}"
        );
        assert!(
            text.contains("\"$here/before-def\" 50 >> \"$out/runs.txt\""),
            "{text}"
        );
        assert!(text.contains("echo \"=== after-abc round $round\" >> \"$out/runs.txt\""));
        assert!(text.contains("for round in $(seq 1 2); do"), "{text}");
    }
}
