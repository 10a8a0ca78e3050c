//! `cargo xtask bench --gpu-browser`: the side-by-side benchmark
//! (`bench/run.mjs --gpu`) in Chromium on the GPU of another machine, one
//! with no network, no Node.js and no checkout, reached only by copying
//! files in and out.
//!
//! - `--build-only` packs everything the run needs into
//!   `target/gpu-browser/`: `part-NN` (Chromium with the libraries it
//!   links, Node.js, and the npm packages the pages and the driver import,
//!   compressed and split so that each part fits one copy) and `kit/`
//!   (`run.sh`, the `zstd` that unpacks the parts, and `kit.tar.zst`: this
//!   program, the pages, the built package and `manifest.json`, which
//!   names the commit and the command). It prints how to carry them.
//! - There, `sh kit/run.sh stash` keeps the parts copied so far, and
//!   `sh kit/run.sh run OUT` unpacks them and runs `xtask bench
//!   --gpu-browser --run-packed SITE OUT`: the pages served from SITE
//!   cross-origin isolated, the driver writing its figures to OUT.
//! - `--report OUT` renders OUT's figures here into `bench/results/`: the
//!   reports, and the side-by-side figures as JSON too
//!   (`<date>-<commit>-gpu-browser.json`, written by `bench/run.mjs
//!   --render`).
//!
//! Options for the run: `--rounds N` (3), `--frames N` (20), `--cpu-rounds
//! N` (5), `--cpu-calls N` (60), and `--dirty` to pack a tree with changes.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::exec::{run, Result};
use crate::native_bench::{clean_enough, git, number, write};
use crate::pack::json_string;
use crate::serve;

/// What the packed run is given. Each part plus the tree, the kit and the
/// Vulkan loaders must fit one copy to the GPU machine (64 MiB).
const PART_BYTES: u64 = 40 << 20;

/// Where the packed files go, and the compressed base kept between packs.
fn folders(root: &Path) -> (PathBuf, PathBuf) {
    (
        root.join("target/gpu-browser"),
        root.join("target/gpu-browser-cache"),
    )
}

/// `bench --gpu-browser ARGS`, after the package is built when packing.
pub fn bench(root: &Path, args: &[String]) -> Result<()> {
    match args.first().map(String::as_str) {
        Some("--report") => {
            let out = Path::new(
                args.get(1)
                    .ok_or("--report needs the folder run.sh wrote")?,
            );
            // The parts that ran there (BENCH_PARTS): the side-by-side
            // benchmark's figures, the effects' costs, or both.
            let reports = [
                ("raw.json", "bench/run.mjs"),
                ("effects.json", "bench/effects-gpu.mjs"),
            ];
            let mut any = false;
            for (file, driver) in reports {
                let path = out.join(file);
                if path.exists() {
                    run(Command::new("node")
                        .current_dir(root)
                        .arg(driver)
                        .arg("--render")
                        .arg(path))?;
                    any = true;
                }
            }
            if any {
                Ok(())
            } else {
                Err(format!(
                    "{}: neither raw.json nor effects.json",
                    out.display()
                ))
            }
        }
        Some("--run-packed") => match (args.get(1), args.get(2)) {
            (Some(site), Some(out)) => run_packed(Path::new(site), Path::new(out)),
            _ => Err("--run-packed needs SITE and OUT".into()),
        },
        _ => pack(root, args),
    }
}

/// Whether `args` ask for a pack (which needs the package built first).
pub fn packs(args: &[String]) -> bool {
    !matches!(
        args.first().map(String::as_str),
        Some("--report" | "--run-packed")
    )
}

/// The driver's options from `args`, checked here so that a typo fails
/// before minutes of packing, not on the other machine.
fn driver_args(args: &[String]) -> Result<(Vec<String>, bool)> {
    let mut driver = vec![
        "--rounds".into(),
        "3".into(),
        "--frames".into(),
        "20".into(),
    ];
    driver.extend([
        "--cpu-rounds".into(),
        "5".into(),
        "--cpu-calls".into(),
        "60".into(),
    ]);
    let mut dirty = false;
    let mut build_only = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--rounds" | "--frames" | "--cpu-rounds" | "--cpu-calls" => {
                let value = it.next().ok_or(format!("{arg} needs a number"))?;
                let n = number(arg, value, 1..=1000)?;
                let at = driver.iter().position(|a| a == arg).unwrap_or(driver.len());
                driver[at + 1] = n.to_string();
            }
            "--dirty" => dirty = true,
            "--build-only" => build_only = true,
            other => {
                return Err(format!(
                    "bench --gpu-browser: unknown argument '{other}' (--build-only, --rounds N, \
                     --frames N, --cpu-rounds N, --cpu-calls N, --dirty; --report OUT)"
                ))
            }
        }
    }
    if !build_only {
        return Err(
            "bench --gpu-browser runs on another machine: pack it with --build-only, \
                    run kit/run.sh there, then render with --report OUT"
                .into(),
        );
    }
    Ok((driver, dirty))
}

