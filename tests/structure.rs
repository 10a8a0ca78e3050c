//! The shape of the source tree:
//! - no module imports a module that imports it back, directly or through
//!   others, by any form of path (`use crate::a::{b, c::d}`, `use super::x`,
//!   `self::`, a child module named by its bare name, a path in code);
//! - every module of `src/` is in one of the layers of [`LAYERS`], and
//!   imports only from its own layer or lower ones;
//! - no function in `src/` or `xtask/src/` is longer than 100 lines (test
//!   modules aside), nor in the JavaScript of `www/` and `npm/`;
//! - the program of `tests/post_contract.rs` names only the public API;
//! - no item of `src/` is `pub` and `#[doc(hidden)]`: what the crate's
//!   own code needs is `pub(crate)`, not public and left out of the docs;
//! - xtask's modules keep to the layers of [`XTASK_LAYERS`]: no circle, no
//!   import of a higher layer, nothing imported from `main.rs`;
//! - ARCHITECTURE.md's layer table is [`LAYERS`].
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// `src/a/b.rs` and `src/a/b/mod.rs` → `a::b`; `src/lib.rs` (or a
/// program's `src/main.rs`) → ``.
fn module_name(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts
        .last()
        .is_some_and(|p| p == "mod" || p == "lib" || p == "main")
    {
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

/// The source with comments, string and character literals blanked out
/// (newlines kept, so line numbers hold).
fn strip(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let blank = |out: &mut Vec<u8>, s: &[u8]| {
        out.extend(s.iter().map(|&c| if c == b'\n' { b'\n' } else { b' ' }))
    };
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        let end = if rest.starts_with(b"//") {
            rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len())
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            let mut j = 0;
            loop {
                if j + 1 >= rest.len() {
                    break rest.len();
                }
                if rest[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if rest[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break j;
                    }
                } else {
                    j += 1;
                }
            }
        } else if rest[0] == b'r'
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
            && rest[1..].iter().take_while(|&&c| c == b'#').count() + 1 < rest.len()
            && rest[1 + rest[1..].iter().take_while(|&&c| c == b'#').count()] == b'"'
        {
            let hashes = rest[1..].iter().take_while(|&&c| c == b'#').count();
            let close: Vec<u8> = std::iter::once(b'"').chain(vec![b'#'; hashes]).collect();
            let from = 2 + hashes;
            rest[from..]
                .windows(close.len())
                .position(|w| w == close.as_slice())
                .map_or(rest.len(), |p| from + p + close.len())
        } else if rest[0] == b'"' {
            let mut j = 1;
            while j < rest.len() && rest[j] != b'"' {
                j += if rest[j] == b'\\' { 2 } else { 1 };
            }
            (j + 1).min(rest.len())
        } else if rest[0] == b'\'' {
            // A character literal ('a', '\n', '\u{..}'), not a lifetime.
            let close = if rest.get(1) == Some(&b'\\') {
                rest[2..].iter().position(|&c| c == b'\'').map(|p| p + 3)
            } else {
                (rest.get(2) == Some(&b'\'')).then_some(3)
            };
            match close {
                Some(n) => n,
                None => {
                    out.push(b'\'');
                    i += 1;
                    continue;
                }
            }
        } else {
            out.push(rest[0]);
            i += 1;
            continue;
        };
        blank(&mut out, &rest[..end]);
        i += end;
    }
    String::from_utf8(out).unwrap()
}

/// `code` (stripped) with the bodies of its test modules (`mod tests { … }`,
/// `mod x_tests { … }`) blanked: their `use super::*` is the file's own
/// module, and tests may reach anywhere.
fn without_test_modules(code: &str) -> String {
    let mut out = code.to_string();
    let mut from = 0;
    while let Some(at) = out[from..].find("mod ").map(|p| from + p) {
        from = at + 4;
        let name: String = out[from..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let after = out[from + name.len()..].trim_start();
        let word_start = at == 0 || !out.as_bytes()[at - 1].is_ascii_alphanumeric();
        if !word_start || !(name == "tests" || name.ends_with("_tests")) || !after.starts_with('{')
        {
            continue;
        }
        let open = out[from..].find('{').unwrap() + from;
        let mut depth = 0;
        let mut close = out.len();
        for (i, c) in out[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = open + i;
                        break;
                    }
                }
                _ => {}
            }
        }
        let blank: String = out[open + 1..close]
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect();
        out.replace_range(open + 1..close, &blank);
        from = close;
    }
    out
}

/// Identifiers and `::`, `{`, `}`, `,`, `;` as tokens; everything else
/// separates them.
fn tokens(code: &str) -> Vec<&str> {
    let mut out = vec![];
    let b = code.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_alphanumeric() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(&code[start..i]);
        } else if code[i..].starts_with("::") {
            out.push("::");
            i += 2;
        } else {
            if matches!(c, b'{' | b'}' | b',' | b';' | b'*') {
                out.push(&code[i..i + 1]);
            }
            i += 1;
        }
    }
    out
}

/// Every path a `use` tree names, its groups expanded:
/// `crate::{a::b, c}` → `crate::a::b`, `crate::c`.
fn use_paths(toks: &[&str], prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let mut path = prefix.clone();
    let mut i = 0;
    while i < toks.len() {
        match toks[i] {
            "::" => {}
            "{" => {
                loop {
                    i += 1;
                    i += use_paths(&toks[i..], path.clone(), out);
                    if i >= toks.len() || toks[i] != "," {
                        break;
                    }
                }
                // At the closing brace.
                return i + 1;
            }
            "," | "}" | ";" => {
                out.push(path);
                return i;
            }
            "as" => i += 1,
            t => path.push(t.to_string()),
        }
        i += 1;
    }
    out.push(path);
    i
}

