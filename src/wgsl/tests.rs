use super::lex::{self, Kind};
use super::*;

fn kinds(src: &str) -> Vec<(Kind, &str)> {
    lex::solid(src)
        .into_iter()
        .map(|t| (t.kind, t.text))
        .collect()
}

#[test]
fn the_lexer_cuts_tokens_as_wgsl_does() {
    use Kind::*;
    // Nested block comments; a line comment ends at any WGSL line break.
    assert_eq!(
        kinds("a/* x /* y */ z */b // c\u{2028}d // e\u{85}f\rg"),
        [
            (Ident, "a"),
            (Ident, "b"),
            (Ident, "d"),
            (Ident, "f"),
            (Ident, "g")
        ]
    );
    // Every WGSL blank character separates identifiers; other non-ASCII
    // characters are part of them.
    for blank in [
        "\u{85}", "\u{200e}", "\u{200f}", "\u{2028}", "\u{2029}", "\u{b}", "\u{c}", "\r", "\t",
    ] {
        assert_eq!(
            kinds(&format!("é{blank}Δx")),
            [(Ident, "é"), (Ident, "Δx")],
            "{blank:?}"
        );
    }
    assert_eq!(kinds("a\u{a0}b €"), [(Ident, "a\u{a0}b"), (Ident, "€")]);
    // Numbers are cut at their points and signs (see `Kind::Number`).
    assert_eq!(
        kinds("1.5e-5+0x1fu"),
        [
            (Number, "1"),
            (Punct(b'.'), "."),
            (Number, "5e"),
            (Punct(b'-'), "-"),
            (Number, "5"),
            (Punct(b'+'), "+"),
            (Number, "0x1fu")
        ]
    );
    assert_eq!(
        kinds("v.x"),
        [(Ident, "v"), (Punct(b'.'), "."), (Ident, "x")]
    );
    // An unclosed comment runs to the end.
    assert_eq!(kinds("a /* /* */ b"), [(Ident, "a")]);
    // Each token is the text at its offset.
    let text = "fn é(x: f32) -> f32 { return x * 1.5e-3; } /* ✓ */\u{2029}";
    let tokens = lex::solid(text);
    assert!(tokens
        .iter()
        .all(|t| &text[t.at..t.at + t.text.len()] == t.text));
    assert_eq!(
        tokens.iter().map(|t| t.text).collect::<String>(),
        "fné(x:f32)->f32{returnx*1.5e-3;}"
    );
}

#[test]
fn a_function_is_found_by_its_name_outside_comments() {
    let emissive = |s: &str| find_fn(s, "emissive").is_some();
    assert!(emissive(
        "fn emissive(uv: vec2f, t: f32) -> vec3f { return vec3f(1.0); }"
    ));
    assert!(emissive(
        "fn scene() {}\nfn  emissive /* x */ (uv: vec2f, t: f32) -> vec3f {}"
    ));
    assert!(emissive("fn\u{2028}emissive\u{85}(uv: vec2f) -> vec3f {}"));
    assert!(!emissive("fn emissive_part(uv: vec2f) -> vec3f {}"));
    assert!(!emissive("fnemissive(uv: vec2f) -> vec3f {}"));
    assert!(!emissive("fn emissiveé(uv: vec2f) -> vec3f {}"));
    assert!(!emissive(
        "// fn emissive(uv: vec2f) -> vec3f {}\nfn scene() {}"
    ));
    assert!(!emissive("/* fn emissive( /* */ */ fn scene() {}"));
    for end in ["f", "fn", "fn ", "fn emissive", "fn emissive "] {
        assert!(!emissive(end), "{end}");
    }
    assert_eq!(
        find_fn("const a = 1;\nfn effect(c: vec4f)", "effect"),
        Some(13)
    );
}

#[test]
fn bindings_are_found_outside_comments() {
    let binds = |s: &str| has_attribute(s, &["group", "binding"]);
    assert!(binds("@group(0) @binding(1) var t: texture_2d<f32>;"));
    assert!(binds("@ /* */ binding(1) var t: texture_2d<f32>;"));
    assert!(!binds("// @group(0)\nfn effect() {}"));
    assert!(!binds("@location(0) x: f32"));
}