/// Packs the run (see the module's documentation).
fn pack(root: &Path, args: &[String]) -> Result<()> {
    let (driver, dirty) = driver_args(args)?;
    let changes = clean_enough(root, dirty)?;
    let commit = git(root, &["rev-parse", "--short=10", "HEAD"])?;
    let (folder, cache) = folders(root);
    if folder.exists() {
        std::fs::remove_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    }
    let kit = folder.join("kit");
    let site = folder.join("stage/site");
    std::fs::create_dir_all(&site).map_err(|e| format!("{}: {e}", site.display()))?;
    std::fs::create_dir_all(&kit).map_err(|e| format!("{}: {e}", kit.display()))?;
    let base = base_bundle(root, &cache)?;
    let parts = split(&base, &folder)?;

    // The kit: the pages and driver, the built package, this program.
    copy_tree(
        &root.join("bench"),
        &site.join("bench"),
        &["results", "size-floor"],
    )?;
    copy_tree(&root.join("www"), &site.join("www"), &[])?;
    let me = std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?;
    copy(&me, &folder.join("stage/xtask"))?;
    let command = format!("cargo xtask bench --gpu-browser {}", args.join(" "));
    let manifest = format!(
        "{{\n  \"tree\": {{ \"commit\": {}, \"changes\": [{}] }},\n  \"command\": {},\n  \"driver\": [{}]\n}}\n",
        json_string(&commit),
        changes.iter().map(|c| json_string(c)).collect::<Vec<_>>().join(", "),
        json_string(command.trim_end()),
        driver.iter().map(|a| json_string(a)).collect::<Vec<_>>().join(", ")
    );
    write(&site.join("manifest.json"), &manifest)?;
    run(Command::new("sh")
        .arg("-c")
        .arg("tar -C \"$1\" -cf - site xtask | zstd -q -19 -T0 -o \"$2\"")
        .arg("sh")
        .arg(folder.join("stage"))
        .arg(kit.join("kit.tar.zst")))?;
    std::fs::remove_dir_all(folder.join("stage")).map_err(|e| format!("stage: {e}"))?;
    carry_zstd(&kit)?;
    write(&kit.join("run.sh"), &script(parts.len()))?;
    print_plan(root, &folder, &parts)
}

/// Chromium (Debian's `/usr/lib/chromium` without its driver, emulators
/// and validation layer) with every library it links but the C library's
/// own, Node.js, and the npm packages: one `zstd --long` archive, made
/// once for these versions and kept in `cache`.
fn base_bundle(root: &Path, cache: &Path) -> Result<PathBuf> {
    let versions = Command::new("sh")
        .arg("-c")
        .arg(
            "/usr/lib/chromium/chromium --version 2>/dev/null; node --version; \
              cat node_modules/three/package.json node_modules/postprocessing/package.json \
              node_modules/playwright-core/package.json | grep '\"version\"'",
        )
        .current_dir(root)
        .output()
        .map_err(|e| format!("reading versions: {e}"))?;
    let key = fnv(&versions.stdout);
    let bundle = cache.join(format!("base-{key:016x}.tar.zst"));
    if bundle.exists() {
        eprintln!("xtask: reusing {}", bundle.display());
        return Ok(bundle);
    }
    std::fs::create_dir_all(cache).map_err(|e| format!("{}: {e}", cache.display()))?;
    eprintln!("xtask: compressing Chromium, Node.js and the npm packages (a few minutes, once)");
    run(Command::new("sh")
        .arg("-c")
        .arg(BASE_SCRIPT)
        .arg("sh")
        .arg(root)
        .arg(&bundle))?;
    Ok(bundle)
}

