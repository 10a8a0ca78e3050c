// Minifies WGSL at build time (included by build.rs and by
// tests/shaders.rs): comments and the whitespace that separates no tokens
// are dropped, so naga and the browser see the same token stream. The
// internal shaders' private names (functions, constants, variables,
// parameters) are then shortened by `shorten_names`; struct names and
// members, entry points, override constants and every name a user's
// shader can see keep their spelling.

/// `//` line comments and nested `/* */` block comments removed; each
/// comment becomes one space so that it still separates tokens.
fn strip_comments(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    let mut copied = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            out.push_str(&src[copied..i]);
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            out.push(' ');
            copied = i;
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            out.push_str(&src[copied..i]);
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
            copied = i;
        } else {
            i += 1;
        }
    }
    out.push_str(&src[copied..]);
    out
}

/// Identifier and number characters.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '.'
}

/// Characters of operators, which must not run together where a space
/// kept them apart (`a - -b` is not `a--b`, `a / *p` is not a comment).
fn is_operator(c: char) -> bool {
    "+-*/%<>=!&|^~".contains(c)
}

/// The WGSL without comments and without whitespace between two tokens
/// unless both sides are words or both are operators.
pub fn minify_wgsl(src: &str) -> String {
    let text = strip_comments(src);
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            pending_space = true;
            continue;
        }
        if pending_space {
            if let Some(prev) = out.chars().next_back() {
                if (is_word(prev) && is_word(c)) || (is_operator(prev) && is_operator(c)) {
                    out.push(' ');
                }
            }
            pending_space = false;
        }
        out.push(c);
    }
    out
}

/// A token of minified WGSL: an identifier, a number, or one other
/// character.
fn tokens(src: &str) -> Vec<&str> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let c = b[i];
        if c.is_ascii_alphanumeric() || c == b'_' {
            // An identifier, or a number with its suffix (`1e-5` splits
            // at the sign, which does not matter here).
            while i < b.len()
                && (b[i].is_ascii_alphanumeric()
                    || b[i] == b'_'
                    || (c.is_ascii_digit() && b[i] == b'.'))
            {
                i += 1;
            }
        } else {
            i += src[i..].chars().next().map_or(1, char::len_utf8);
        }
        out.push(&src[start..i]);
    }
    out
}

fn is_identifier(t: &str) -> bool {
    t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
}

/// The names a shader declares that nothing outside it looks up: its
/// functions other than entry points, its module-scope `const` and `var`
/// (never `override`: pipelines set those by name), its locals and its
/// parameters. Struct names and members are never among them: the
/// uniform-layout test reads them from the shaders by name.
fn private_names<'a>(toks: &[&'a str]) -> Vec<&'a str> {
    let mut names = Vec::new();
    let mut depth_struct: Option<usize> = None;
    let mut braces = 0usize;
    let mut in_params = false;
    let mut parens = 0usize;
    for (i, &t) in toks.iter().enumerate() {
        let prev = if i > 0 { toks[i - 1] } else { "" };
        let next = toks.get(i + 1).copied().unwrap_or("");
        match t {
            "{" => braces += 1,
            "}" => {
                braces -= 1;
                if depth_struct == Some(braces) {
                    depth_struct = None;
                }
            }
            "(" if in_params => parens += 1,
            ")" if in_params => {
                parens -= 1;
                if parens == 0 {
                    in_params = false;
                }
            }
            _ => {}
        }
        // `fx_*`: the effects' functions and the names the composite's
        // generated code uses (`crate::effect`), which Rust spells.
        if !is_identifier(t)
            || prev == "."
            || prev == "@"
            || depth_struct.is_some()
            || t.starts_with("fx_")
        {
            continue;
        }
        match prev {
            "struct" => depth_struct = Some(braces),
            "fn" => {
                // `@vertex fn`, `@compute @workgroup_size(64) fn`: a stage
                // attribute among those since the last item.
                let attributes = toks[..i - 1]
                    .iter()
                    .rev()
                    .take_while(|t| !matches!(**t, "}" | ";"))
                    .collect::<Vec<_>>();
                let entry = attributes
                    .windows(2)
                    .any(|w| matches!(*w[0], "vertex" | "fragment" | "compute") && *w[1] == "@");
                if !entry {
                    names.push(t);
                }
                in_params = true;
            }
            "let" | "const" | "var" => names.push(t),
            // `var<uniform> name`, `var<private> name`.
            ">" if i >= 4 && toks[i - 4] == "var" => names.push(t),
            _ if in_params && parens == 1 && next == ":" => names.push(t),
            _ => {}
        }
    }
    names
}

