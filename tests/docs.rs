//! The README and the guides in `docs/`, as a reader meets them:
//! - every code block is one that a test runs ([`RUN`]), or a copy of one;
//!   a `sh` block holds only `cargo xtask` commands that xtask has;
//! - every relative link and image between the README, the guides,
//!   ARCHITECTURE.md and BENCHMARKS.md points at a file that exists, and
//!   every `#anchor` at a heading of its page;
//! - the README stays a front page: at most 150 lines, its opening (the
//!   first screen, before its first section) has one code block, the two
//!   commands, and it links every guide.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The blocks that tests run: the page, the heading the block follows (its
/// first block of that language), the language, and the test that reads it
/// there (which must name the page and the heading).
const RUN: &[(&str, &str, &str, &str)] = &[
    (
        "README.md",
        "## Quick start: a page of your own",
        "html",
        "tests/e2e/package.test.mjs",
    ),
    (
        "README.md",
        "## Quick start: a page of your own",
        "js",
        "tests/e2e/readme.test.mjs",
    ),
    (
        "README.md",
        "## Quick start: three.js in five lines",
        "js",
        "tests/e2e/readme.test.mjs",
    ),
    (
        "README.md",
        "## Quick start: Rust with wgpu",
        "rust",
        "build.rs",
    ),
    (
        "docs/own-renderer.md",
        "## Your device, your textures",
        "js",
        "tests/e2e/readme.test.mjs",
    ),
    (
        "docs/depth-of-field.md",
        "## Depth from your renderer",
        "js",
        "tests/e2e/depth-of-field.test.mjs",
    ),
    (
        "docs/effects.md",
        "# Your own effects",
        "js",
        "tests/e2e/readme.test.mjs",
    ),
    (
        "docs/effects.md",
        "## The light around a pixel",
        "js",
        "tests/e2e/readme.test.mjs",
    ),
    (
        "docs/performance.md",
        "## Render fewer pixels",
        "js",
        "tests/e2e/readme.test.mjs",
    ),
    (
        "docs/api.md",
        "## Errors",
        "js",
        "tests/e2e/readme.test.mjs",
    ),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The README and the guides, as paths relative to the root.
fn pages() -> Vec<String> {
    let mut guides: Vec<String> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    guides.sort();
    assert!(guides.len() >= 11, "the guides in docs/: {guides:?}");
    let mut all = vec!["README.md".to_string()];
    all.extend(guides);
    all
}

/// A fenced code block: its language, its text, and its first line.
struct Block {
    lang: String,
    text: String,
    line: usize,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(lang)) => {
                open = Some(Block {
                    lang: lang.trim().to_string(),
                    text: String::new(),
                    line: i + 1,
                })
            }
            (Some(_), Some("")) => out.extend(open.take()),
            (Some(block), _) => {
                block.text.push_str(line);
                block.text.push('\n');
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "a code block is not closed");
    out
}

/// The first `lang` block after the line `heading` of `text`.
fn block_after(text: &str, heading: &str, lang: &str) -> Option<String> {
    let from = format!("\n{text}").find(&format!("\n{heading}\n"))?;
    let rest = &text[from..];
    let start = rest.find(&format!("```{lang}\n"))? + lang.len() + 4;
    let len = rest[start..].find("```")?;
    Some(rest[start..start + len].to_string())
}

/// xtask's commands, as its `main` matches them.
fn xtask_commands() -> BTreeSet<String> {
    let main = read(&root().join("xtask/src/main.rs"));
    main.split("Some(\"")
        .skip(1)
        .filter_map(|s| s.split_once("\")"))
        .filter(|(_, after)| after.trim_start().starts_with("=>") || after.starts_with(" if"))
        .map(|(name, _)| name.to_string())
        .collect()
}

#[test]
fn every_code_block_is_run_by_a_test() {
    let root = root();
    let mut run = Vec::new();
    for &(page, heading, lang, runner) in RUN {
        let text = read(&root.join(page));
        let code = block_after(&text, heading, lang)
            .unwrap_or_else(|| panic!("{page}: no {lang} block after {heading:?}"));
        let runner_text = read(&root.join(runner));
        assert!(
            runner_text.contains(page) && runner_text.contains(heading),
            "{runner} does not read the {lang} block after {heading:?} of {page}"
        );
        run.push((lang, code));
    }
    let commands = xtask_commands();
    assert!(
        commands.contains("serve") && commands.contains("test"),
        "{commands:?}"
    );
    for page in pages() {
        for b in blocks(&read(&root.join(&page))) {
            let at = format!("{page}:{}", b.line);
            if b.lang == "sh" {
                for line in b.text.lines().map(str::trim).filter(|l| !l.is_empty()) {
                    let words: Vec<&str> = line.split_whitespace().collect();
                    assert!(
                        words.len() >= 3
                            && words[..2] == ["cargo", "xtask"]
                            && commands.contains(words[2]),
                        "{at}: {line:?} is not a command of cargo xtask ({commands:?})"
                    );
                }
                continue;
            }
            assert!(
                run.iter()
                    .any(|(lang, code)| *lang == b.lang && *code == b.text),
                "{at}: this {} block is run by no test: make it a copy of one in \
                 tests/docs.rs's RUN, or add it there with the test that runs it",
                b.lang
            );
        }
    }
}