/// Lays out and compresses the base archive: `$1` the checkout, `$2` the
/// archive. Library names come from `ldd`; the C library and the dynamic
/// loader stay the machine's own.
const BASE_SCRIPT: &str = r#"set -e
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/chromium/libs" "$stage/site/node_modules"
cp -a /usr/lib/chromium/. "$stage/chromium/"
rm -f "$stage"/chromium/chromedriver "$stage"/chromium/libVkLayer_* "$stage"/chromium/libvk_swiftshader* \
  "$stage"/chromium/vk_swiftshader_icd.json "$stage"/chromium/libVkICD_mock_icd*
ldd /usr/lib/chromium/chromium | awk '$3 ~ /^\// { print $3 }' \
  | grep -Ev '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*)\.so' \
  | while read -r lib; do cp -L "$lib" "$stage/chromium/libs/"; done
cp -L "$(command -v node)" "$stage/node"
for p in three postprocessing playwright-core pngjs; do cp -a "$1/node_modules/$p" "$stage/site/node_modules/"; done
tar -C "$stage" -cf - . | zstd -q -19 --long=27 -T0 -o "$2.partial"
mv "$2.partial" "$2"
"#;

/// Splits `bundle` into `folder/part-NN`, each at most `PART_BYTES`.
fn split(bundle: &Path, folder: &Path) -> Result<Vec<PathBuf>> {
    run(Command::new("split")
        .arg("-b")
        .arg(PART_BYTES.to_string())
        .args(["-d", "-a", "2"])
        .arg(bundle)
        .arg(folder.join("part-")))?;
    let mut parts: Vec<PathBuf> = std::fs::read_dir(folder)
        .map_err(|e| format!("{}: {e}", folder.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("part-"))
        })
        .collect();
    parts.sort();
    Ok(parts)
}

/// The GPU machine has `xz` but no `zstd`: carry this machine's, with the
/// compression libraries it links.
fn carry_zstd(kit: &Path) -> Result<()> {
    run(Command::new("sh")
        .arg("-c")
        .arg(
            "set -e; mkdir -p \"$1/zstd\"; cp -L \"$(command -v zstd)\" \"$1/zstd/\"; \
         ldd \"$(command -v zstd)\" | awk '$3 ~ /^\\// { print $3 }' \
         | grep -Ev '/(libc|libm|libdl|libpthread|librt)\\.so' \
         | while read -r lib; do cp -L \"$lib\" \"$1/zstd/\"; done",
        )
        .arg("sh")
        .arg(kit))
}

