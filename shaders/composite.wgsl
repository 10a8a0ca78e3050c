// Composite: the only pass that touches the output (canvas) texture.
// Reads the HDR target, applies exposure, and writes the output encoding:
// linear through an -srgb view (the hardware encodes), or sRGB-encoded by
// this shader where the format has no -srgb view (rgba16float).
// Keep CompositeParams and the FLAG_* bits in sync with src/passes/composite.rs
// and src/output.rs.

const FLAG_SHADER_ENCODES: u32 = 1u;
const FLAG_PREMULTIPLIED: u32 = 2u;
const FLAG_EXTENDED: u32 = 4u;

struct CompositeParams {
    exposure: f32,
    flags: u32,
    _pad: vec2f,
}

@group(0) @binding(0) var hdr: texture_2d<f32>;
@group(0) @binding(1) var hdr_sampler: sampler;
@group(0) @binding(2) var<uniform> params: CompositeParams;

// sRGB transfer function (IEC 61966-2-1), continued as an odd function
// beyond [0, 1] the way extended-range canvases expect.
fn srgb_encode1(x: f32) -> f32 {
    let a = abs(x);
    let e = select(1.055 * pow(a, 1.0 / 2.4) - 0.055, a * 12.92, a <= 0.0031308);
    return sign(x) * e;
}
fn srgb_decode1(x: f32) -> f32 {
    let a = abs(x);
    let d = select(pow((a + 0.055) / 1.055, 2.4), a / 12.92, a <= 0.04045);
    return sign(x) * d;
}
fn srgb_encode(c: vec3f) -> vec3f {
    return vec3f(srgb_encode1(c.r), srgb_encode1(c.g), srgb_encode1(c.b));
}
fn srgb_decode(c: vec3f) -> vec3f {
    return vec3f(srgb_decode1(c.r), srgb_decode1(c.g), srgb_decode1(c.b));
}

fn has(flag: u32) -> bool {
    return (params.flags & flag) != 0u;
}

@fragment
fn fs_composite(in: FullscreenOut) -> @location(0) vec4f {
    let src = textureSampleLevel(hdr, hdr_sampler, in.uv, 0.0);
    // Premultiplied linear radiance. Guard against NaN/Inf reaching the screen.
    var rgb = src.rgb * params.exposure;
    rgb = select(rgb, vec3f(0.0), rgb != rgb);
    if !has(FLAG_EXTENDED) {
        rgb = clamp(rgb, vec3f(0.0), vec3f(1.0));
    }

    if !has(FLAG_PREMULTIPLIED) {
        // Opaque canvas: the content over black, alpha exactly 1.
        let encoded = srgb_encode(rgb);
        return vec4f(select(rgb, encoded, has(FLAG_SHADER_ENCODES)), 1.0);
    }

    // Premultiplied canvas. The compositor blends encoded values, so the
    // stored colour must be encode(straight) * alpha, which keeps rgb <= alpha.
    // Light with no coverage (glow over a transparent page) raises alpha to
    // its brightest channel so it stays a valid premultiplied colour.
    let alpha = clamp(max(src.a, max(rgb.r, max(rgb.g, rgb.b))), 0.0, 1.0);
    if alpha <= 0.0 {
        return vec4f(0.0);
    }
    let straight = rgb / alpha;
    let encoded = srgb_encode(straight) * alpha;
    if has(FLAG_SHADER_ENCODES) {
        return vec4f(encoded, alpha);
    }
    // The -srgb view will encode what we write: hand it the linear value
    // whose encoding is the premultiplied encoded colour.
    return vec4f(srgb_decode(encoded), alpha);
}
