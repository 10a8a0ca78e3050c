//! Installs what the build and the tests need, when it is missing. Every
//! step checks first, so a machine that has everything pays a few
//! milliseconds. Written for Debian (apt-get); run as root or with sudo.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::exec::{run, Result, Timings};
use crate::locked_install::{self, cargo_install};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// Enough to build the web package.
    Build,
    /// Everything: the build plus browser, driver, software Vulkan, npm packages.
    Test,
}

pub fn chromium() -> &'static str {
    "/usr/bin/chromium"
}

pub fn chromedriver() -> &'static str {
    "/usr/bin/chromedriver"
}

/// Firefox ESR, Debian's, for the browser suite's second engine.
pub fn firefox() -> &'static str {
    "/usr/bin/firefox-esr"
}

/// The geckodriver version `cargo install` pins.
const GECKODRIVER: &str = "0.37.1";

/// geckodriver, where `cargo install` puts it.
pub fn geckodriver() -> String {
    which("geckodriver").unwrap_or_else(|| {
        let home = std::env::var("CARGO_HOME")
            .unwrap_or_else(|_| format!("{}/.cargo", std::env::var("HOME").unwrap_or_default()));
        format!("{home}/bin/geckodriver")
    })
}

/// Firefox ESR and a pinned geckodriver, when missing.
pub fn ensure_firefox(timings: &mut Timings) -> Result<()> {
    timings.time("set-up: Firefox ESR", || {
        if present(firefox()) {
            return Ok(());
        }
        install_apt(&["firefox-esr"])
    })?;
    timings.time("set-up: geckodriver", || {
        if output_of(&geckodriver(), &["--version"]).is_some_and(|v| v.contains(GECKODRIVER)) {
            return Ok(());
        }
        cargo_install(&["geckodriver", "--version", GECKODRIVER])
    })
}

pub fn ensure(root: &Path, need: Need) -> Result<()> {
    ensure_timed(root, need, &mut Timings::default())
}

/// [`ensure`], each step timed into `timings` (what `cargo xtask test`
/// prints at the end: on a new machine, installing the tools is most of it).
pub fn ensure_timed(root: &Path, need: Need, timings: &mut Timings) -> Result<()> {
    timings.time("set-up: wasm target", wasm_target)?;
    timings.time("set-up: Debian packages", || apt_packages(need))?;
    timings.time("set-up: wasm-pack", wasm_pack)?;
    timings.time("set-up: wasm-bindgen-cli", || wasm_bindgen_cli(root))?;
    timings.time("set-up: npm packages", || npm_packages(root))
}