/// Every path `code` names: each of its `use` trees, expanded, and each
/// path in code (`a::b::c(…)`), as their segments.
fn named_paths(code: &str) -> Vec<Vec<String>> {
    let toks = tokens(code);
    let mut paths: Vec<Vec<String>> = vec![];
    let mut i = 0;
    while i < toks.len() {
        if toks[i] == "use" {
            let end = toks[i..]
                .iter()
                .position(|t| *t == ";")
                .map_or(toks.len(), |p| i + p);
            use_paths(&toks[i + 1..end], vec![], &mut paths);
            i = end;
        } else if toks.get(i + 1) == Some(&"::") && (i == 0 || toks[i - 1] != "::") {
            let mut path = vec![toks[i].to_string()];
            let mut j = i + 1;
            while toks.get(j) == Some(&"::")
                && toks.get(j + 1).is_some_and(|t| {
                    t.len() > 1 || t.chars().all(|c| c.is_alphanumeric() || c == '_')
                })
            {
                path.push(toks[j + 1].to_string());
                j += 2;
            }
            paths.push(path);
            i = j;
            continue;
        }
        i += 1;
    }
    paths
}

/// The crate modules a module's code names, by any form of path.
fn imports(module: &str, code: &str, known: &BTreeSet<String>) -> BTreeSet<String> {
    let paths = named_paths(code);
    let here: Vec<&str> = module.split("::").filter(|s| !s.is_empty()).collect();
    let mut out = BTreeSet::new();
    for path in paths {
        let mut segs: Vec<String> = vec![];
        let mut rest = path.as_slice();
        match rest.first().map(String::as_str) {
            Some("crate") => rest = &rest[1..],
            Some("self") => {
                segs = here.iter().map(|s| s.to_string()).collect();
                rest = &rest[1..];
            }
            Some("super") => {
                segs = here.iter().map(|s| s.to_string()).collect();
                while rest.first().is_some_and(|s| s == "super") {
                    segs.pop();
                    rest = &rest[1..];
                }
            }
            Some(first) => {
                // A child module by its bare name (`bloom::plan` in `passes`).
                let mut child: Vec<String> = here.iter().map(|s| s.to_string()).collect();
                child.push(first.to_string());
                if !known.contains(&child.join("::")) {
                    continue;
                }
                segs = here.iter().map(|s| s.to_string()).collect();
            }
            None => continue,
        }
        segs.extend(rest.iter().cloned());
        // The longest prefix of the path that is a module: the crate root
        // (``) when none is shorter (`crate::Error`, an item of `lib.rs`).
        loop {
            let candidate = segs.join("::");
            if known.contains(&candidate) {
                if candidate != module {
                    out.insert(candidate);
                }
                break;
            }
            if segs.pop().is_none() {
                break;
            }
        }
    }
    out
}

/// The first circle in `graph`, as the modules along it.
fn find_circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    for start in graph.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<(String, Vec<String>)> = graph[start]
            .iter()
            .map(|m| (m.clone(), vec![start.clone(), m.clone()]))
            .collect();
        while let Some((m, path)) = stack.pop() {
            if &m == start {
                return Some(path);
            }
            if !seen.insert(m.clone()) {
                continue;
            }
            for n in graph.get(&m).into_iter().flatten() {
                let mut p = path.clone();
                p.push(n.clone());
                stack.push((n.clone(), p));
            }
        }
    }
    None
}

/// Whether module `name` is test code: a module named `tests` or `…_tests`,
/// or one inside it (`tests::native` is `src/tests/native.rs`). Test code
/// may reach anywhere; shipped code never reaches into it.
fn is_test_module(name: &str) -> bool {
    name.split("::")
        .any(|s| s == "tests" || s.ends_with("_tests"))
}

/// The shipped modules and the crate modules each names; test modules,
/// in files of their own or inline, left out.
fn src_graph() -> BTreeMap<String, BTreeSet<String>> {
    module_graph(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

/// The modules of the crate whose sources are in `src` (its root `` as
/// well), each with the modules it imports, its test modules aside.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let texts = module_texts(src);
    let known: BTreeSet<String> = texts.keys().cloned().collect();
    texts
        .iter()
        .map(|(m, t)| (m.clone(), imports(m, t, &known)))
        .collect()
}

/// Each module of `src` with its code, stripped, test modules blanked.
fn module_texts(src: &Path) -> BTreeMap<String, String> {
    let mut all = vec![];
    files(src, &mut all);
    all.iter()
        .filter(|f| !is_test_module(&module_name(src, f)))
        .map(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            (module_name(src, f), without_test_modules(&strip(&text)))
        })
        .collect()
}

#[test]
fn src_has_no_import_circles() {
    let mut graph = src_graph();
    // The crate root declares and re-exports everything: it is the top.
    graph.remove("");
    for deps in graph.values_mut() {
        deps.remove("");
    }
    if let Some(circle) = find_circle(&graph) {
        panic!("import circle: {}", circle.join(" → "));
    }
    // The detector sees real imports of each form, and only shipped code.
    assert!(graph["chain"].contains("frame"), "use crate::a::B");
    assert!(
        graph.contains_key("passes::bloom") && !graph.keys().any(|m| is_test_module(m)),
        "test modules in the graph"
    );
    assert!(
        is_test_module("tests::native") && is_test_module("passes::bloom_tests"),
        "a test module's file"
    );
    assert!(!is_test_module("passes::tested") && !is_test_module("testsuite"));
    assert!(
        graph["passes::scene"].contains("passes::content"),
        "super::"
    );
    assert!(
        graph["passes"].contains("passes::bloom"),
        "a child by its bare name"
    );
}