/// What `run.sh` does there, for `parts` parts.
fn script(parts: usize) -> String {
    format!(
        r#"#!/bin/sh
# Written by `cargo xtask bench --gpu-browser --build-only`. On the GPU
# machine, from the checkout's copy with `target/gpu-browser/` beside it:
#   sh target/gpu-browser/kit/run.sh stash     keeps the parts copied so far
#   sh target/gpu-browser/kit/run.sh run OUT   unpacks all {parts} and runs the benchmark
set -e
here=$(cd "$(dirname "$0")" && pwd)
store=/root/afterglow-gpu-browser
mkdir -p "$store"
for p in "$here"/../part-*; do [ -f "$p" ] && cp "$p" "$store/"; done
have=$(ls "$store" | grep -c '^part-' || true)
echo "run.sh: $have of {parts} part(s) kept in $store" >&2
[ "$1" = stash ] && exit 0
[ "$1" = run ] && [ -n "$2" ] || {{ echo "usage: run.sh stash | run OUT" >&2; exit 2; }}
out=$2
mkdir -p "$out"
[ "$have" -eq {parts} ] || {{ echo "run.sh: $have of {parts} parts: carry the missing ones first" >&2; exit 1; }}
export LD_LIBRARY_PATH="$here/zstd${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}"
if [ ! -x "$store/base/node" ]; then
  rm -rf "$store/base"; mkdir -p "$store/base"
  cat "$store"/part-* | "$here/zstd/zstd" -q -d --long=27 | tar -C "$store/base" -xf -
fi
rm -rf "$store/kit"; mkdir -p "$store/kit"
"$here/zstd/zstd" -q -d -c "$here/kit.tar.zst" | tar -C "$store/kit" -xf -
cp -a "$store/base/site/node_modules" "$store/kit/site/"
# The Vulkan and EGL loaders, where the caller carried them as .gl/*.deb.
if ls .gl/*.deb >/dev/null 2>&1; then for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig; fi
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES="$icd" VK_ICD_FILENAMES="$icd"
egl=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -f "$egl" ] && export __EGL_VENDOR_LIBRARY_FILENAMES="$egl"
export LD_LIBRARY_PATH="$store/base/chromium/libs:$LD_LIBRARY_PATH"
export CHROMIUM="$store/base/chromium/chromium" PATH="$store/base:$PATH"
export XDG_RUNTIME_DIR=${{XDG_RUNTIME_DIR:-/tmp}}
{{ date -u +%Y-%m-%dT%H:%M:%SZ; uname -srm; echo "cpus: $(nproc)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
  "$CHROMIUM" --version 2>/dev/null || true; }} > "$out/machine.txt"
"$store/kit/xtask" bench --gpu-browser --run-packed "$store/kit/site" "$out"
"#
    )
}

/// There: serves SITE cross-origin isolated and runs the driver with the
/// packed manifest's tree, command and options, its figures into OUT.
/// The parts of a packed run to make: BENCH_PARTS, a comma-separated list
/// of `street`, `bench` and `effects` (all three by default), for a second
/// call on a machine already measured. Read before the probe's minutes.
fn packed_parts() -> Result<Vec<String>> {
    const PARTS: [&str; 3] = ["street", "bench", "effects"];
    let parts: Vec<String> = match std::env::var("BENCH_PARTS") {
        Ok(list) => list.split(',').map(|p| p.trim().to_string()).collect(),
        Err(_) => PARTS.map(String::from).to_vec(),
    };
    match parts.iter().find(|p| !PARTS.contains(&p.as_str())) {
        Some(unknown) => Err(format!(
            "BENCH_PARTS: unknown part '{unknown}' (street, bench, effects)"
        )),
        None => Ok(parts),
    }
}

fn run_packed(site: &Path, out: &Path) -> Result<()> {
    let parts = packed_parts()?;
    let part = |name: &str| parts.iter().any(|p| p == name);
    let manifest = std::fs::read_to_string(site.join("manifest.json"))
        .map_err(|e| format!("{}: {e}", site.join("manifest.json").display()))?;
    let field = |name: &str| -> Result<String> {
        let key = format!("\"{name}\": ");
        let start = manifest
            .find(&key)
            .ok_or(format!("manifest.json has no {name}"))?
            + key.len();
        let end = manifest[start..]
            .find('\n')
            .map_or(manifest.len(), |e| start + e);
        Ok(manifest[start..end].trim_end_matches(',').to_string())
    };
    let driver: Vec<String> = field("driver")?
        .trim_matches(['[', ']'])
        .split(", ")
        .map(|a| a.trim_matches('"').to_string())
        .collect();
    let command = field("command")?;
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    // One log for every step: the copy back from that machine takes few files.
    let log = std::fs::File::create(out.join("log.txt")).map_err(|e| format!("log.txt: {e}"))?;
    let log = || log.try_clone().map_err(|e| format!("log.txt: {e}"));
    let server = serve::Server::start_isolated(site, 0)?;
    let base = format!("http://{}/", server.addr());
    // Which flags show GPU-drawn canvases here (bench/gpu-probe.mjs).
    let mut probe = Command::new("node");
    probe
        .current_dir(site)
        .env("BENCH_URL", &base)
        .arg("bench/gpu-probe.mjs")
        .arg(out)
        .stderr(log()?);
    eprintln!("+ {}", crate::exec::describe(&probe));
    let chosen = probe.output().map_err(|e| format!("gpu-probe: {e}"))?;
    if !chosen.status.success() {
        return Err("no set of Chromium flags shows GPU-drawn canvases: see probe.json".into());
    }
    let flags = String::from_utf8_lossy(&chosen.stdout).trim().to_string();
    // The demo's night street, live at the GPU's rate, first: it takes
    // seconds. Its failure, and that of the effects' costs after the
    // benchmark, are reported once the benchmark has run.
    let www = serve::Server::start(
        &site.join("www"),
        0,
        vec![("/vendor/three/", site.join("node_modules/three/build"))],
    )?;
    let www_url = format!("http://{}/", www.addr());
    // Each part's driver, with what any of them reads: the servers, the
    // flags the probe chose, and the tree and command the figures are of.
    let tree = field("tree")?;
    let command = command.trim_matches('"');
    let node = |script: &str| -> Result<Command> {
        let mut c = Command::new("node");
        c.current_dir(site)
            .env("BENCH_URL", &base)
            .env("AFTERGLOW_URL", &www_url)
            .env("BENCH_GPU", &flags)
            .env("BENCH_TREE", &tree)
            .env("AFTERGLOW_COMMAND", command)
            .arg(script)
            .stderr(log()?);
        Ok(c)
    };
    let street = if part("street") {
        run(node("bench/street.mjs")?.arg(out).arg("--gpu"))
    } else {
        Ok(())
    };
    if part("bench") {
        run(node("bench/run.mjs")?
            .arg("--gpu")
            .arg("--raw")
            .arg(out.join("raw.json"))
            .args(&driver))?;
    }
    // What anti-aliasing and depth of field cost there (bench/effects-gpu.mjs).
    let effects = if part("effects") {
        run(node("bench/effects-gpu.mjs")?.arg(out))
    } else {
        Ok(())
    };
    drop(www);
    street.and(effects)
}

/// Prints the copies to make, one call each, back to back.
fn print_plan(root: &Path, folder: &Path, parts: &[PathBuf]) -> Result<()> {
    let rel = |p: &Path| p.strip_prefix(root).unwrap_or(p).display().to_string();
    let size = |p: &Path| std::fs::metadata(p).map(|m| m.len() >> 20).unwrap_or(0);
    eprintln!(
        "xtask: packed into {}. On the GPU machine, one call each, back to back:",
        rel(folder)
    );
    let kit = rel(&folder.join("kit"));
    for (i, part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        eprintln!(
            "  {}. carry {} ({} MiB){}, run `sh {kit}/run.sh {}`",
            i + 1,
            rel(part),
            size(part),
            if last {
                format!(", {kit} and .gl")
            } else {
                format!(" and {kit}")
            },
            if last { "run OUT" } else { "stash" },
        );
    }
    eprintln!("then here: cargo xtask bench --gpu-browser --report OUT");
    Ok(())
}

fn copy(from: &Path, to: &Path) -> Result<()> {
    if let Some(dir) = to.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| format!("copying {}: {e}", from.display()))
}

/// Copies the folder `from` to `to`, leaving out the entries of `from`
/// named in `skip`.
fn copy_tree(from: &Path, to: &Path, skip: &[&str]) -> Result<()> {
    for entry in std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
        let path = entry
            .map_err(|e| format!("{}: {e}", from.display()))?
            .path();
        let name = path.file_name().unwrap_or_default();
        if skip.iter().any(|s| name == *s) {
            continue;
        }
        if path.is_dir() {
            copy_tree(&path, &to.join(name), &[])?;
        } else {
            copy(&path, &to.join(name))?;
        }
    }
    Ok(())
}

/// A 64-bit FNV-1a hash: names the cached base by what went into it.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|a| a.to_string()).collect()
    }

    #[test]
    fn the_driver_gets_the_defaults_with_the_options_given_in_their_place() {
        let (driver, dirty) = driver_args(&args(&["--build-only", "--rounds", "5"])).unwrap();
        assert_eq!(
            driver.join(" "),
            "--rounds 5 --frames 20 --cpu-rounds 5 --cpu-calls 60"
        );
        assert!(!dirty);
        let (_, dirty) = driver_args(&args(&["--dirty", "--build-only"])).unwrap();
        assert!(dirty);
    }

    #[test]
    fn a_run_here_a_typo_and_a_bad_number_are_refused_before_packing() {
        let here = driver_args(&args(&["--rounds", "3"])).unwrap_err();
        assert!(here.contains("--build-only"), "{here}");
        let typo = driver_args(&args(&["--build-only", "--round", "3"])).unwrap_err();
        assert!(typo.contains("unknown argument '--round'"), "{typo}");
        let zero = driver_args(&args(&["--build-only", "--frames", "0"])).unwrap_err();
        assert!(zero.contains("--frames"), "{zero}");
    }

    #[test]
    fn the_script_waits_for_every_part_before_it_unpacks() {
        let text = script(4);
        assert!(text.contains("[ \"$have\" -eq 4 ]"), "{text}");
        assert!(
            text.contains("--run-packed \"$store/kit/site\" \"$out\""),
            "{text}"
        );
    }
}