/// Short names for WGSL that no other code reads by name: `internal` are
/// the indices of the files whose private names (see [`private_names`])
/// are shortened, the others are left alone and their identifiers are
/// never reused, since they are compiled together with users' shaders or
/// with the internal ones. One mapping serves every file, so a name one
/// internal file declares and another uses stays one name. The most used
/// names get the shortest replacements.
pub fn shorten_names(files: &[String], internal: &[usize]) -> Vec<String> {
    use std::collections::{BTreeMap, BTreeSet};
    // Without the spaces the minifier kept, which separate tokens only.
    let toks: Vec<Vec<&str>> = files
        .iter()
        .map(|f| tokens(f).into_iter().filter(|t| *t != " ").collect())
        .collect();
    let taken: BTreeSet<&str> = toks
        .iter()
        .flatten()
        .copied()
        .filter(|t| is_identifier(t))
        .collect();
    let mut kept: BTreeSet<&str> = BTreeSet::new();
    for (i, t) in toks.iter().enumerate() {
        if !internal.contains(&i) {
            kept.extend(t.iter().copied().filter(|t| is_identifier(t)));
        }
    }
    let mut private: BTreeSet<&str> = BTreeSet::new();
    for &i in internal {
        private.extend(
            private_names(&toks[i])
                .into_iter()
                .filter(|n| !kept.contains(n)),
        );
    }
    // Uses, most frequent first.
    let mut uses: BTreeMap<&str, usize> = BTreeMap::new();
    for &i in internal {
        let t = &toks[i];
        for (j, &tok) in t.iter().enumerate() {
            if private.contains(tok) && names_a_value(t, j) {
                *uses.entry(tok).or_default() += 1;
            }
        }
    }
    let mut order: Vec<(&str, usize)> = uses.into_iter().collect();
    order.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    // One letter, then a letter and a digit: never a WGSL keyword or
    // reserved word.
    let letters = ('a'..='z').chain('A'..='Z');
    let fresh = letters
        .clone()
        .map(String::from)
        .chain(letters.flat_map(|l| ('0'..='9').map(move |d| format!("{l}{d}"))))
        .filter(|n| !taken.contains(n.as_str()));
    let map: BTreeMap<&str, String> = order
        .iter()
        .map(|(name, _)| *name)
        .zip(fresh)
        .filter(|(name, short)| name.len() > short.len())
        .collect();
    toks.iter()
        .enumerate()
        .map(|(i, t)| {
            if !internal.contains(&i) {
                return files[i].clone();
            }
            let mut out = String::with_capacity(files[i].len());
            let mut j = 0;
            for tok in tokens(&files[i]) {
                if tok == " " {
                    out.push(' ');
                    continue;
                }
                match map.get(tok) {
                    Some(short) if names_a_value(t, j) => out.push_str(short),
                    _ => out.push_str(tok),
                }
                j += 1;
            }
            out
        })
        .collect()
}

/// Whether token `j` can name a function, constant, variable or parameter:
/// not a member after `.`, not a member declared in a struct body, not an
/// attribute or its argument (`@builtin(position)`).
fn names_a_value(toks: &[&str], j: usize) -> bool {
    let prev = |k: usize| if j >= k { toks[j - k] } else { "" };
    if prev(1) == "." || prev(1) == "@" || (prev(1) == "(" && prev(3) == "@") {
        return false;
    }
    // Inside a struct body: the last `struct` before `j` opened its body
    // and the body (which holds no braces) has not closed yet.
    if let Some(s) = toks[..j].iter().rposition(|&t| t == "struct") {
        let since = &toks[s..j];
        if since.contains(&"{") && !since.contains(&"}") {
            return false;
        }
    }
    true
}
