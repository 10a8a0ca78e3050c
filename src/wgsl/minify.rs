//! Minifies WGSL at build time (`build.rs` compiles this file): comments
//! and the blank space that separates no tokens are dropped, so naga and
//! the browser see the same token stream. The internal shaders' private
//! names (functions, constants, variables, parameters) are then shortened
//! by [`shorten_names`]; struct names and members, entry points, override
//! constants and every name a user's shader can see keep their spelling.

use super::lex::{self, Kind, Token};

/// Characters of identifiers and numbers (outside blank space, every
/// non-ASCII character is an identifier's), which must not run together
/// where blank space kept them apart.
fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.' || !c.is_ascii()
}

/// Characters of operators, which must not run together where a space
/// kept them apart (`a - -b` is not `a--b`, `a / *p` is not a comment).
fn is_operator(c: char) -> bool {
    "+-*/%<>=!&|^~".contains(c)
}

/// The WGSL without comments and without blank space between two tokens
/// unless both sides are words or both are operators; a comment separates
/// tokens as a space does.
pub fn minify_wgsl(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut end = 0;
    for t in lex::solid(src) {
        // Blank space or a comment before it.
        if t.at > end {
            if let (Some(prev), Some(first)) = (out.chars().next_back(), t.text.chars().next()) {
                if (is_word(prev) && is_word(first)) || (is_operator(prev) && is_operator(first)) {
                    out.push(' ');
                }
            }
        }
        out.push_str(t.text);
        end = t.at + t.text.len();
    }
    out
}

