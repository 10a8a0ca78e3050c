// NaN/Inf guards shared by the internal passes (prepended by
// passes::compose). A float whose exponent bits are all ones is Inf or NaN;
// testing the bits is immune to fast-math folding of `x != x`.

fn finite3(c: vec3f) -> vec3f {
    let bits = bitcast<vec3u>(c) & vec3u(0x7f800000u);
    return select(c, vec3f(0.0), bits == vec3u(0x7f800000u));
}

fn finite4(c: vec4f) -> vec4f {
    let bits = bitcast<vec4u>(c) & vec4u(0x7f800000u);
    return select(c, vec4f(0.0), bits == vec4u(0x7f800000u));
}