#[test]
fn the_circle_detector_sees_every_form_of_path() {
    let known: BTreeSet<String> = ["", "a", "a::b", "a::c", "d", "e", "f"]
        .into_iter()
        .map(String::from)
        .collect();
    let code = strip(
        "use crate::{d, e::Thing as Other};\n\
         // use crate::f; (a comment)\n\
         fn g() { let s = \"crate::f::x\"; b::h(); self::c::k(); }",
    );
    let found = imports("a", &code, &known);
    let want: BTreeSet<String> = ["d", "e", "a::b", "a::c"]
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(found, want);
    let up = imports(
        "a::b",
        &strip("use super::super::f; use super::c::X;"),
        &known,
    );
    let tests = without_test_modules(&strip(
        "fn f() {}\nmod tests { use super::*; use crate::d; }",
    ));
    assert!(imports("a::b", &tests, &known).is_empty(), "{tests}");
    assert_eq!(up, ["f", "a::c"].into_iter().map(String::from).collect());
    // Parent and child naming each other is a circle.
    let graph: BTreeMap<String, BTreeSet<String>> = [
        (
            "a".to_string(),
            imports("a", &strip("use b::Plan;"), &known),
        ),
        (
            "a::b".to_string(),
            imports("a::b", &strip("use super::Pass;"), &known),
        ),
    ]
    .into_iter()
    .collect();
    assert_eq!(
        find_circle(&graph),
        Some(vec!["a".to_string(), "a::b".to_string(), "a".to_string()])
    );
}

/// The layers of `src/`, lowest first. A module imports only modules of
/// its own layer or of a lower one; the crate root (`lib.rs`, which
/// declares and re-exports everything) is above them all. A name stands
/// for that module and every module under it, unless one of those is
/// named itself. Test modules (`tests`, `*_tests`) may reach anywhere.
///
/// - words: texture format names, uniform blocks' layouts, WGSL's tokens, JavaScript
///   property access; nothing of the renderer.
/// - options: what a caller may set, the table of its rules, its parsing.
/// - rules: the crate's errors and the rules checked on plain data before
///   the GPU sees anything: the frame's pass graph, textures, arguments,
///   `.cube` lookup tables.
/// - gpu: the device and what is made on it: pipelines, shader modules,
///   the output's encoding, readbacks, timing.
/// - effects: what runs fused inside the composite, built-in and the
///   user's, and the look textures they read.
/// - frame: the frame as data, its steps and slots, built by the passes.
/// - passes: the `Pass` trait and each pass.
/// - chain: the passes in order, the frame rebuilt when the shape changes.
/// - facades: the ways in: the JavaScript renderer (`web`), the Rust API
///   (`post`), the headless chain of the native tests.
const LAYERS: &[(&str, &[&str])] = &[
    ("words", &["formats", "uniform", "js", "wgsl"]),
    ("options", &["options"]),
    (
        "rules",
        &["error", "graph", "texture_rules", "arguments", "lut"],
    ),
    (
        "gpu",
        &["gpu", "pipeline", "shaders", "output", "readback", "timing"],
    ),
    ("effects", &["effect", "effects", "user_effect"]),
    ("frame", &["frame"]),
    ("passes", &["pass", "passes"]),
    ("chain", &["chain"]),
    ("facades", &["post", "web", "headless"]),
];

/// The layer of `module`: the index in `layers` of the longest name that
/// is the module or one above it; `layers.len()` for the crate root.
fn layer_of(module: &str, layers: &[(&str, &[&str])]) -> Option<usize> {
    if module.is_empty() {
        return Some(layers.len());
    }
    let mut best: Option<(usize, usize)> = None;
    for (i, (_, names)) in layers.iter().enumerate() {
        for name in *names {
            let covers = module == *name
                || module
                    .strip_prefix(name)
                    .is_some_and(|rest| rest.starts_with("::"));
            if covers && best.is_none_or(|(len, _)| name.len() > len) {
                best = Some((name.len(), i));
            }
        }
    }
    best.map(|(_, i)| i)
}

/// What is wrong with `graph` against `layers`: names given twice or
/// naming no module, modules in no layer, and every import that runs up
/// (`from → to`, with their layers).
fn layer_faults(
    graph: &BTreeMap<String, BTreeSet<String>>,
    layers: &[(&str, &[&str])],
) -> Vec<String> {
    let mut faults = vec![];
    let mut seen = BTreeSet::new();
    for (_, names) in layers {
        for name in *names {
            if !seen.insert(*name) {
                faults.push(format!("`{name}` is in two layers"));
            }
            if !graph.contains_key(*name) {
                faults.push(format!("`{name}` names no module"));
            }
        }
    }
    let label = |i: usize| layers.get(i).map_or("the crate root", |l| l.0);
    for (module, deps) in graph {
        if is_test_module(module) {
            continue;
        }
        let Some(at) = layer_of(module, layers) else {
            faults.push(format!("`{module}` is in no layer"));
            continue;
        };
        for dep in deps {
            match layer_of(dep, layers) {
                Some(to) if to > at => faults.push(format!(
                    "`{module}` ({}) imports `{dep}` ({}), a higher layer",
                    label(at),
                    label(to)
                )),
                _ => {}
            }
        }
    }
    faults
}

#[test]
fn src_imports_run_down_the_layers() {
    let graph = src_graph();
    let faults = layer_faults(&graph, LAYERS);
    assert!(faults.is_empty(), "{}", faults.join("\n"));
    // The layers are read from real imports.
    assert!(graph["passes::composite"].contains("effect"));
    assert!(graph.contains_key(""), "the crate root is a module");
}

