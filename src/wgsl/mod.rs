//! The crate's WGSL toolkit, on one lexer ([`lex`]): the scene shader's
//! `fn` lookup ([`find_fn`]), the renaming that makes a user's effect's
//! top-level names its own when it is fused into the composite
//! ([`rename_top_level`]), and the build-time minifier (`minify`, compiled
//! by `build.rs` with the lexer). Standard library only.

pub mod lex;
// Built into `build.rs`; tested natively here (it reads `shaders/`).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod minify;

use lex::{Kind, Token};

/// Where `source` declares `fn <name>(`: the byte offset of `fn`. Comments
/// are not looked in.
pub fn find_fn(source: &str, name: &str) -> Option<usize> {
    let solid = lex::solid(source);
    solid
        .windows(3)
        .find(|w| w[0].is("fn") && w[1].is(name) && w[2].is("("))
        .map(|w| w[0].at)
}

/// Where `source` calls `name(` outside comments (not a member, not the
/// declaration `fn name(`): the byte offset of its first call.
pub fn find_call(source: &str, name: &str) -> Option<usize> {
    let solid = lex::solid(source);
    solid
        .windows(3)
        .find(|w| !w[0].is(".") && !w[0].is("fn") && w[1].is(name) && w[2].is("("))
        .map(|w| w[1].at)
}

/// The built-ins that take implicit derivatives, which only the fragment
/// stage has.
const DERIVATIVES: &[&str] = &[
    "textureSample",
    "textureSampleBias",
    "textureSampleCompare",
    "dpdx",
    "dpdxCoarse",
    "dpdxFine",
    "dpdy",
    "dpdyCoarse",
    "dpdyFine",
    "fwidth",
    "fwidthCoarse",
    "fwidthFine",
];

/// Whether `source` can run only in a fragment shader, not as compute: it
/// calls a built-in that takes implicit derivatives, or it has `discard`.
pub fn fragment_only(source: &str) -> bool {
    let solid = lex::solid(source);
    solid
        .windows(2)
        .any(|w| w[0].is_one_of(DERIVATIVES) && w[1].is("("))
        || solid.iter().any(|t| t.is("discard"))
}

/// Whether `source` has an attribute `@<name>` (outside comments).
pub fn has_attribute(source: &str, names: &[&str]) -> bool {
    let solid = lex::solid(source);
    solid
        .windows(2)
        .any(|w| w[0].is("@") && names.contains(&w[1].text))
}

/// The names `solid` declares at module scope (functions, structs,
/// constants, variables, aliases, overrides): the first identifier after
/// the keyword, past a `var`'s address space (`var<private> name`).
pub fn top_level_names<'a>(solid: &[Token<'a>]) -> Vec<&'a str> {
    let mut names = Vec::new();
    let mut depth = 0usize;
    let (mut declaring, mut template) = (false, false);
    const DECLARING: &[&str] = &["fn", "struct", "const", "var", "alias", "override"];
    for t in solid {
        match t.kind {
            Kind::Punct(b'{') => depth += 1,
            Kind::Punct(b'}') => depth = depth.saturating_sub(1),
            Kind::Punct(b'<') => template = declaring,
            Kind::Punct(b'>') => template = false,
            Kind::Ident if depth == 0 && t.is_one_of(DECLARING) => declaring = true,
            Kind::Ident if declaring && !template => {
                names.push(t.text);
                declaring = false;
            }
            _ => {}
        }
    }
    names
}

/// What a renamed name ends with before its serial.
const MARK: &str = "_fx";

/// What [`rename_top_level`] puts after the names of the source it is
/// given for `serial`: `_fx<serial>`.
pub fn rename_suffix(serial: u64) -> String {
    format!("{MARK}{serial}")
}

/// Whether `name` ends with `_fx` and digits, as renamed names do.
fn has_rename_suffix(name: &str) -> bool {
    let b = name.as_bytes();
    let mut end = b.len();
    while end > 0 && b[end - 1].is_ascii_digit() {
        end -= 1;
    }
    end < b.len() && b[..end].ends_with(MARK.as_bytes())
}

/// `source` with its top-level names and `more` made its own: every
/// reference to one of them (see [`lex::References`]: never a
/// member, an attribute or a context-dependent name such as
/// `@builtin(position)`'s) gets [`rename_suffix`]`(serial)`. So do the names that
/// end like a renamed one already (`x_fx3`), so that a renamed name can
/// never meet one of the source's own: every name ending in `_fx<n>`
/// after renaming is a renamed one, and the suffix is read back from the
/// end. Comments and blank space are kept as they are.
pub fn rename_top_level(source: &str, more: &[&str], serial: u64) -> String {
    let suffix = rename_suffix(serial);
    let solid = lex::solid(source);
    let mut names = top_level_names(&solid);
    names.extend_from_slice(more);
    let mut refs = lex::References::default();
    let mut out = String::with_capacity(source.len() + 64);
    let mut copied = 0;
    for (i, t) in solid.iter().enumerate() {
        if refs.at(&solid, i) && (names.contains(&t.text) || has_rename_suffix(t.text)) {
            let end = t.at + t.text.len();
            out.push_str(&source[copied..end]);
            out.push_str(&suffix);
            copied = end;
        }
    }
    out.push_str(&source[copied..]);
    out
}

#[cfg(test)]
mod tests;
