//! Short names for what the wasm imports from its JavaScript glue and
//! exports to it, after wasm-bindgen and wasm-opt.
//!
//! wasm-bindgen names every import after the JS function and a hash
//! (`__wbg_getCurrentTexture_5d3d…`) and every export after the Rust item
//! (`renderer_setSceneShader`). Each name is written in the wasm and again
//! in the glue, and compresses badly. Here each import module, import field
//! and export is renamed to a one- or two-letter name in the wasm, the glue
//! (`afterglow.js`) and the TypeScript declarations of the raw module;
//! `memory` keeps its name (`InitOutput` exposes it). The step checks that
//! no old name is left in the glue, so a change in wasm-bindgen's output
//! fails the build instead of shipping a package that cannot link.

use std::collections::HashMap;
use std::path::Path;

use wasm_encoder::reencode::{Reencode, RoundtripReencoder};
use wasmparser::{Parser, Payload};

use crate::exec::Result;

/// Exports that keep their names.
const KEEP: &[&str] = &["memory"];

/// The `n`th short identifier: `a`..`z`, `A`..`Z`, then two letters.
fn short_name(mut n: usize) -> String {
    const FIRST: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    const NEXT: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let mut s = String::new();
    s.push(FIRST[n % FIRST.len()] as char);
    n /= FIRST.len();
    while n > 0 {
        n -= 1;
        s.push(NEXT[n % NEXT.len()] as char);
        n /= NEXT.len();
    }
    s
}

/// The renaming of one package.
#[derive(Default)]
struct Names {
    /// Import module → new module name.
    modules: HashMap<String, String>,
    /// Import field (names are unique across modules in wasm-bindgen's
    /// output; checked) → new field name.
    fields: HashMap<String, String>,
    /// Export → new export name.
    exports: HashMap<String, String>,
}

fn wasm_err(e: impl std::fmt::Display) -> String {
    format!("shrink: {e}")
}

/// Renames in the wasm; returns the new bytes and the renaming.
fn rename_wasm(bytes: &[u8]) -> Result<(Vec<u8>, Names)> {
    let mut names = Names::default();
    let mut module = wasm_encoder::Module::new();
    let mut field_count: HashMap<String, usize> = HashMap::new();
    for payload in Parser::new(0).parse_all(bytes) {
        let payload = payload.map_err(wasm_err)?;
        match &payload {
            Payload::ImportSection(reader) => {
                let mut section = wasm_encoder::ImportSection::new();
                for import in reader.clone().into_imports() {
                    let import = import.map_err(wasm_err)?;
                    let next = names.modules.len();
                    let module_name = names
                        .modules
                        .entry(import.module.to_string())
                        .or_insert_with(|| short_name(next))
                        .clone();
                    let count = field_count.entry(module_name.clone()).or_default();
                    let field = short_name(*count);
                    *count += 1;
                    if names
                        .fields
                        .insert(import.name.to_string(), field.clone())
                        .is_some()
                    {
                        return Err(format!(
                            "shrink: import field '{}' appears twice",
                            import.name
                        ));
                    }
                    let ty = RoundtripReencoder
                        .entity_type(import.ty)
                        .map_err(wasm_err)?;
                    section.import(&module_name, &field, ty);
                }
                module.section(&section);
            }
            Payload::ExportSection(reader) => {
                let mut section = wasm_encoder::ExportSection::new();
                for export in reader.clone() {
                    let export = export.map_err(wasm_err)?;
                    let name = if KEEP.contains(&export.name) {
                        export.name.to_string()
                    } else {
                        let n = short_name(names.exports.len());
                        names.exports.insert(export.name.to_string(), n.clone());
                        n
                    };
                    let kind = RoundtripReencoder
                        .export_kind(export.kind)
                        .map_err(wasm_err)?;
                    section.export(&name, kind, export.index);
                }
                module.section(&section);
            }
            other => {
                if let Some((id, range)) = other.as_section() {
                    let data = &bytes[range.start as usize..range.end as usize];
                    module.section(&wasm_encoder::RawSection { id, data });
                }
            }
        }
    }
    Ok((module.finish(), names))
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$'
}

fn is_ident(c: u8) -> bool {
    is_ident_start(c) || c.is_ascii_digit()
}