fn output_of(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

fn wasm_target() -> Result<()> {
    let installed = output_of("rustup", &["target", "list", "--installed"]).unwrap_or_default();
    if installed
        .lines()
        .any(|l| l.trim() == "wasm32-unknown-unknown")
    {
        return Ok(());
    }
    run(Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown"]))
}

/// (what must exist, the Debian package that provides it)
fn apt_requirements(need: Need) -> Vec<(&'static str, &'static str)> {
    let mut v = Vec::new();
    if which("node").is_none() || which("npm").is_none() {
        v.push(("/usr/bin/npm", "npm"));
    }
    if need == Need::Test {
        v.extend([
            ("/usr/bin/chromium", "chromium"),
            ("/usr/bin/chromedriver", "chromium-driver"),
            (
                "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json",
                "mesa-vulkan-drivers",
            ),
            ("/usr/lib/x86_64-linux-gnu/libvulkan.so.1", "libvulkan1"),
        ]);
    }
    v
}

fn which(program: &str) -> Option<String> {
    output_of("which", &[program]).map(|s| s.trim().to_string())
}

fn apt_packages(need: Need) -> Result<()> {
    let mut missing: Vec<&str> = apt_requirements(need)
        .into_iter()
        .filter(|(path, _)| !present(path))
        .map(|(_, pkg)| pkg)
        .collect();
    missing.dedup();
    if missing.is_empty() {
        return Ok(());
    }
    install_apt(&missing)
}

/// `apt-get install` of `packages` (through sudo unless root).
fn install_apt(packages: &[&str]) -> Result<()> {
    let sudo = !is_root();
    let apt = |args: &[&str]| -> Result<()> {
        let mut cmd = if sudo {
            let mut c = Command::new("sudo");
            c.arg("apt-get");
            c
        } else {
            Command::new("apt-get")
        };
        cmd.env("DEBIAN_FRONTEND", "noninteractive").args(args);
        run(&mut cmd)
    };
    apt(&["update", "-qq"])?;
    let mut args = vec!["install", "-y", "-qq", "--no-install-recommends"];
    args.extend(packages);
    apt(&args)
}

/// A file that exists, or for the lavapipe/loader checks, any file of the
/// same name under the other usual multiarch directories.
fn present(path: &str) -> bool {
    if Path::new(path).exists() {
        return true;
    }
    let name = Path::new(path)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    if name.starts_with("lvp_icd") {
        return std::fs::read_dir("/usr/share/vulkan/icd.d")
            .map(|d| {
                d.flatten()
                    .any(|e| e.file_name().to_string_lossy().starts_with("lvp_icd"))
            })
            .unwrap_or(false);
    }
    if name.starts_with("libvulkan.so") {
        return output_of("ldconfig", &["-p"])
            .map(|s| s.contains("libvulkan.so.1"))
            .unwrap_or(false);
    }
    false
}

fn is_root() -> bool {
    output_of("id", &["-u"])
        .map(|s| s.trim() == "0")
        .unwrap_or(false)
}

fn wasm_pack() -> Result<()> {
    if output_of("wasm-pack", &["--version"]).is_some() {
        return Ok(());
    }
    cargo_install(&["wasm-pack"])
}

/// The wasm-bindgen version in Cargo.lock; wasm-pack only uses a CLI on
/// PATH of exactly this version (otherwise it tries to download one).
pub fn locked_wasm_bindgen_version(root: &Path) -> Result<String> {
    let lock =
        std::fs::read_to_string(root.join("Cargo.lock")).map_err(|e| format!("Cargo.lock: {e}"))?;
    let doc: toml::Table = lock.parse().map_err(|e| format!("Cargo.lock: {e}"))?;
    doc.get("package")
        .and_then(|p| p.as_array())
        .and_then(|pkgs| {
            pkgs.iter()
                .find(|p| p.get("name").and_then(|n| n.as_str()) == Some("wasm-bindgen"))
        })
        .and_then(|p| p.get("version"))
        .and_then(|v| v.as_str())
        .map(String::from)
        .ok_or_else(|| "Cargo.lock has no wasm-bindgen package".into())
}

fn wasm_bindgen_cli(root: &Path) -> Result<()> {
    let version = locked_wasm_bindgen_version(root)?;
    let have = output_of("wasm-bindgen", &["--version"]).unwrap_or_default();
    if have.split_whitespace().nth(1) == Some(version.as_str()) {
        return Ok(());
    }
    locked_install::install("wasm-bindgen-cli", &version)
}

/// The npm tools of package.json (wasm-opt from binaryen, esbuild, the end-to-end
/// test's browser driver, the benchmark's peers and the lowest three.js
/// supported, the type test's compilers, WebGPU and three.js types), installed exactly as
/// package-lock.json says: again when package-lock.json is newer than
/// the install (npm's own record of it, node_modules/.package-lock.json).
fn npm_packages(root: &Path) -> Result<()> {
    let packages = [
        "binaryen",
        "esbuild",
        "playwright-core",
        "pngjs",
        "three",
        "three-lowest",
        "@types/three",
        "postprocessing",
        "vite",
        "typescript",
        "typescript-5.1",
        "@webgpu/types",
        "publint",
    ];
    let modified = |path: PathBuf| std::fs::metadata(path).and_then(|m| m.modified()).ok();
    let current = match (
        modified(root.join("node_modules/.package-lock.json")),
        modified(root.join("package-lock.json")),
    ) {
        (Some(installed), Some(locked)) => installed >= locked,
        _ => false,
    };
    let installed = current
        && packages.iter().all(|p| {
            root.join("node_modules")
                .join(p)
                .join("package.json")
                .exists()
        });
    if installed {
        return Ok(());
    }
    run(Command::new("npm")
        .current_dir(root)
        .args(["ci", "--no-audit", "--no-fund"]))
}

/// An `XDG_RUNTIME_DIR` for native Vulkan runs: the loader's WSI layer
/// (lavapipe's too) complains without one.
pub fn runtime_dir() -> PathBuf {
    let dir = std::env::temp_dir().join("afterglow-xdg");
    let _ = std::fs::create_dir_all(&dir);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700));
    }
    dir
}

/// binaryen's wasm-opt, from node_modules.
pub fn wasm_opt(root: &Path) -> PathBuf {
    root.join("node_modules/.bin/wasm-opt")
}

/// esbuild, from node_modules: minifies the JS glue.
pub fn esbuild(root: &Path) -> PathBuf {
    root.join("node_modules/.bin/esbuild")
}

#[cfg(test)]
mod tests {
    /// A real install of the wasm-bindgen-cli that `Cargo.lock` names,
    /// minutes of compiling: `CARGO_INSTALL_ROOT=/tmp/x cargo test -p xtask
    /// -- --ignored` puts it under /tmp/x.
    #[test]
    #[ignore]
    fn installs_the_locked_wasm_bindgen_cli() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let version = super::locked_wasm_bindgen_version(&root).unwrap();
        crate::locked_install::install("wasm-bindgen-cli", &version).unwrap();
    }
}
