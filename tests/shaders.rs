//! Every shader the crate compiles, validated with naga (the WGSL front end
//! wgpu uses natively), so a shader error fails here with its message
//! rather than as an invalid pipeline at run time.
#![cfg(not(target_arch = "wasm32"))]

fn validate(name: &str, source: &str) {
    let module = match naga::front::wgsl::parse_str(source) {
        Ok(m) => m,
        Err(e) => panic!("{name}: {}", e.emit_to_string(source)),
    };
    let mut validator = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::empty(),
    );
    if let Err(e) = validator.validate(&module) {
        panic!("{name}: {}", e.emit_to_string(source));
    }
}

use afterglow::passes::{bloom, compose, composite, resolve, scene};

#[test]
fn every_pass_shader_is_valid() {
    for (name, parts) in [
        ("scene", scene::SHADER_PARTS),
        ("bloom", bloom::SHADER_PARTS),
        ("resolve", resolve::SHADER_PARTS),
        ("composite", composite::SHADER_PARTS),
    ] {
        validate(name, &compose(parts));
    }
}

#[test]
fn user_shader_wrapper_is_valid() {
    let user = "fn scene(uv: vec2f, time: f32) -> vec4f { return vec4f(uv * resolution() / 100.0, time, 1.0); }";
    validate(
        "user shader wrapper",
        &format!("{}{user}\n{}", scene::user_prefix(), scene::USER_SUFFIX),
    );
}

#[test]
fn a_broken_shader_is_reported() {
    let source = compose(&["fn broken( -> f32 { return 1.0; }"]);
    assert!(naga::front::wgsl::parse_str(&source).is_err());
}