/// Rewrites every identifier of `text` for which `rename(prefix, ident)`
/// gives a new name; `prefix` is the text before the identifier.
fn rewrite_idents(text: &str, mut rename: impl FnMut(&str, &str) -> Option<String>) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut copied = 0;
    while i < b.len() {
        if is_ident_start(b[i]) && (i == 0 || !is_ident(b[i - 1])) {
            let start = i;
            while i < b.len() && is_ident(b[i]) {
                i += 1;
            }
            let ident = &text[start..i];
            if let Some(new) = rename(&text[..start], ident) {
                out.push_str(&text[copied..start]);
                out.push_str(&new);
                copied = i;
            }
        } else {
            i += 1;
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// Renames in the glue: import fields wherever they appear as identifiers
/// (object keys of the import object), import modules where they appear as
/// string keys, exports where they are read from `wasm.`.
fn rename_js(js: &str, names: &Names) -> Result<String> {
    let mut js = js.to_string();
    for (old, new) in &names.modules {
        let mut found = false;
        for quote in ['"', '\''] {
            let from = format!("{quote}{old}{quote}");
            if js.contains(&from) {
                found = true;
                js = js.replace(&from, &format!("{quote}{new}{quote}"));
            }
        }
        if !found {
            return Err(format!(
                "shrink: import module '{old}' not found in the glue"
            ));
        }
    }
    let js = rewrite_idents(&js, |before, ident| {
        if let Some(new) = names.fields.get(ident) {
            return Some(new.clone());
        }
        if before.ends_with("wasm.") {
            return names.exports.get(ident).cloned();
        }
        None
    });
    // Every old import name must be gone, and no old export name may be
    // read as a property or string anywhere else: one left means the glue
    // uses it in a way this step does not know, and the package would fail
    // to link. (The glue has local wrapper functions named like the
    // exports they call; those are plain identifiers and may stay.)
    let mut left = Vec::new();
    rewrite_idents(&js, |before, ident| {
        let property = before.ends_with('.') || before.ends_with('"') || before.ends_with('\'');
        if names.fields.contains_key(ident) || (property && names.exports.contains_key(ident)) {
            left.push(ident.to_string());
        }
        None
    });
    if !left.is_empty() {
        left.sort();
        left.dedup();
        return Err(format!(
            "shrink: the glue still uses {} after renaming",
            left.join(", ")
        ));
    }
    Ok(js)
}

/// Renames exports in TypeScript declarations where they are declared
/// (`readonly name:` in `InitOutput`, `export const name:` in the raw
/// module's declarations).
fn rename_dts(dts: &str, names: &Names) -> String {
    rewrite_idents(dts, |before, ident| {
        if before.ends_with("readonly ") || before.ends_with("export const ") {
            names.exports.get(ident).cloned()
        } else {
            None
        }
    })
}

fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn write(path: &Path, data: &[u8]) -> Result<()> {
    std::fs::write(path, data).map_err(|e| format!("{}: {e}", path.display()))
}

/// Shrinks the package in `dir` (named `name`: `name_bg.wasm`, `name.js`).
pub fn shrink(dir: &Path, name: &str) -> Result<()> {
    let wasm_path = dir.join(format!("{name}_bg.wasm"));
    let js_path = dir.join(format!("{name}.js"));
    let (wasm, names) = rename_wasm(&read(&wasm_path)?)?;
    let js = String::from_utf8(read(&js_path)?).map_err(wasm_err)?;
    let js = rename_js(&js, &names)?;
    for dts in [format!("{name}.d.ts"), format!("{name}_bg.wasm.d.ts")] {
        let path = dir.join(dts);
        if path.exists() {
            let text = String::from_utf8(read(&path)?).map_err(wasm_err)?;
            write(&path, rename_dts(&text, &names).as_bytes())?;
        }
    }
    write(&wasm_path, &wasm)?;
    write(&js_path, js.as_bytes())?;
    eprintln!(
        "xtask: renamed {} imports from {} modules and {} exports",
        names.fields.len(),
        names.modules.len(),
        names.exports.len()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_are_distinct_identifiers() {
        let all: Vec<String> = (0..5000).map(short_name).collect();
        let mut set = all.clone();
        set.sort();
        set.dedup();
        assert_eq!(set.len(), all.len());
        assert_eq!(&all[..3], ["a", "b", "c"]);
        assert!(all
            .iter()
            .all(|n| is_ident_start(n.as_bytes()[0]) && n.bytes().all(is_ident) && n.len() <= 3));
    }

    #[test]
    fn rewrites_whole_identifiers_only() {
        let names = Names {
            modules: [("./x_bg.js".to_string(), "a".to_string())].into(),
            fields: [("__wbg_f_1".to_string(), "b".to_string())].into(),
            exports: [("thing_run".to_string(), "c".to_string())].into(),
        };
        let js = "const i={__proto__:null,__wbg_f_1:function(){}};return {\"./x_bg.js\":i};\
                  function thing_run(){return wasm.thing_run();}thing_runner();";
        assert_eq!(
            rename_js(js, &names).unwrap(),
            "const i={__proto__:null,b:function(){}};return {\"a\":i};\
             function thing_run(){return wasm.c();}thing_runner();"
        );
        // An old name used another way is an error, not a broken package.
        let err =
            rename_js("'./x_bg.js'; wasm.thing_run(); other.thing_run();", &names).unwrap_err();
        assert!(err.contains("thing_run"), "{err}");
    }

    #[test]
    fn renames_imports_and_exports_in_a_module() {
        let mut m = wasm_encoder::Module::new();
        let mut types = wasm_encoder::TypeSection::new();
        types.ty().function([], []);
        m.section(&types);
        let mut imports = wasm_encoder::ImportSection::new();
        imports.import(
            "./x_bg.js",
            "__wbg_long_name_1",
            wasm_encoder::EntityType::Function(0),
        );
        imports.import(
            "./x_bg.js",
            "__wbg_long_name_2",
            wasm_encoder::EntityType::Function(0),
        );
        m.section(&imports);
        let mut exports = wasm_encoder::ExportSection::new();
        exports.export("renderer_render", wasm_encoder::ExportKind::Func, 0);
        exports.export("memory", wasm_encoder::ExportKind::Func, 1);
        m.section(&exports);
        let (bytes, names) = rename_wasm(&m.finish()).unwrap();
        assert_eq!(names.modules["./x_bg.js"], "a");
        assert_eq!(names.fields["__wbg_long_name_2"], "b");
        assert_eq!(names.exports["renderer_render"], "a");
        assert!(!names.exports.contains_key("memory"));
        let mut seen = Vec::new();
        for p in Parser::new(0).parse_all(&bytes) {
            match p.unwrap() {
                Payload::ImportSection(r) => {
                    for i in r.into_imports() {
                        let i = i.unwrap();
                        seen.push(format!("{}.{}", i.module, i.name));
                    }
                }
                Payload::ExportSection(r) => {
                    for e in r {
                        seen.push(e.unwrap().name.to_string());
                    }
                }
                _ => {}
            }
        }
        assert_eq!(seen, ["a.a", "a.b", "a", "memory"]);
    }
}