#[test]
fn the_layer_check_finds_arrows_up_and_modules_left_out() {
    let layers: &[(&str, &[&str])] = &[("low", &["a", "a::b"]), ("high", &["c", "a::x"])];
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("", vec!["c"]),
        ("a", vec![]),
        ("a::b", vec!["a", "c"]),
        ("a::b::d", vec!["a::x"]),
        ("a::x", vec!["a"]),
        ("c", vec!["a::b", ""]),
        ("e", vec![]),
        ("a::tests", vec!["c"]),
    ]
    .into_iter()
    .map(|(m, d)| (m.to_string(), d.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(
        layer_faults(&graph, layers),
        [
            "`a::b` (low) imports `c` (high), a higher layer",
            "`a::b::d` (low) imports `a::x` (high), a higher layer",
            "`c` (high) imports `` (the crate root), a higher layer",
            "`e` is in no layer",
        ]
    );
    let twice: &[(&str, &[&str])] = &[("low", &["a", "gone"]), ("high", &["a"])];
    let faults = layer_faults(&graph, twice);
    assert!(
        faults.contains(&"`a` is in two layers".to_string()),
        "{faults:?}"
    );
    assert!(
        faults.contains(&"`gone` names no module".to_string()),
        "{faults:?}"
    );
    // `crate::Error` names the crate root.
    let known: BTreeSet<String> = ["", "a"].into_iter().map(String::from).collect();
    let found = imports("a", &strip("fn f() -> crate::Error { todo!() }"), &known);
    assert_eq!(found, [String::new()].into_iter().collect());
}

/// Functions of `code` longer than `limit` lines, with their first line;
/// test modules (`mod tests { … }`) aside.
fn long_functions(code: &str, limit: usize) -> Vec<(String, usize, usize)> {
    let toks_with_pos: Vec<(usize, &str)> = {
        let mut v = vec![];
        let b = code.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if c.is_ascii_alphanumeric() || c == b'_' {
                let s = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                v.push((s, &code[s..i]));
            } else {
                if matches!(c, b'{' | b'}' | b';') {
                    v.push((i, &code[i..i + 1]));
                }
                i += 1;
            }
        }
        v
    };
    let line_of = |pos: usize| code[..pos].matches('\n').count() + 1;
    let mut out = vec![];
    let mut i = 0;
    while i < toks_with_pos.len() {
        let (pos, t) = toks_with_pos[i];
        let skip_mod = t == "mod"
            && toks_with_pos
                .get(i + 1)
                .is_some_and(|(_, n)| *n == "tests" || n.ends_with("_tests"));
        if t == "fn" || skip_mod {
            // The body: the first `{` before any `;` (a declaration has none).
            let mut j = i + 1;
            while j < toks_with_pos.len() && !matches!(toks_with_pos[j].1, "{" | ";") {
                j += 1;
            }
            if j >= toks_with_pos.len() || toks_with_pos[j].1 == ";" {
                i = j;
                continue;
            }
            let mut depth = 0;
            let mut k = j;
            while k < toks_with_pos.len() {
                match toks_with_pos[k].1 {
                    "{" => depth += 1,
                    "}" => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                k += 1;
            }
            let end = toks_with_pos.get(k).map_or(code.len(), |(p, _)| *p);
            let lines = line_of(end) - line_of(pos) + 1;
            if t == "fn" && lines > limit {
                let name = toks_with_pos.get(i + 1).map_or("", |(_, n)| n);
                out.push((name.to_string(), line_of(pos), lines));
            }
            if skip_mod {
                i = k + 1;
                continue;
            }
        }
        i += 1;
    }
    out
}

#[test]
fn no_function_in_src_or_xtask_is_over_100_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = vec![];
    files(&root.join("src"), &mut all);
    files(&root.join("xtask/src"), &mut all);
    assert!(all.iter().any(|f| f.ends_with("xtask/src/main.rs")));
    let mut long = vec![];
    for f in &all {
        // A test module's own file (`src/tests/native.rs`, `src/a/tests.rs`).
        let rel = f.strip_prefix(root).unwrap().with_extension("");
        if is_test_module(&rel.to_string_lossy().replace('/', "::")) {
            continue;
        }
        let code = strip(&std::fs::read_to_string(f).unwrap());
        for (function, line, lines) in long_functions(&code, 100) {
            long.push(format!(
                "{}:{line} {function} has {lines} lines",
                f.display()
            ));
        }
    }
    assert!(
        long.is_empty(),
        "split by what they do:\n{}",
        long.join("\n")
    );
    // The counter counts: a 101-line function is found, a test module's is not.
    let body = "    x();\n".repeat(99);
    let planted = format!("fn big() {{\n{body}}}\nfn small() {{}}\n");
    assert_eq!(
        long_functions(&planted, 100),
        vec![("big".to_string(), 1, 101)]
    );
    let in_tests = format!("mod tests {{\n{planted}}}\n");
    assert!(long_functions(&in_tests, 100).is_empty());
}

/// The outside program uses `afterglow::` only for what the crate's front
/// page documents.
#[test]
fn the_outside_program_names_only_the_public_api() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/post_contract.rs");
    let code = strip(&std::fs::read_to_string(path).unwrap());
    let public = [
        "wgpu",
        "PostChain",
        "Options",
        "Error",
        "BlurMode",
        "Tonemapper",
        "AlphaMode",
        "ToneMapping",
        "BloomOptions",
        "OptionError",
        "ArgumentError",
    ];
    let toks = tokens(&code);
    let mut names = BTreeSet::new();
    for (i, t) in toks.iter().enumerate() {
        if *t == "afterglow" && toks.get(i + 1) == Some(&"::") {
            let mut paths = vec![];
            let end = toks[i..]
                .iter()
                .position(|t| *t == ";")
                .map_or(toks.len(), |p| i + p);
            use_paths(&toks[i + 2..end.min(i + 40)], vec![], &mut paths);
            for p in paths {
                if let Some(first) = p.first() {
                    names.insert(first.clone());
                }
            }
        }
    }
    let private: Vec<&String> = names
        .iter()
        .filter(|n| !public.contains(&n.as_str()))
        .collect();
    assert!(
        private.is_empty(),
        "names beyond the public API: {private:?}"
    );
    assert!(
        names.contains("PostChain"),
        "the detector sees the imports: {names:?}"
    );
}

