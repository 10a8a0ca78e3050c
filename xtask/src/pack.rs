//! `cargo xtask pack`: the npm package around what `cargo xtask build`
//! leaves in `www/pkg` (the wasm, its JavaScript glue and declarations).
//!
//! Writes into that folder the package's entry point (`npm/index.js` and
//! `npm/index.d.ts`: the glue with `init()` tracked; `npm/ts5/index.d.ts`
//! for TypeScript before 6.0, with the WebGPU types of `@webgpu/types`,
//! at the version pinned in the repository's `package.json`), the
//! `afterglow-hdr/three` subpath (`npm/three.js`, `npm/three.d.ts`,
//! `npm/ts5/three.d.ts`; three.js an optional peer dependency over the
//! range the repository tests, see `three_range`), `package.json`
//! (name and version those of the crate in `Cargo.toml`), the README for
//! JavaScript users (`npm/README.md`) and the license files, removes
//! wasm-pack's `.gitignore` (`*`, which would hide a copied package from
//! its user's git), then runs `npm pack` into `target/npm/`. The demo in
//! `www/` imports the same folder.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::exec::Result;

/// Files of the package besides `package.json`, README and licenses. The
/// declarations of the raw wasm exports (`afterglow_bg.wasm.d.ts`) stay
/// out: `exports` does not let anyone import them.
const FILES: &[&str] = &[
    "index.js",
    "index.d.ts",
    "three.js",
    "three.d.ts",
    "ts5/",
    "afterglow.js",
    "afterglow.d.ts",
    "afterglow_bg.wasm",
    "snippets/",
];

/// Writes the package into `pkg_dir` and its tarball into `target/npm/`;
/// returns the tarball's path.
pub fn pack(root: &Path, pkg_dir: &Path) -> Result<PathBuf> {
    for needed in ["afterglow.js", "afterglow_bg.wasm", "afterglow.d.ts"] {
        if !pkg_dir.join(needed).is_file() {
            return Err(format!(
                "{} has no {needed}: run `cargo xtask build` first",
                pkg_dir.display()
            ));
        }
    }
    let (name, version) = cargo_package(root)?;
    let copy = |from: &Path, to: &str| -> Result<()> {
        std::fs::copy(from, pkg_dir.join(to))
            .map(drop)
            .map_err(|e| format!("{}: {e}", from.display()))
    };
    copy(&root.join("npm/index.js"), "index.js")?;
    copy(&root.join("npm/index.d.ts"), "index.d.ts")?;
    copy(&root.join("npm/three.js"), "three.js")?;
    copy(&root.join("npm/three.d.ts"), "three.d.ts")?;
    let ts5 = pkg_dir.join("ts5");
    std::fs::create_dir_all(&ts5).map_err(|e| format!("{}: {e}", ts5.display()))?;
    copy(&root.join("npm/ts5/index.d.ts"), "ts5/index.d.ts")?;
    copy(&root.join("npm/ts5/three.d.ts"), "ts5/three.d.ts")?;
    let webgpu_types = webgpu_types_version(root)?;
    let three = three_range(root)?;
    std::fs::write(pkg_dir.join("README.md"), npm_readme(root)?)
        .map_err(|e| format!("{}: {e}", pkg_dir.display()))?;
    copy(&root.join("LICENSE-MIT"), "LICENSE-MIT")?;
    copy(&root.join("LICENSE-APACHE"), "LICENSE-APACHE")?;
    let stale = pkg_dir.join(".gitignore");
    if stale.exists() {
        std::fs::remove_file(&stale).map_err(|e| format!("{}: {e}", stale.display()))?;
    }
    let files: Vec<&str> = FILES
        .iter()
        .copied()
        .filter(|f| pkg_dir.join(f).exists())
        .chain(["LICENSE-MIT", "LICENSE-APACHE"])
        .collect();
    std::fs::write(
        pkg_dir.join("package.json"),
        package_json(&name, &version, &files, &webgpu_types, &three),
    )
    .map_err(|e| format!("{}: {e}", pkg_dir.display()))?;

    let dest = root.join("target/npm");
    std::fs::create_dir_all(&dest).map_err(|e| format!("{}: {e}", dest.display()))?;
    let tarball = dest.join(format!("{name}-{version}.tgz"));
    crate::exec::run(
        Command::new("npm")
            .current_dir(pkg_dir)
            .args(["pack", "--silent", "--pack-destination"])
            .arg(&dest),
    )?;
    let size = std::fs::metadata(&tarball)
        .map_err(|e| format!("{}: {e}", tarball.display()))?
        .len();
    println!("{}: {size} bytes", tarball.display());
    Ok(tarball)
}