/// Whether a stage attribute (`@vertex`, `@fragment`, `@compute`) is among
/// the attributes of the item whose `fn` is `solid[at]`.
fn is_entry_point(solid: &[Token<'_>], at: usize) -> bool {
    let attributes: Vec<&str> = solid[..at]
        .iter()
        .rev()
        .take_while(|t| !matches!(t.text, "}" | ";"))
        .map(|t| t.text)
        .collect();
    attributes
        .windows(2)
        .any(|w| matches!(w[0], "vertex" | "fragment" | "compute") && w[1] == "@")
}

/// The names a shader declares that nothing outside it looks up: its
/// functions other than entry points, its module-scope `const` and `var`
/// (never `override`: pipelines set those by name), its locals and its
/// parameters. Struct names and members are never among them: the
/// uniform-layout test reads them from the shaders by name.
fn private_names<'a>(solid: &[Token<'a>]) -> Vec<&'a str> {
    let mut names = Vec::new();
    let mut struct_body = false;
    let mut in_params = false;
    let mut parens = 0usize;
    for (i, t) in solid.iter().enumerate() {
        let prev = i.checked_sub(1).map_or("", |k| solid[k].text);
        let next = solid.get(i + 1).map_or("", |n| n.text);
        match t.text {
            "}" => struct_body = false,
            "(" if in_params => parens += 1,
            ")" if in_params => {
                parens -= 1;
                in_params = parens > 0;
            }
            _ => {}
        }
        // `fx_*`: the effects' functions and the names the composite's
        // generated code uses (`crate::effect`), which Rust spells.
        if t.kind != Kind::Ident
            || prev == "."
            || prev == "@"
            || struct_body
            || t.text.starts_with("fx_")
        {
            continue;
        }
        match prev {
            "struct" => struct_body = true,
            "fn" => {
                if !is_entry_point(solid, i - 1) {
                    names.push(t.text);
                }
                in_params = true;
            }
            "let" | "const" | "var" => names.push(t.text),
            // `var<uniform> name`, `var<private> name`.
            ">" if i >= 4 && solid[i - 4].is("var") => names.push(t.text),
            _ if in_params && parens == 1 && next == ":" => names.push(t.text),
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
    let solid: Vec<Vec<Token<'_>>> = files.iter().map(|f| lex::solid(f)).collect();
    let refs: Vec<Vec<bool>> = solid
        .iter()
        .map(|s| {
            let mut refs = lex::References::default();
            (0..s.len()).map(|i| refs.at(s, i)).collect()
        })
        .collect();
    let idents = |i: usize| {
        solid[i]
            .iter()
            .filter(|t| t.kind == Kind::Ident)
            .map(|t| t.text)
    };
    let taken: BTreeSet<&str> = (0..files.len()).flat_map(idents).collect();
    let kept: BTreeSet<&str> = (0..files.len())
        .filter(|i| !internal.contains(i))
        .flat_map(idents)
        .collect();
    // Names called that no file declares as a function: WGSL's built-in
    // functions (`step`, `min`), which a local of the same name must not
    // take into the mapping.
    let mut functions: BTreeSet<&str> = BTreeSet::new();
    let mut called: BTreeSet<&str> = BTreeSet::new();
    for s in &solid {
        for w in s.windows(2) {
            if w[0].is("fn") {
                functions.insert(w[1].text);
            } else if w[0].kind == Kind::Ident && w[1].is("(") {
                called.insert(w[0].text);
            }
        }
    }
    let private: BTreeSet<&str> = internal
        .iter()
        .flat_map(|&i| private_names(&solid[i]))
        .filter(|n| !kept.contains(n) && (functions.contains(n) || !called.contains(n)))
        .collect();
    // Uses, most frequent first.
    let mut uses: BTreeMap<&str, usize> = BTreeMap::new();
    for &i in internal {
        for (t, &r) in solid[i].iter().zip(&refs[i]) {
            if r && private.contains(t.text) {
                *uses.entry(t.text).or_default() += 1;
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
    (0..files.len())
        .map(|i| {
            if !internal.contains(&i) {
                return files[i].clone();
            }
            let mut out = String::with_capacity(files[i].len());
            let mut copied = 0;
            for (t, &r) in solid[i].iter().zip(&refs[i]) {
                if let Some(short) = map.get(t.text).filter(|_| r) {
                    out.push_str(&files[i][copied..t.at]);
                    out.push_str(short);
                    copied = t.at + t.text.len();
                }
            }
            out.push_str(&files[i][copied..]);
            out
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{lex, minify_wgsl as min, shorten_names};

    #[test]
    fn minified_wgsl_keeps_every_token_apart() {
        assert_eq!(
            min("// a\nfn f( a : f32 ) -> f32 {\n  /* b /* nested */ c */ return a - -a ; }"),
            "fn f(a:f32)->f32{return a- -a;}"
        );
        // Operators a space kept apart stay apart: `/ *p` is no comment,
        // `> =` no `>=`, `& &x` no `&&`.
        assert_eq!(min("x = y / *p;"), "x=y/ *p;");
        assert_eq!(min("var a: array<f32, 2> = b;"), "var a:array<f32,2> =b;");
        assert_eq!(min("let q = p & &r;"), "let q=p& &r;");
        assert_eq!(
            min("@builtin(position) pos: vec4f"),
            "@builtin(position)pos:vec4f"
        );
        // WGSL's other line breaks end a line comment; its other blank
        // space separates words; a number keeps its exponent's sign.
        assert_eq!(min("// a\u{2028}let x = 1e-5 ;"), "let x=1e-5;");
        assert_eq!(min("let\u{85}x\u{200e}=\u{2029}b;"), "let x=b;");
        assert_eq!(min("let é\u{2028}= 1;"), "let é=1;");
    }

    #[test]
    fn only_private_names_are_shortened() {
        let shared = "struct FullscreenOut{@builtin(position)position:vec4f,@location(0)uv:vec2f,}";
        let internal = "struct P{value:f32,}@group(0)@binding(0)var<uniform>params:P;\
            fn helper(value:f32)->f32{let doubled=value*2.0;return doubled;}override GAIN:f32=1.0;\
            @fragment fn fs_main(in:FullscreenOut)->@location(0)vec4f{return vec4f(helper(params.value*GAIN));}";
        let out = shorten_names(&[shared.into(), internal.into()], &[1]);
        // The shared file is untouched; in the internal one the struct, its
        // member (declared and read), the override, the entry point, the
        // attributes and the shared file's names stay; the most used names
        // get the first free letters.
        assert_eq!(out[0], shared);
        assert_eq!(
            out[1],
            "struct P{value:f32,}@group(0)@binding(0)var<uniform>c:P;\
             fn b(d:f32)->f32{let a=d*2.0;return a;}override GAIN:f32=1.0;\
             @fragment fn fs_main(e:FullscreenOut)->@location(0)vec4f{return vec4f(b(c.value*GAIN));}"
        );
    }

    #[test]
    fn a_constant_in_an_attribute_is_shortened_with_its_declaration() {
        let internal = "const WORKGROUP:u32=64;@compute @workgroup_size(WORKGROUP)fn main(@builtin(global_invocation_id)id:vec3u){}";
        let out = shorten_names(&[internal.into()], &[0]);
        assert_eq!(
            out[0],
            "const a:u32=64;@compute @workgroup_size(a)fn main(@builtin(global_invocation_id)b:vec3u){}"
        );
    }

    #[test]
    fn a_local_named_as_a_built_in_function_keeps_the_function() {
        // One file's local `step`, another's call of WGSL's `step`.
        let a = "fn f(x:f32)->f32{let step=x*2.0;return step;}";
        let b = "fn g(x:f32)->f32{return step(0.5,x);}";
        let out = shorten_names(&[a.into(), b.into()], &[0, 1]);
        assert!(out[1].contains("step(0.5,"), "{}", out[1]);
        assert!(out[0].contains("let step="), "{}", out[0]);
    }

    #[test]
    fn every_shader_file_is_shipped_minified() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/shaders");
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let source = std::fs::read_to_string(&path).unwrap();
            let small = min(&source);
            assert!(!small.contains("//") && !small.contains('\n'), "{path:?}");
            assert!(
                small.len() * 10 < source.len() * 7,
                "{path:?}: {} of {}",
                small.len(),
                source.len()
            );
            // The same tokens, but for blank space and comments.
            let solid = |s: &str| {
                super::lex::solid(s)
                    .into_iter()
                    .map(|t| t.text.to_string())
                    .collect::<Vec<_>>()
            };
            assert_eq!(solid(&small), solid(&source), "{path:?}");
        }
    }
}
