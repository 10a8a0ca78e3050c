// Minifies WGSL at build time (included by build.rs and by
// tests/shaders.rs): comments and the whitespace that separates no tokens
// are dropped, nothing is renamed, so naga and the browser see the same
// token stream and error messages still name the shader's own identifiers.

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