/// `npm/README.md` with the method and error tables of the API guide
/// (`docs/api.md`) and the options table of the options guide
/// (`docs/options.md`) put in at its markers, so that both say the same.
fn npm_readme(root: &Path) -> Result<String> {
    let read = |p: &str| std::fs::read_to_string(root.join(p)).map_err(|e| format!("{p}: {e}"));
    let section = |file: &str, heading: &str| -> Result<String> {
        let text = read(file)?;
        let start = text
            .find(&format!("\n## {heading}\n"))
            .ok_or_else(|| format!("{file} has no '## {heading}' section"))?;
        let body = &text[start + heading.len() + 5..];
        let end = body.find("\n## ").unwrap_or(body.len());
        Ok(body[..end].trim().to_string())
    };
    let mut out = read("npm/README.md")?;
    for (marker, file, headings) in [
        (
            "<!-- the API tables of afterglow's guide -->",
            "docs/api.md",
            &["Methods", "Errors"][..],
        ),
        (
            "<!-- the options table of afterglow's guide -->",
            "docs/options.md",
            &["The table"][..],
        ),
    ] {
        if !out.contains(marker) {
            return Err(format!("npm/README.md lacks the marker {marker}"));
        }
        let parts = headings
            .iter()
            .map(|h| section(file, h))
            .collect::<Result<Vec<_>>>()?;
        out = out.replace(marker, &parts.join("\n\n"));
    }
    Ok(out)
}

/// The crate's name and version (`Cargo.toml`'s `[package]`), which the
/// npm package has too: `afterglow` is taken on both registries, and
/// `afterglow-hdr` was free on both when chosen.
fn cargo_package(root: &Path) -> Result<(String, String)> {
    let path = root.join("Cargo.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let doc: toml::Table = text
        .parse()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let field = |key: &str| {
        doc.get("package")
            .and_then(|p| p.get(key))
            .and_then(|v| v.as_str())
            .map(String::from)
            .ok_or_else(|| format!("{}: no package.{key}", path.display()))
    };
    Ok((field("name")?, field("version")?))
}

/// The version of `@webgpu/types` pinned in the repository's `package.json`
/// (the one the type tests compile against): the package depends on it and
/// later 0.1 releases.
fn webgpu_types_version(root: &Path) -> Result<String> {
    pinned(root, "@webgpu/types", "")
}

/// The exact version of a dev dependency in the repository's
/// `package.json`, after `prefix` (`npm:three@` for an alias).
fn pinned(root: &Path, package: &str, prefix: &str) -> Result<String> {
    let path = root.join("package.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let key = format!("\"{package}\": \"{prefix}");
    let start = text
        .find(&key)
        .map(|i| i + key.len())
        .ok_or_else(|| format!("{}: no {key}...\" in devDependencies", path.display()))?;
    let version = &text[start..];
    let version = &version[..version.find('"').unwrap_or(0)];
    if version.is_empty() || !version.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return Err(format!(
            "{}: {package} must be pinned to an exact version, found '{version}'",
            path.display()
        ));
    }
    Ok(version.to_string())
}

/// The three.js releases `afterglow-hdr/three` supports: from the lowest
/// the end-to-end test runs (`three-lowest` in package.json) up to the minor
/// release after the newest (`three`), which it runs too. `npm/three.js`
/// names the same range in its errors; a difference is refused here.
fn three_range(root: &Path) -> Result<String> {
    let lowest = pinned(root, "three-lowest", "npm:three@")?;
    let newest = pinned(root, "three", "")?;
    let minor: u32 = newest
        .split('.')
        .nth(1)
        .and_then(|m| m.parse().ok())
        .ok_or_else(|| format!("package.json: three {newest} is not 0.MINOR.PATCH"))?;
    let range = format!(">={lowest} <0.{}.0", minor + 1);
    let source = std::fs::read_to_string(root.join("npm/three.js"))
        .map_err(|e| format!("npm/three.js: {e}"))?;
    if !source.contains(&format!("const SUPPORTED = '{range}';")) {
        return Err(format!(
            "npm/three.js must say `const SUPPORTED = '{range}';` (the three.js versions \
             package.json tests: three-lowest {lowest}, three {newest})"
        ));
    }
    Ok(range)
}

/// `s` as a JSON string literal.
pub fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn package_json(
    name: &str,
    version: &str,
    files: &[&str],
    webgpu_types: &str,
    three: &str,
) -> String {
    let files: Vec<String> = files.iter().map(|f| json_string(f)).collect();
    format!(
        r#"{{
  "name": {name},
  "version": {version},
  "description": "HDR rendering and bloom for an HTML canvas on WebGPU, in WebAssembly: canvas configuration, an offscreen HDR chain, bloom and tonemapping behind a small API.",
  "license": "MIT OR Apache-2.0",
  "keywords": ["webgpu", "hdr", "bloom", "tonemapping", "canvas", "wasm"],
  "type": "module",
  "main": "./index.js",
  "module": "./index.js",
  "types": "./index.d.ts",
  "typesVersions": {{
    "<6.0": {{ "*": ["ts5/*"] }}
  }},
  "exports": {{
    ".": {{
      "types@<6.0": "./ts5/index.d.ts",
      "types": "./index.d.ts",
      "default": "./index.js"
    }},
    "./three": {{
      "types@<6.0": "./ts5/three.d.ts",
      "types": "./three.d.ts",
      "default": "./three.js"
    }},
    "./afterglow_bg.wasm": "./afterglow_bg.wasm",
    "./package.json": "./package.json"
  }},
  "files": [{files}],
  "sideEffects": ["./index.js", "./snippets/*"],
  "dependencies": {{
    "@webgpu/types": {webgpu_types}
  }},
  "peerDependencies": {{
    "three": {three}
  }},
  "peerDependenciesMeta": {{
    "three": {{ "optional": true }}
  }}
}}
"#,
        name = json_string(name),
        version = json_string(version),
        files = files.join(", "),
        webgpu_types = json_string(&format!("^{webgpu_types}")),
        three = json_string(three),
    )
}