/// GitHub's anchor for a heading: lower case, spaces as `-`, punctuation
/// left out.
fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// A page's anchors, with GitHub's `-1`, `-2` for repeated headings.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        }
        if in_code || !line.starts_with('#') {
            continue;
        }
        let base = slug(line.trim_start_matches('#').trim());
        let mut name = base.clone();
        let mut n = 0;
        while out.contains(&name) {
            n += 1;
            name = format!("{base}-{n}");
        }
        out.insert(name);
    }
    out
}

/// The targets of a page's links and images, outside code, with their
/// line numbers.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_code = false;
    for (i, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            in_code = !in_code;
        }
        if in_code {
            continue;
        }
        // Inline code spans blanked.
        let prose: String = line
            .split('`')
            .enumerate()
            .map(|(k, part)| if k % 2 == 0 { part } else { "" })
            .collect::<Vec<_>>()
            .join("");
        for (open, close) in [("](", ')'), ("src=\"", '"')] {
            for piece in prose.split(open).skip(1) {
                let target = piece.split(close).next().unwrap_or_default();
                out.push((i + 1, target.to_string()));
            }
        }
    }
    out
}

#[test]
fn every_link_between_the_pages_resolves() {
    let root = root();
    let mut checked = 0;
    let mut all = pages();
    all.extend(["ARCHITECTURE.md".to_string(), "BENCHMARKS.md".to_string()]);
    for page in all {
        let path = root.join(&page);
        let text = read(&path);
        let dir = path.parent().unwrap();
        for (line, target) in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let linked = if file.is_empty() {
                path.clone()
            } else {
                dir.join(file)
            };
            assert!(
                linked.exists(),
                "{page}:{line}: the link {target:?} points at nothing"
            );
            if !anchor.is_empty() {
                assert!(
                    anchors(&read(&linked)).contains(anchor),
                    "{page}:{line}: {target:?} names no heading of {}",
                    linked.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 30, "only {checked} links found");
}

#[test]
fn the_readme_is_a_front_page() {
    let readme = read(&root().join("README.md"));
    let lines = readme.lines().count();
    assert!(lines <= 150, "the README has {lines} lines; at most 150");
    let opening = &readme[..readme.find("\n## ").unwrap_or(readme.len())];
    let first = blocks(opening);
    assert_eq!(
        first.len(),
        1,
        "one code block before the README's first section"
    );
    let commands: Vec<&str> = first[0]
        .text
        .lines()
        .map(|l| l.split('#').next().unwrap_or_default().trim())
        .collect();
    assert_eq!(commands, ["cargo xtask serve", "cargo xtask test"]);
    for guide in pages().iter().skip(1) {
        assert!(
            readme.contains(&format!("]({guide})")),
            "the README links no {guide}"
        );
    }
}

#[test]
fn the_link_checks_can_fail() {
    let text = "# A page\n\n## Its part\n\nSee [x](#its-part), `[y](nowhere)`.\n```\n[z](q)\n```\n";
    assert_eq!(links(text), [(5, "#its-part".to_string())]);
    assert!(anchors(text).contains("its-part"));
    assert!(!anchors(text).contains("a-part"));
    assert_eq!(slug("What `ThreePost` does"), "what-threepost-does");
    assert_eq!(
        block_after("## A\n\n```js\nx\n```\n", "## A", "js").as_deref(),
        Some("x\n")
    );
}

/// The repository paths a page names in code spans (`src/frame.rs`,
/// `tests/golden/`, `build.rs`), with their lines: spans of path
/// characters under a top-level folder of the repository, naming a file
/// in a folder (`build/gone.rs`: whether or not the folder is there), or a
/// file at its root; placeholders (`src/passes/<effect>.rs`) left out.
fn named_paths(text: &str, root: &Path) -> Vec<(usize, String)> {
    let mut out = vec![];
    for (i, line) in text.lines().enumerate() {
        for span in line.split('`').skip(1).step_by(2) {
            let pathlike = !span.is_empty()
                && span
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "/._-".contains(c));
            let first = span.split('/').next().unwrap_or_default();
            let file = span.rsplit('/').next().is_some_and(|f| f.contains('.'));
            let rooted = if span.contains('/') {
                root.join(first).is_dir() || file
            } else {
                span.contains('.') && root.join(span).is_file()
            };
            if pathlike && rooted && !first.is_empty() {
                out.push((i + 1, span.to_string()));
            }
        }
    }
    out
}

#[test]
fn the_architecture_page_is_short_and_names_only_paths_that_exist() {
    let root = root();
    let text = read(&root.join("ARCHITECTURE.md"));
    let lines = text.lines().count();
    assert!(
        lines <= 250,
        "ARCHITECTURE.md has {lines} lines; at most 250"
    );
    let paths = named_paths(&text, &root);
    assert!(paths.len() > 20, "only {} paths found", paths.len());
    for (line, path) in paths {
        assert!(
            root.join(&path).exists(),
            "ARCHITECTURE.md:{line}: `{path}` does not exist"
        );
    }
    // The reader can fail: a missing path under a real folder is found.
    let planted = named_paths(
        "a `src/gone.rs`, `build/gone.rs`, `Chain::new`, `x/y`",
        &root,
    );
    assert_eq!(
        planted,
        [
            (1, "src/gone.rs".to_string()),
            (1, "build/gone.rs".to_string())
        ]
    );
}
