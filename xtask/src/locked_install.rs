//! `cargo install --locked` of the tools, built as [`tool_build`] says:
//! [`cargo_install`] as the registry has them (resolved afresh when a
//! locked dependency is gone), and [`install`] at an exact version, from
//! the lockfile its authors published, where that lockfile pins a version
//! the registry no longer serves. `setup.rs` decides what to install.
//!
//! wasm-bindgen-cli 0.2.130's `Cargo.lock` pins `webpki-roots` 1.0.11 (for
//! `ureq`), a version the crates.io index does not list (it ends at 1.0.10,
//! none of them yanked): `cargo install --locked wasm-bindgen-cli` stops at
//! "failed to select a version ... (locked to 1.0.11)" before building
//! anything, and without `--locked` cargo resolves every dependency afresh.
//! Here the published source is taken as it is, each locked package the
//! registry lacks is moved to the nearest version it has
//! (`cargo update -p name@version`, which changes that one entry and says
//! so), and the tool is installed from that source with `--locked`: every
//! other dependency at the version its authors tested.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::exec::{run, Result};

/// How many missing packages one lockfile may have before we give up.
const MOST_MISSING: usize = 8;

/// `cargo install --locked`, falling back to a fresh resolution when a
/// locked dependency is no longer available from the registry.
pub fn cargo_install(args: &[&str]) -> Result<()> {
    let mut locked = vec!["install", "--locked"];
    locked.extend(args);
    if run(tool_build(Command::new("cargo").args(&locked))).is_ok() {
        return Ok(());
    }
    eprintln!("xtask: retrying without --locked");
    let mut unlocked = vec!["install"];
    unlocked.extend(args);
    run(tool_build(Command::new("cargo").args(&unlocked)))
}

/// How `cargo install` builds the tools (wasm-pack, wasm-bindgen-cli,
/// geckodriver): optimised at level 1, without link-time optimisation,
/// in 16 codegen units. On a new 2-core machine that compiles
/// wasm-bindgen-cli in 122 s instead of 334 s, and it then processes the
/// browser suite's 41 MB test module in 0.84 s instead of 0.76 s (an
/// unoptimised build: 81 s, but 3.0 s for every module).
fn tool_build(command: &mut Command) -> &mut Command {
    command
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "1")
        .env("CARGO_PROFILE_RELEASE_LTO", "off")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")
        .env("CARGO_PROFILE_RELEASE_DEBUG", "0")
}

/// Installs `name` at exactly `version` with `--locked`.
pub fn install(name: &str, version: &str) -> Result<()> {
    let source = published_source(name, version)?;
    let dir = std::env::temp_dir().join(format!("afterglow-install-{name}-{version}"));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&source, &dir)?;
    let result = settle_lockfile(&dir, name, version).and_then(|()| {
        run(tool_build(&mut Command::new("cargo"))
            .args(["install", "--locked", "--force", "--path"])
            .arg(&dir))
    });
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// The unpacked source of `name` `version` as the registry publishes it
/// (its `Cargo.lock` included), fetched by `cargo metadata` on a scratch
/// package that depends on it.
fn published_source(name: &str, version: &str) -> Result<PathBuf> {
    let scratch = std::env::temp_dir().join(format!("afterglow-fetch-{name}-{version}"));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(scratch.join("src"))
        .map_err(|e| format!("{}: {e}", scratch.display()))?;
    let manifest = format!(
        "[package]\nname = \"fetch\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n\
         [dependencies]\n{name} = \"={version}\"\n\n[workspace]\n"
    );
    let write = |p: PathBuf, text: &str| {
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))
    };
    write(scratch.join("Cargo.toml"), &manifest)?;
    write(scratch.join("src/lib.rs"), "")?;
    let out = Command::new("cargo")
        .args(["metadata", "--format-version", "1", "--manifest-path"])
        .arg(scratch.join("Cargo.toml"))
        .output()
        .map_err(|e| format!("could not start cargo metadata: {e}"))?;
    let _ = std::fs::remove_dir_all(&scratch);
    if !out.status.success() {
        return Err(format!(
            "cargo metadata could not fetch {name} {version}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let json = String::from_utf8_lossy(&out.stdout);
    let wanted = format!("{name}-{version}");
    json.split("\"manifest_path\":\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .map(|p| PathBuf::from(p.replace("\\\\", "\\")))
        .find(|p| {
            p.parent()
                .and_then(Path::file_name)
                .is_some_and(|d| d == wanted.as_str())
        })
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .filter(|dir| dir.join("Cargo.lock").exists())
        .ok_or_else(|| {
            format!("cargo metadata found no published source of {wanted} with a Cargo.lock")
        })
}

/// Moves each locked package of `dir`'s lockfile that the registry does not
/// have to the nearest version it has, one at a time, until `cargo
/// metadata --locked` accepts the lockfile as it is.
fn settle_lockfile(dir: &Path, name: &str, version: &str) -> Result<()> {
    let manifest = dir.join("Cargo.toml");
    for _ in 0..=MOST_MISSING {
        let out = Command::new("cargo")
            .args([
                "metadata",
                "--locked",
                "--format-version",
                "1",
                "--manifest-path",
            ])
            .arg(&manifest)
            .output()
            .map_err(|e| format!("could not start cargo metadata: {e}"))?;
        if out.status.success() {
            return Ok(());
        }
        let stderr = String::from_utf8_lossy(&out.stderr);
        let Some((package, locked)) = missing_locked_package(&stderr) else {
            return Err(format!(
                "the lockfile of {name} {version} does not resolve, for a reason other than a \
                 missing version: {}",
                stderr.trim()
            ));
        };
        eprintln!(
            "xtask: {name} {version}'s Cargo.lock pins {package} {locked}, which the registry \
             does not have; moving that one package to the nearest version it has"
        );
        run(Command::new("cargo")
            .args(["update", "--manifest-path"])
            .arg(&manifest)
            .args(["-p", &format!("{package}@{locked}")]))?;
    }
    Err(format!(
        "the lockfile of {name} {version} pins more than {MOST_MISSING} versions the registry lacks"
    ))
}

/// From cargo's "failed to select a version for the requirement `name =
/// "^1.0.10"` (locked to 1.0.11)": the package and its locked version.
fn missing_locked_package(stderr: &str) -> Option<(String, String)> {
    let line = stderr.lines().find(|l| {
        l.contains("failed to select a version for the requirement") && l.contains("(locked to ")
    })?;
    let package = line
        .split('`')
        .nth(1)?
        .split(" =")
        .next()?
        .trim()
        .to_string();
    let locked = line
        .split("(locked to ")
        .nth(1)?
        .split(')')
        .next()?
        .trim()
        .to_string();
    (!package.is_empty() && !locked.is_empty()).then_some((package, locked))
}

fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    let entries = std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", from.display()))?;
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if src.is_dir() {
            copy_dir(&src, &dst)?;
        } else {
            std::fs::copy(&src, &dst).map_err(|e| format!("{}: {e}", src.display()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::missing_locked_package;

    #[test]
    fn reads_the_missing_package_from_cargos_error() {
        let stderr = "    Updating crates.io index\n\
             error: failed to select a version for the requirement `webpki-roots = \"^1.0.10\"` (locked to 1.0.11)\n\
             candidate versions found which didn't match: 1.0.10, 1.0.9, 1.0.8, ...\n";
        assert_eq!(
            missing_locked_package(stderr),
            Some(("webpki-roots".to_string(), "1.0.11".to_string()))
        );
        assert_eq!(missing_locked_package("error: could not compile `x`"), None);
    }
}
