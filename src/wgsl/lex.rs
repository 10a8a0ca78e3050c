//! WGSL's tokens, as the WGSL specification cuts them: identifiers,
//! numbers and single characters of punctuation, between blank space and
//! comments (`//` to the line's end, `/* */` nested). Standard library only:
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
    /// An identifier or a keyword.
    Ident,
    /// A number's digits and letters (`1`, `0x1f`, `5f`, `1e`): a number is
    /// cut at its `.` and at its exponent's sign (`1.5e-3` is `1`, `.`,
    /// `5e`, `-`, `3`), which no caller needs joined, as none looks into
    /// numbers or puts blank space inside them.
    Number,
    /// Any other character (all are ASCII): the byte.
    Punct(u8),
}

/// A token: its kind, its text and the byte offset of its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub kind: Kind,
    pub text: &'a str,
    pub at: usize,
}

impl Token<'_> {
    pub fn is(&self, text: &str) -> bool {
        self.text == text
    }

    /// Whether it is one of `texts` (a table: smaller code than a match).
    pub fn is_one_of(&self, texts: &[&str]) -> bool {
        texts.contains(&self.text)
    }
}

/// The length of the blank character `b` starts with, 0 if none, and
/// whether it is a line break. WGSL's blank space is `' '`, tab, U+200E,
/// U+200F and the line breaks: LF, VT, FF, CR, U+0085, U+2028 and U+2029;
/// a line break ends a `//` comment.
fn blank(b: &[u8]) -> (usize, bool) {
    match b {
        [b' ' | b'\t', ..] => (1, false),
        [b'\n' | 0x0b | 0x0c | b'\r', ..] => (1, true),
        [0xc2, 0x85, ..] => (2, true),
        [0xe2, 0x80, c, ..] if matches!(c, 0x8e | 0x8f | 0xa8 | 0xa9) => (3, *c > 0x8f),
        _ => (0, false),
    }
}

/// Whether `b` starts with a byte of an identifier (see the module's note
/// on non-ASCII characters: any byte of one that is not blank space).
fn in_ident(b: &[u8]) -> bool {
    b.first()
        .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_' || (c >= 0x80 && blank(b).0 == 0))
}

/// The tokens of `src`, in order, but blank space and comments (`//` to
/// the line's end, `/* */` nested), which only separate them. Byte by
/// byte: every token ends before an ASCII byte, before a blank character
/// or at the end, so always at a character's end.
pub fn solid(src: &str) -> Vec<Token<'_>> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        let c = rest[0];
        let (kind, len) = if let (n @ 1.., _) = blank(rest) {
            i += n;
            continue;
        } else if rest.starts_with(b"//") {
            i += 2;
            while i < b.len() && !blank(&b[i..]).1 {
                i += 1;
            }
            continue;
        } else if rest.starts_with(b"/*") {
            i += block_comment_len(rest);
            continue;
        } else if in_ident(rest) {
            let mut n = 1;
            while in_ident(&rest[n..]) {
                n += 1;
            }
            (
                if c.is_ascii_digit() {
                    Kind::Number
                } else {
                    Kind::Ident
                },
                n,
            )
        } else {
            (Kind::Punct(c), 1)
        };
        // Always: the token ends at a character's end.
        if let Some(text) = src.get(i..i + len) {
            out.push(Token { kind, text, at: i });
        }
        i += len;
    }
    out
}

/// The length of the block comment `b` starts with, nested comments
/// included; an unclosed one runs to the end.
fn block_comment_len(b: &[u8]) -> usize {
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

/// Says of each of a module's tokens, read in order, whether it is an
/// identifier that can name something the module declares (a function,
/// type, constant, variable, parameter): any identifier but
///
/// - a member: after `.`, or declared in a struct's body (`name:`);
/// - an attribute's name (after `@`);
/// - one of WGSL's context-dependent names that attributes take: the
///   arguments of `@builtin(…)`, `@interpolate(…)` and `@diagnostic(…)`.
///
/// (The directives `enable`, `requires` and `diagnostic(…);` come before
/// any declaration, so never in WGSL compiled after afterglow's own, as
/// effects are, nor in afterglow's shaders.) Keywords and built-in
/// functions count as names here: callers look for the names they know.
#[derive(Default)]
pub struct References {
    struct_body: bool,
    enumerants: bool,
}

impl References {
    /// Whether `solid[i]` names a declaration; asked of every `i` in turn.
    pub fn at(&mut self, solid: &[Token<'_>], i: usize) -> bool {
        let punct = |k: usize| match solid.get(k) {
            Some(Token {
                kind: Kind::Punct(c),
                ..
            }) => *c,
            _ => 0,
        };
        let back = |k: usize| i.checked_sub(k).and_then(|k| solid.get(k));
        let prev = punct(i.wrapping_sub(1));
        match punct(i) {
            b'{' => self.struct_body = back(2).is_some_and(|t| t.is("struct")),
            b'}' => self.struct_body = false,
            b'(' => {
                let attribute =
                    back(1).is_some_and(|t| t.is_one_of(&["builtin", "interpolate", "diagnostic"]));
                self.enumerants = attribute && punct(i.wrapping_sub(2)) == b'@';
            }
            b')' => self.enumerants = false,
            _ => {}
        }
        let member = prev == b'.' || (self.struct_body && punct(i + 1) == b':');
        let ident = solid.get(i).is_some_and(|t| t.kind == Kind::Ident);
        ident && !self.enumerants && !member && prev != b'@'
    }
}