/// The lines of `code` (stripped) where an attribute holding
/// `doc(hidden)` sits on a `pub` item (other attributes between them
/// read through); `pub(crate)` and the like are not public.
fn hidden_public_items(code: &str) -> Vec<usize> {
    let b = code.as_bytes();
    // The end of the attribute opening at `at` (`#[` or `#![`).
    let attribute_end = |at: usize| {
        let mut depth = 0;
        for (i, &c) in b.iter().enumerate().skip(at) {
            match c {
                b'[' => depth += 1,
                b']' => {
                    depth -= 1;
                    if depth == 0 {
                        return i + 1;
                    }
                }
                _ => {}
            }
        }
        b.len()
    };
    let line_of = |pos: usize| code[..pos].matches('\n').count() + 1;
    let mut out = vec![];
    let mut from = 0;
    while let Some(at) = code[from..].find('#').map(|p| from + p) {
        let opens = code[at + 1..].trim_start().trim_start_matches('!');
        if !opens.trim_start().starts_with('[') {
            from = at + 1;
            continue;
        }
        let end = attribute_end(at);
        from = end.max(at + 1);
        let attribute: String = code[at..end].split_whitespace().collect();
        if !attribute.contains("doc(hidden)") {
            continue;
        }
        // The item: past blank space and any further attributes.
        let mut next = end;
        loop {
            let rest = &code[next..];
            let trimmed = rest.trim_start();
            next += rest.len() - trimmed.len();
            if trimmed.starts_with('#') {
                next = attribute_end(next);
            } else {
                break;
            }
        }
        let item: String = code[next..].chars().take(4).collect();
        let public = item.starts_with("pub")
            && !item[3..].starts_with(|c: char| c == '(' || c == '_' || c.is_alphanumeric());
        if public {
            out.push(line_of(at));
        }
    }
    out
}

#[test]
fn no_public_item_of_src_is_hidden_from_the_docs() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = vec![];
    files(&src, &mut all);
    let mut hidden = vec![];
    for f in &all {
        let code = strip(&std::fs::read_to_string(f).unwrap());
        for line in hidden_public_items(&code) {
            hidden.push(format!("{}:{line}", f.display()));
        }
    }
    assert!(
        hidden.is_empty(),
        "#[doc(hidden)] on a pub item: make it pub(crate), or document it as API:\n{}",
        hidden.join("\n")
    );
    // The detector sees through other attributes and blank space, and
    // leaves crate-private items, comments and other attributes alone.
    let planted = "struct A;\n#[doc(hidden)]\npub fn a() {}\n\
                   #[cfg(test)]\n# [ doc ( hidden ) ]\n#[inline]\n  pub  fn b() {}\n\
                   #[doc(hidden)]\npub(crate) fn c() {}\n\
                   // #[doc(hidden)]\npub fn d() {}\n\
                   #[doc = \"x\"]\npub fn e() {}\n\
                   #[doc(hidden)]\nfn public_f() {}\n";
    assert_eq!(hidden_public_items(&strip(planted)), vec![2, 5]);
}

// ---- JavaScript: www/ and npm/ ----