#[test]
fn top_level_names_are_renamed_but_not_members_attributes_or_locals() {
    let src = "struct S { effect: f32, @size(16) k: vec2f }\n\
               const K = 2.0; // effect K\n\
               var<private> state: f32;\n\
               fn helper(x: f32) -> f32 { let k = x * K; return k; }\n\
               fn effect(color: vec4f, uv: vec2f) -> vec4f {\n\
               var s: S; s.effect = helper(uniforms.k) + state;\n\
               return color * s.effect * textureSampleLevel(tex, effect_sampler, uv, 0.0);\n}";
    let solid = lex::solid(src);
    assert_eq!(
        top_level_names(&solid),
        ["S", "K", "state", "helper", "effect"]
    );
    let out = rename_top_level(src, &["uniforms", "tex"], 7);
    assert!(
        out.contains("struct S_fx7 { effect: f32, @size(16) k: vec2f }"),
        "{out}"
    );
    assert!(out.contains("const K_fx7 = 2.0; // effect K\n"), "{out}");
    assert!(out.contains("var<private> state_fx7: f32;"), "{out}");
    assert!(out.contains("fn helper_fx7(x: f32)"), "{out}");
    assert!(out.contains("let k = x * K_fx7;"), "{out}");
    assert!(out.contains("fn effect_fx7(color"), "{out}");
    assert!(
        out.contains("var s: S_fx7; s.effect = helper_fx7(uniforms_fx7.k) + state_fx7;"),
        "{out}"
    );
    assert!(
        out.contains("s.effect * textureSampleLevel(tex_fx7, effect_sampler"),
        "{out}"
    );
}

#[test]
fn renaming_leaves_context_dependent_names_and_non_ascii_neighbours_alone() {
    // A constant named like a built-in value, used in an expression
    // attribute: the attribute's enumerant stays, the constant does not.
    let src = "const position = 4u;\nconst N = 2;\n\
               struct V { @builtin(position) p: vec4f, @location(N) @interpolate(flat) q: u32 }\n\
               diagnostic(off, derivative_uniformity);\n\
               fn f\u{2028}() -> u32 { return position + N; }";
    let out = rename_top_level(src, &[], 2);
    assert!(
        out.contains("const position_fx2 = 4u;\nconst N_fx2 = 2;"),
        "{out}"
    );
    assert!(
        out.contains("@builtin(position) p: vec4f, @location(N_fx2) @interpolate(flat) q"),
        "{out}"
    );
    assert!(
        out.contains("diagnostic(off, derivative_uniformity);"),
        "{out}"
    );
    // U+2028 is blank space: the name before it is renamed, not glued.
    assert!(
        out.contains("fn f_fx2\u{2028}() -> u32 { return position_fx2 + N_fx2; }"),
        "{out}"
    );
    // Non-ASCII names are renamed whole.
    let out = rename_top_level("const Δé = 1.0;\nfn g() -> f32 { return Δé; }", &[], 3);
    assert_eq!(
        out,
        "const Δé_fx3 = 1.0;\nfn g_fx3() -> f32 { return Δé_fx3; }"
    );
}

#[test]
fn a_name_that_ends_like_a_renamed_one_never_meets_one() {
    // The local `k_fx4` would become the constant `k`'s new name.
    let src = "const k = 1.0;\nfn g() -> f32 { let k_fx4 = 2.0; return k + k_fx4; }";
    let out = rename_top_level(src, &[], 4);
    assert_eq!(
        out,
        "const k_fx4 = 1.0;\nfn g_fx4() -> f32 { let k_fx4_fx4 = 2.0; return k_fx4 + k_fx4_fx4; }"
    );
    assert!(
        has_rename_suffix("a_fx12") && !has_rename_suffix("a_fx") && !has_rename_suffix("fx12")
    );
}

#[test]
fn derivatives_and_discard_keep_code_in_the_fragment_stage() {
    let sampled = "fn effect(c: vec4f, uv: vec2f) -> vec4f {\n    return textureSample(mask, effect_sampler, uv);\n}";
    assert!(fragment_only(sampled));
    assert!(fragment_only("let w = fwidth (uv.x);"));
    assert!(fragment_only("if c.a < 0.5 { discard; }"));
    // A level given, a name that only starts the same, a comment: none.
    let level =
        "let c = textureSampleLevel(mask, effect_sampler, uv, 0.0); // textureSample( discard";
    assert!(!fragment_only(level));
    assert!(!fragment_only(
        "let dpdx_scale = 2.0; let t = dpdx_scale; let discarded = 1;"
    ));
}
