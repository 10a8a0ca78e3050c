//! WGSL's tokens, as the WGSL specification cuts them: blank space,
//! comments (`//` to the line's end, `/* */` nested), identifiers,
//! numbers and single characters of punctuation. Standard library only:
//! `build.rs` compiles this file too, to minify the shaders it ships.
//!
//! Identifiers: WGSL's are `XID_Start XID_Continue*` (or `_` and at least
//! one `XID_Continue`). Outside comments a valid module holds no
//! non-ASCII character but those of identifiers and of blank space, so
//! every non-ASCII character that is not blank space is read as part of an
//! identifier. That is exact on every module a WGSL compiler accepts
//! (the callers only rewrite WGSL that has compiled, or afterglow's own)
//! and needs no Unicode tables in the shipped wasm.

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Blank space: `' '`, tab, the line breaks, U+200E and U+200F.
    Blank,
    /// A `//` comment (without its line break) or a `/* */` comment,
    /// nested ones included.
    Comment,
    /// An identifier or a keyword.
    Ident,
    /// A number with its suffix (`1`, `0.5f`, `1e-5`, `0x1p+4h`).
    Number,
    /// Any other character.
    Punct,
}

/// A token: its kind, its text and the byte offset of its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub kind: Kind,
    pub text: &'a str,
    pub at: usize,
}

impl Token<'_> {
    /// Neither blank space nor a comment.
    pub fn solid(&self) -> bool {
        !matches!(self.kind, Kind::Blank | Kind::Comment)
    }

    pub fn is(&self, text: &str) -> bool {
        self.text == text
    }
}

/// WGSL's blank space.
pub fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\u{200e}' | '\u{200f}') || is_line_break(c)
}

/// WGSL's line breaks, which end a `//` comment.
pub fn is_line_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\u{b}' | '\u{c}' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// A character an identifier may start with (see the module's note on
/// non-ASCII characters).
pub fn starts_ident(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || (!c.is_ascii() && !is_blank(c))
}

/// A character an identifier may go on with.
pub fn continues_ident(c: char) -> bool {
    starts_ident(c) || c.is_ascii_digit()
}

/// The tokens of `src`, in order; together they are the whole text.
pub fn tokens(src: &str) -> Tokens<'_> {
    Tokens { src, at: 0 }
}

/// An iterator over the tokens of a text (see [`tokens`]).
pub struct Tokens<'a> {
    src: &'a str,
    at: usize,
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        let rest = &self.src[self.at..];
        let c = rest.chars().next()?;
        let (kind, len) = if is_blank(c) {
            (Kind::Blank, prefix_len(rest, is_blank))
        } else if rest.starts_with("//") {
            (
                Kind::Comment,
                rest.find(is_line_break).unwrap_or(rest.len()),
            )
        } else if rest.starts_with("/*") {
            (Kind::Comment, block_comment_len(rest))
        } else if starts_ident(c) {
            (Kind::Ident, prefix_len(rest, continues_ident))
        } else if c.is_ascii_digit()
            || (c == '.' && rest[1..].starts_with(|d: char| d.is_ascii_digit()))
        {
            (Kind::Number, number_len(rest))
        } else {
            (Kind::Punct, c.len_utf8())
        };
        let token = Token {
            kind,
            text: &rest[..len],
            at: self.at,
        };
        self.at += len;
        Some(token)
    }
}

/// The length of the longest prefix of `s` whose characters all pass.
fn prefix_len(s: &str, pass: impl Fn(char) -> bool) -> usize {
    s.find(|c: char| !pass(c)).unwrap_or(s.len())
}

/// The length of the block comment `s` starts with, nested comments
/// included; an unclosed one runs to the end.
fn block_comment_len(s: &str) -> usize {
    let b = s.as_bytes();
    let (mut depth, mut i) = (0usize, 0usize);
    while i < b.len() {
        if b[i..].starts_with(b"/*") {
            depth += 1;
            i += 2;
        } else if b[i..].starts_with(b"*/") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    b.len()
}

/// The length of the number `s` starts with: digits, letters (hex digits,
/// `x`, exponents, suffixes), `_` and `.`, and a sign right after an
/// exponent's letter (`e` in decimal, `p` in hexadecimal).
fn number_len(s: &str) -> usize {
    let b = s.as_bytes();
    let hex = b.len() > 1 && b[0] == b'0' && matches!(b[1], b'x' | b'X');
    let exponent = |c: u8| {
        if hex {
            matches!(c, b'p' | b'P')
        } else {
            matches!(c, b'e' | b'E')
        }
    };
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let sign = matches!(c, b'+' | b'-') && i > 0 && exponent(b[i - 1]);
        if !(c.is_ascii_alphanumeric() || c == b'.' || c == b'_' || sign) {
            break;
        }
        i += 1;
    }
    i
}

/// The tokens of `src` that are neither blank space nor comments.
pub fn solid(src: &str) -> Vec<Token<'_>> {
    tokens(src).filter(Token::solid).collect()
}

/// For each of `solid`'s tokens, whether it is an identifier that can name
/// something a module declares (a function, type, constant, variable,
/// parameter), that is any identifier but
///
/// - a member: after `.`, or declared in a struct's body (`name:`);
/// - an attribute's name (after `@`);
/// - one of WGSL's context-dependent names: the arguments of
///   `@builtin(…)`, `@interpolate(…)` and `@diagnostic(…)`, of a
///   `diagnostic(…)` directive, and what `enable` and `requires` list.
///
/// Keywords and built-in functions count as names here: callers look for
/// the names they know.
pub fn names_a_declaration(solid: &[Token<'_>]) -> Vec<bool> {
    let mut out = vec![false; solid.len()];
    let mut struct_body = false;
    let mut pending_struct = false;
    // Inside context-dependent names: the parentheses open (0 before the
    // first, or in a directive, which ends at `;`).
    let mut context: Option<usize> = None;
    for (i, t) in solid.iter().enumerate() {
        let prev = i.checked_sub(1).map_or("", |k| solid[k].text);
        let next = solid.get(i + 1).map_or("", |n| n.text);
        if let Some(depth) = context {
            context = match t.text {
                "(" => Some(depth + 1),
                ")" if depth == 1 => None,
                ")" => Some(depth - 1),
                ";" if depth == 0 => None,
                _ => context,
            };
            continue;
        }
        match t.text {
            "struct" => pending_struct = true,
            "{" if pending_struct => (struct_body, pending_struct) = (true, false),
            "}" => struct_body = false,
            "builtin" | "interpolate" | "diagnostic"
                if next == "(" && (prev == "@" || t.is("diagnostic")) =>
            {
                context = Some(0);
                continue;
            }
            "enable" | "requires" if prev != "@" && prev != "." => {
                context = Some(0);
                continue;
            }
            _ => {}
        }
        let member = prev == "." || (struct_body && next == ":");
        out[i] = t.kind == Kind::Ident && !member && prev != "@";
    }
    out
}