/// JavaScript with comments, strings, template literals' text and regular
/// expression literals blanked out (newlines kept); a template literal's
/// `${…}` stays code. A `/` starts a regular expression where an operand
/// is expected: at the start, after an operator or opening bracket, or
/// after a keyword such as `return`.
fn strip_js(src: &str) -> String {
    let b = src.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let blank = |out: &mut Vec<u8>, s: &[u8]| {
        out.extend(s.iter().map(|&c| if c == b'\n' { b'\n' } else { b' ' }))
    };
    // Where a template literal's `${` was opened: the depth of braces that
    // closes it back into the template's text.
    let mut templates: Vec<usize> = vec![];
    let mut depth = 0usize;
    let mut i = 0;
    // Whether the last significant code ends an operand (a name, a number,
    // `)` or `]`): then `/` divides.
    let operand_before = |out: &Vec<u8>| -> bool {
        let code: Vec<u8> = out
            .iter()
            .rev()
            .copied()
            .skip_while(|c| c.is_ascii_whitespace())
            .collect();
        let Some(&last) = code.first() else {
            return false;
        };
        if last == b')' || last == b']' {
            return true;
        }
        if !(last.is_ascii_alphanumeric() || last == b'_' || last == b'$') {
            return false;
        }
        let word: Vec<u8> = code
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_' || **c == b'$')
            .copied()
            .collect();
        let word: String = word.iter().rev().map(|&c| c as char).collect();
        !matches!(
            word.as_str(),
            "return"
                | "typeof"
                | "instanceof"
                | "in"
                | "of"
                | "new"
                | "delete"
                | "void"
                | "throw"
                | "case"
                | "do"
                | "else"
                | "yield"
                | "await"
        )
    };
    // The end of a template literal's text from `i` (just past a backtick
    // or a closing `}`): at the closing backtick (consumed) or at `${`.
    let template_text = |i: usize| -> (usize, bool) {
        let mut j = i;
        while j < b.len() {
            match b[j] {
                b'\\' => j += 2,
                b'`' => return (j + 1, false),
                b'$' if b.get(j + 1) == Some(&b'{') => return (j + 2, true),
                _ => j += 1,
            }
        }
        (b.len(), false)
    };
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            let end = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest.starts_with(b"/*") {
            let end = rest[2..]
                .windows(2)
                .position(|w| w == b"*/")
                .map_or(rest.len(), |p| p + 4);
            blank(&mut out, &rest[..end]);
            i += end;
        } else if b[i] == b'\'' || b[i] == b'"' {
            let q = b[i];
            let mut j = i + 1;
            while j < b.len() && b[j] != q && b[j] != b'\n' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(b.len());
            out.push(b'"');
            blank(&mut out, &b[i + 1..end.saturating_sub(1).max(i + 1)]);
            out.push(b'"');
            i = end;
        } else if b[i] == b'`' {
            let (end, opened) = template_text(i + 1);
            out.push(b'"');
            blank(&mut out, &b[i + 1..end]);
            if opened {
                templates.push(depth);
                depth += 1;
                out.pop();
                out.pop();
                out.extend(b"${");
            } else {
                out.pop();
                out.push(b'"');
            }
            i = end;
        } else if b[i] == b'/' && !operand_before(&out) {
            // A regular expression literal, with its classes and flags.
            let mut j = i + 1;
            let mut class = false;
            while j < b.len() && b[j] != b'\n' {
                match b[j] {
                    b'\\' => j += 1,
                    b'[' => class = true,
                    b']' => class = false,
                    b'/' if !class => break,
                    _ => {}
                }
                j += 1;
            }
            j += 1;
            while j < b.len() && b[j].is_ascii_alphabetic() {
                j += 1;
            }
            let end = j.min(b.len());
            out.push(b'/');
            blank(&mut out, &b[i + 1..end - 1]);
            out.push(b'/');
            i = end;
        } else if b[i] == b'{' {
            depth += 1;
            out.push(b'{');
            i += 1;
        } else if b[i] == b'}' {
            depth = depth.saturating_sub(1);
            if templates.last() == Some(&depth) {
                // Back into the template's text.
                templates.pop();
                let (end, opened) = template_text(i + 1);
                out.push(b'}');
                blank(&mut out, &b[i + 1..end]);
                if opened {
                    templates.push(depth);
                    depth += 1;
                    out.truncate(out.len() - 2);
                    out.extend(b"${");
                }
                i = end;
            } else {
                out.push(b'}');
                i += 1;
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Functions of stripped JavaScript `code` longer than `limit` lines: a
/// `{` after `=>`, or after a parameter list that follows `function`, a
/// function's or a method's name (not `if`, `for`, `while`, `switch`,
/// `catch`, `with`). A function's lines include the functions inside it.
fn long_js_functions(code: &str, limit: usize) -> Vec<(String, usize, usize)> {
    let b = code.as_bytes();
    let line_of = |pos: usize| code[..pos].matches('\n').count() + 1;
    let before = |mut p: usize| {
        while p > 0 && b[p - 1].is_ascii_whitespace() {
            p -= 1;
        }
        p
    };
    let word_before = |p: usize| {
        let end = before(p);
        let mut s = end;
        while s > 0 && (b[s - 1].is_ascii_alphanumeric() || b[s - 1] == b'_' || b[s - 1] == b'$') {
            s -= 1;
        }
        (s, &code[s..end])
    };
    let mut out = vec![];
    let mut open: Vec<(usize, Option<String>)> = vec![];
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'{' => {
                let p = before(i);
                let function = if p >= 2 && &b[p - 2..p] == b"=>" {
                    // The name an arrow function is assigned to, if any.
                    let (s, _) = word_before(p - 2);
                    let head = &code[code[..s].rfind('\n').map_or(0, |n| n + 1)..p - 2];
                    let name = head
                        .split(|c: char| c == '=' || c == ':')
                        .next()
                        .and_then(|h| h.split_whitespace().last())
                        .unwrap_or("(arrow)");
                    Some(name.to_string())
                } else if p >= 1 && b[p - 1] == b')' {
                    // The matching `(` and the word before it.
                    let mut level = 0;
                    let mut q = p - 1;
                    loop {
                        match b[q] {
                            b')' => level += 1,
                            b'(' => {
                                level -= 1;
                                if level == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        if q == 0 {
                            break;
                        }
                        q -= 1;
                    }
                    let (_, word) = word_before(q);
                    (!matches!(word, "if" | "for" | "while" | "switch" | "catch" | "with")).then(
                        || {
                            if word.is_empty() {
                                "(function)".to_string()
                            } else {
                                word.to_string()
                            }
                        },
                    )
                } else {
                    None
                };
                open.push((i, function));
            }
            b'}' => {
                if let Some((start, Some(name))) = open.pop() {
                    let lines = line_of(i) - line_of(start) + 1;
                    if lines > limit {
                        out.push((name, line_of(start), lines));
                    }
                }
            }
            _ => {}
        }
    }
    out.sort_by_key(|f| f.1);
    out
}

fn js_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = vec![];
    for dir in ["www", "www/looks", "npm"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "js") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn no_function_in_www_or_npm_is_over_100_lines() {
    let mut long = vec![];
    let files = js_files();
    assert!(files.len() >= 10, "{files:?}");
    for f in &files {
        let code = strip_js(&std::fs::read_to_string(f).unwrap());
        assert_eq!(
            code.matches('{').count(),
            code.matches('}').count(),
            "{}: braces do not balance once strings, comments and regular expressions are \
             blanked: the JavaScript reader misread it",
            f.display()
        );
        for (function, line, lines) in long_js_functions(&code, 100) {
            long.push(format!(
                "{}:{line} {function} has {lines} lines",
                f.display()
            ));
        }
    }
    assert!(
        long.is_empty(),
        "split by what they do:\n{}",
        long.join("\n")
    );
}

#[test]
fn the_javascript_reader_sees_functions_and_skips_text() {
    let body = "  x();\n".repeat(99);
    let planted = format!(
        "async function big(a, b) {{\n{body}}}\nconst arrow = async (x) => {{\n{body}}};\n\
         class C {{\n  method(x) {{\n{body}  }}\n}}\nif (a) {{\n{body}}}\n"
    );
    let found = long_js_functions(&strip_js(&planted), 100);
    let names: Vec<&str> = found.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(names, ["big", "arrow", "method"], "{found:?}");
    assert_eq!(found[0].2, 101);
    // Braces in strings, comments, templates and regular expressions are
    // not code; a template's `${…}` is.
    let tricky = "const a = '{'; // }\nconst b = `{ ${ f({ x: 1 }) } } ${a}`;\n\
                  const c = /[}{]/g.test(s) ? 1 / 2 : \"}\";\n/* { */ function d() { return `${'}'}`; }\n";
    let code = strip_js(tricky);
    assert_eq!(code.matches('{').count(), 5, "{code}");
    assert_eq!(code.matches('}').count(), 5, "{code}");
    assert_eq!(code.lines().count(), tricky.lines().count());
}

// ---- xtask: its layers ----

/// xtask's modules (`xtask/src/`), lowest layer first, as [`LAYERS`] is
/// for `src/`; `main.rs`, the commands and the web build, is the root
/// above them all, and nothing imports from it.
const XTASK_LAYERS: &[(&str, &[&str])] = &[
    ("running a command", &["exec"]),
    ("installing a tool with cargo", &["locked_install"]),
    (
        "the steps the commands take",
        &["setup", "before", "pack", "serve", "driver", "shrink"],
    ),
    ("the native benchmark", &["native_bench"]),
    (
        "the browser benchmark on another machine's GPU",
        &["gpu_browser"],
    ),
];

/// The paths in `module`'s code that name an item of the crate root
/// rather than a module: `crate::run`, or `super::run` from a top-level
/// module. The root's own are none.
fn root_items(module: &str, code: &str, known: &BTreeSet<String>) -> Vec<String> {
    if module.is_empty() {
        return vec![];
    }
    let top_level = !module.contains("::");
    named_paths(code)
        .into_iter()
        .filter(|path| {
            let first = path.get(1).filter(|n| !known.contains(*n) && *n != "super");
            match path.first().map(String::as_str) {
                Some("crate") => first.is_some(),
                Some("super") => top_level && first.is_some(),
                _ => false,
            }
        })
        .map(|path| path.join("::"))
        .collect()
}

#[test]
fn xtask_keeps_to_its_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("xtask/src");
    let graph = module_graph(&src);
    if let Some(circle) = find_circle(&graph) {
        panic!("import circle in xtask: {}", circle.join(" → "));
    }
    let faults = layer_faults(&graph, XTASK_LAYERS);
    assert!(faults.is_empty(), "XTASK_LAYERS: {}", faults.join("\n"));
    let known: BTreeSet<String> = graph.keys().cloned().collect();
    for (module, code) in module_texts(&src) {
        let named = root_items(&module, &code, &known);
        assert!(
            named.is_empty(),
            "xtask/src/{module}.rs takes {named:?} from main.rs: move it to the layer that needs it"
        );
    }
    // The graph holds xtask's real imports.
    assert!(graph[""].contains("setup"), "{graph:?}");
    assert!(graph["setup"].contains("locked_install"), "{graph:?}");
    assert!(graph["native_bench"].contains("before"), "{graph:?}");
}

#[test]
fn an_item_of_the_root_is_found() {
    let known: BTreeSet<String> = ["", "a", "b", "c"].into_iter().map(String::from).collect();
    assert_eq!(
        root_items(
            "a",
            &strip("use crate::{b, run, Result}; fn f() { super::go() }"),
            &known
        ),
        ["crate::run", "crate::Result", "super::go"]
    );
    assert!(root_items("", &strip("fn f() { crate::run() }"), &known).is_empty());
    assert!(root_items("a", &strip("use crate::b::run; use super::c;"), &known).is_empty());
}

// ---- ARCHITECTURE.md names the same layers ----

/// The layer table of ARCHITECTURE.md's "Layers" section: each row's
/// layer name and the modules of its second cell, lowest first.
fn documented_layers(page: &str) -> Vec<(String, Vec<String>)> {
    let section = page
        .split("\n## Layers\n")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .unwrap_or_default();
    section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| layer "))
        .filter_map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split(" | ").map(str::trim).collect();
            let modules = cells
                .get(1)?
                .split(',')
                .map(|m| m.trim().trim_matches('`').to_string())
                .collect();
            Some((cells[0].to_string(), modules))
        })
        .collect()
}

