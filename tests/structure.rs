//! The shape of the source tree: no module imports a module that imports it
//! back (directly or through others), and no file in `src/` is over 500
//! lines.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// `src/a/b.rs` and `src/a/b/mod.rs` → `a::b`.
fn module_name(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts.join("::")
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The crate modules a file names in `use crate::…`, `crate::…` paths and
/// `super::…` paths (resolved against its own module).
fn imports(module: &str, text: &str, known: &BTreeSet<String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let parent: Vec<&str> = module.split("::").filter(|s| !s.is_empty()).collect();
    for (prefix, base) in [
        ("crate::", vec![]),
        ("super::", parent[..parent.len().saturating_sub(1)].to_vec()),
    ] {
        for (i, _) in text.match_indices(prefix) {
            // Skip comments: the line up to the match has no `//`.
            let line_start = text[..i].rfind('\n').map_or(0, |n| n + 1);
            if text[line_start..i].contains("//") {
                continue;
            }
            let rest = &text[i + prefix.len()..];
            let path: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let mut segs: Vec<String> = base.iter().map(|s| s.to_string()).collect();
            segs.extend(path.split("::").filter(|s| !s.is_empty()).map(String::from));
            // The longest prefix of the path that is a module.
            while !segs.is_empty() {
                let candidate = segs.join("::");
                if known.contains(&candidate) {
                    if candidate != module {
                        out.insert(candidate);
                    }
                    break;
                }
                segs.pop();
            }
        }
    }
    out
}

#[test]
fn src_has_no_import_circles_and_no_long_files() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = vec![];
    files(&src, &mut all);
    let mut long = vec![];
    let texts: BTreeMap<String, String> = all
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            let lines = text.lines().count();
            if lines > 500 {
                long.push(format!("{} has {lines} lines", f.display()));
            }
            (module_name(&src, f), text)
        })
        .collect();
    let known: BTreeSet<String> = texts.keys().cloned().collect();
    let graph: BTreeMap<&String, BTreeSet<String>> = texts
        .iter()
        .map(|(m, t)| (m, imports(m, t, &known)))
        .collect();
    // A circle: a module reachable from one of its own imports. A parent
    // module declaring its children (`pub mod x;`) is not an import.
    for start in graph.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<(String, Vec<String>)> = graph[start]
            .iter()
            .map(|m| (m.clone(), vec![(*start).clone(), m.clone()]))
            .collect();
        while let Some((m, path)) = stack.pop() {
            if &m == *start {
                panic!("import circle: {}", path.join(" → "));
            }
            if !seen.insert(m.clone()) {
                continue;
            }
            if let Some(next) = graph.get(&m) {
                for n in next {
                    let mut p = path.clone();
                    p.push(n.clone());
                    stack.push((n.clone(), p));
                }
            }
        }
    }
    assert!(long.is_empty(), "{}", long.join("\n"));
    // The detector sees real imports.
    assert!(graph[&"chain".to_string()].contains("frame"));
    assert!(graph[&"passes::scene".to_string()].contains("passes::content"));
}