#[test]
fn the_architecture_page_lists_the_layers_of_the_tree() {
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md"))
            .unwrap();
    let declared: Vec<(String, Vec<String>)> = LAYERS
        .iter()
        .map(|(name, modules)| {
            (
                name.to_string(),
                modules.iter().map(|m| m.to_string()).collect(),
            )
        })
        .collect();
    assert_eq!(
        documented_layers(&page),
        declared,
        "ARCHITECTURE.md's layer table and LAYERS in tests/structure.rs"
    );
    let planted = "# A\n\n## Layers\n\n| layer | modules | what |\n|---|---|---|\n| low | `a`, `b` | x |\n\n## Next\n| no | `c` | y |\n";
    assert_eq!(
        documented_layers(planted),
        [("low".to_string(), vec!["a".to_string(), "b".to_string()])]
    );
}

// ---- Each capability in its own room ----

/// The rows of the table that follows `heading` (a `## ` or `### `
/// heading of ARCHITECTURE.md), header and rule aside: each row's cells,
/// trimmed.
fn table_after(page: &str, heading: &str) -> Vec<Vec<String>> {
    let section = page.split(heading).nth(1).unwrap_or_default();
    section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// The names in a cell written as `` `a`, `b` `` (the words between
/// backticks; "nothing" for none).
fn names_in(cell: &str) -> BTreeSet<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

fn architecture_page() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md")).unwrap()
}

/// Which modules of `passes` each pass module imports, by their names
/// under `passes::` (a pass's own submodules aside: `composite::plan` is
/// the composite's).
fn pass_uses(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeMap<String, BTreeSet<String>> {
    let top = |m: &str| {
        m.strip_prefix("passes::")
            .map(|r| r.split("::").next().unwrap_or(r).to_string())
    };
    let mut uses: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, to) in graph {
        let Some(pass) = top(from) else { continue };
        let entry = uses.entry(pass.clone()).or_default();
        for t in to {
            if let Some(other) = top(t).filter(|o| *o != pass) {
                entry.insert(other);
            }
        }
    }
    uses
}

/// ARCHITECTURE.md's "Which passes use which" table is what the modules
/// of `src/passes/` import of each other: a pass module not listed, or
/// one importing what its row does not say, fails.
#[test]
fn the_architecture_page_says_which_passes_use_which() {
    let documented: BTreeMap<String, BTreeSet<String>> =
        table_after(&architecture_page(), "\n### Which passes use which\n")
            .into_iter()
            .flat_map(|row| {
                let uses = names_in(row.get(1).map_or("", String::as_str));
                let modules = names_in(row.first().map_or("", String::as_str));
                modules.into_iter().map(move |m| (m, uses.clone()))
            })
            .collect();
    assert_eq!(
        documented,
        pass_uses(&src_graph()),
        "ARCHITECTURE.md's table of which passes use which, against src/passes/"
    );
    // The reader of the graph: an import of another pass is seen, one of
    // a pass's own submodule is not.
    let planted: BTreeMap<String, BTreeSet<String>> = [
        ("passes::a", vec!["passes::b", "frame"]),
        ("passes::a::inner", vec!["passes::a"]),
        ("passes::b", vec![]),
    ]
    .into_iter()
    .map(|(m, to)| (m.to_string(), to.into_iter().map(str::to_string).collect()))
    .collect();
    let seen = pass_uses(&planted);
    assert_eq!(seen["a"], BTreeSet::from(["b".to_string()]));
    assert!(seen["b"].is_empty());
}

/// The fields of `pub struct <name>` in `code` (stripped), in order.
fn struct_fields(code: &str, name: &str) -> Vec<String> {
    let start = code
        .find(&format!("pub struct {name} {{"))
        .unwrap_or(code.len());
    let body = &code[start..];
    let body = &body[body.find('{').map_or(0, |i| i + 1)..body.find("\n}").unwrap_or(0)];
    body.lines()
        .filter_map(|l| {
            let l = l.trim().strip_prefix("pub ").unwrap_or(l.trim());
            let (field, _) = l.split_once(':')?;
            Some(field.trim().to_string())
        })
        .collect()
}

/// ARCHITECTURE.md's slot table names the HDR image and each field of
/// `frame::Slots`, no more and no fewer.
#[test]
fn the_slot_table_is_the_frames_slots() {
    let frame = strip(
        &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/frame.rs"))
            .unwrap(),
    );
    let mut slots: BTreeSet<String> = struct_fields(&frame, "Slots").into_iter().collect();
    assert!(slots.len() >= 6, "{slots:?}");
    slots.insert("hdr".to_string());
    // The table is the one whose header starts with `| slot |`.
    let page = architecture_page();
    let table = &page[page.find("\n| slot |").map_or(page.len(), |i| i + 1)..];
    let documented: BTreeSet<String> = table
        .lines()
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .flat_map(|l| names_in(l.trim_matches('|').split(" | ").next().unwrap_or("")))
        .collect();
    assert_eq!(
        documented, slots,
        "ARCHITECTURE.md's slot table against frame::Slots"
    );
    assert_eq!(
        struct_fields(
            &strip("pub struct S {\n    /// x: y\n    pub a: Option<u32>,\n    b: u8,\n}\n"),
            "S"
        ),
        ["a", "b"]
    );
}

/// Lines of `src/` that name depth of field outside its pass, the
/// options and the tests, comments aside (the pass owns its state and
/// decisions; the rest reach it through `depth_of_field::state` and the
/// public `DepthOfFieldState`).
fn depth_of_field_mentions(root: &Path) -> Vec<String> {
    let src = root.join("src");
    let mut all = vec![];
    files(&src, &mut all);
    let mut found = vec![];
    for f in all {
        let rel = f
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel.starts_with("src/tests/")
            || rel.starts_with("src/options/")
            || rel == "src/passes/depth_of_field.rs"
        {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        let code = without_test_modules(&strip(&text));
        for (line, kept) in text.lines().zip(code.lines()) {
            if kept.trim().is_empty() && !line.trim_start().starts_with('"') {
                continue;
            }
            let line = line.split("//").next().unwrap_or("").to_lowercase();
            let named = ["depth_of_field", "depthoffield"]
                .iter()
                .any(|w| line.contains(w))
                || line
                    .match_indices("coc")
                    .chain(line.match_indices("dof"))
                    .any(|(i, _)| i == 0 || !line.as_bytes()[i - 1].is_ascii_alphanumeric());
            if named {
                found.push(format!("{rel}: {}", line.trim()));
            }
        }
    }
    found
}

#[test]
fn depth_of_field_is_named_at_most_ten_times_outside_its_room() {
    let found = depth_of_field_mentions(Path::new(env!("CARGO_MANIFEST_DIR")));
    assert!(
        found.len() <= 10,
        "{} lines:\n{}",
        found.len(),
        found.join("\n")
    );
    assert!(
        !found.is_empty(),
        "the reader finds the re-export in lib.rs"
    );
}

/// The composite keeps its jobs apart: the plan and its WGSL
/// (`plan.rs`), the GPU pass (`mod.rs`), the neighbours' passes, each a
/// file of at most 700 lines.
#[test]
fn the_composite_is_split_along_its_seams() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/passes/composite");
    let mut all = vec![];
    files(&dir, &mut all);
    let names: BTreeSet<String> = all
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for part in ["mod.rs", "plan.rs", "neighbours.rs"] {
        assert!(
            names.contains(part),
            "src/passes/composite/{part}: {names:?}"
        );
    }
    for f in &all {
        let lines = std::fs::read_to_string(f).unwrap().lines().count();
        assert!(lines <= 700, "{}: {lines} lines", f.display());
    }
    // The plan needs no device.
    let plan = strip(&std::fs::read_to_string(dir.join("plan.rs")).unwrap());
    assert!(!plan.contains("Gpu") && !plan.contains("FrameBuilder"));
}
