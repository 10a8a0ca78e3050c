// Tonemapping curves: HDR radiance (linear, >= 0) to display range [0, 1],
// still linear. Prepended to the composite shader.
// The TONEMAP_* indices are generated from Tonemapper::shader_index
// (src/options/types.rs) by shaders::constants() into the prelude.

// AgX (Troy Sobotka), in the compact form with a polynomial fit of the
// default contrast sigmoid (Benjamin Wrensch, "Minimal AgX implementation").
fn agx_contrast(x: vec3f) -> vec3f {
    let x2 = x * x;
    let x4 = x2 * x2;
    return 15.5 * x4 * x2 - 40.14 * x4 * x + 31.96 * x4 - 6.868 * x2 * x
        + 0.4298 * x2 + 0.1191 * x - 0.00232;
}

fn tonemap_agx(c: vec3f) -> vec3f {
    let inset = mat3x3f(
        vec3f(0.842479062253094, 0.0423282422610123, 0.0423756549057051),
        vec3f(0.0784335999999992, 0.878468636469772, 0.0784336),
        vec3f(0.0792237451477643, 0.0791661274605434, 0.879142973793104),
    );
    let outset = mat3x3f(
        vec3f(1.19687900512017, -0.0528968517574562, -0.0529716355144438),
        vec3f(-0.0980208811401368, 1.15190312990417, -0.0980434501171241),
        vec3f(-0.0990297440797205, -0.0989611768448433, 1.15107367264116),
    );
    let min_ev = -12.47393;
    let max_ev = 4.026069;
    var v = inset * c;
    v = clamp(log2(max(v, vec3f(1e-10))), vec3f(min_ev), vec3f(max_ev));
    v = (v - min_ev) / (max_ev - min_ev);
    v = outset * agx_contrast(v);
    // The sigmoid produces display-encoded values (gamma 2.2): back to linear.
    return pow(max(v, vec3f(0.0)), vec3f(2.2));
}

// ACES RRT + ODT fit (Stephen Hill), sRGB primaries in and out.
fn tonemap_aces(c: vec3f) -> vec3f {
    let input = mat3x3f(
        vec3f(0.59719, 0.07600, 0.02840),
        vec3f(0.35458, 0.90834, 0.13383),
        vec3f(0.04823, 0.01566, 0.83777),
    );
    let output = mat3x3f(
        vec3f(1.60475, -0.10208, -0.00327),
        vec3f(-0.53108, 1.10813, -0.07276),
        vec3f(-0.07367, -0.00605, 1.07602),
    );
    let v = input * c;
    let a = v * (v + 0.0245786) - 0.000090537;
    let b = v * (0.983729 * v + 0.4329510) + 0.238081;
    return output * (a / b);
}

// Khronos PBR Neutral: colours up to 0.8 pass almost unchanged, highlights
// compress towards white.
fn tonemap_khronos_neutral(c_in: vec3f) -> vec3f {
    let start = 0.8 - 0.04;
    let desaturation = 0.15;
    var c = c_in;
    let x = min(c.r, min(c.g, c.b));
    let offset = select(0.04, x - 6.25 * x * x, x < 0.08);
    c -= offset;
    let peak = max(c.r, max(c.g, c.b));
    if peak < start {
        return c;
    }
    let d = 1.0 - start;
    let new_peak = 1.0 - d * d / (peak + d - start);
    c *= new_peak / peak;
    let g = 1.0 - 1.0 / (desaturation * (peak - new_peak) + 1.0);
    return mix(c, vec3f(new_peak), g);
}

// Where the SDR picture ends and the highlights' extension begins.
const HEADROOM_KNEE = 0.8;

// The SDR curves, in [0, 1].
fn curve(c: vec3f, which: u32) -> vec3f {
    switch which {
        case TONEMAP_AGX: { return clamp(tonemap_agx(c), vec3f(0.0), vec3f(1.0)); }
        case TONEMAP_ACES: { return clamp(tonemap_aces(c), vec3f(0.0), vec3f(1.0)); }
        case TONEMAP_KHRONOS_NEUTRAL: { return clamp(tonemap_khronos_neutral(c), vec3f(0.0), vec3f(1.0)); }
        default: { return c / (1.0 + c); }
    }
}

// The curve extended to reach `headroom` times SDR white (an HDR display
// on the extended path). How far into the highlights a colour is comes
// from the curve applied to grey of its brightest channel: t = 0 up to the
// knee, 1 at white. The colour's SDR result s gains (headroom - 1) t^2 on
// its brightest channel, the others in proportion: below the knee nothing
// changes, at the knee the slope is the SDR curve's own (no seam), the
// brightest channel reaches `headroom` as t reaches 1, the channels'
// ratios (so the hue) are the SDR curve's, and brightness keeps rising
// along a colour's ramp even where an SDR curve's brightest channel dips
// as it desaturates to white (AgX does, by a thousandth). At headroom 1
// it is the SDR curve exactly.
fn extend_to_headroom(c: vec3f, s: vec3f, which: u32, headroom: f32) -> vec3f {
    let grey = curve(vec3f(max(c.r, max(c.g, c.b))), which).g;
    let t = max(grey - HEADROOM_KNEE, 0.0) / (1.0 - HEADROOM_KNEE);
    let m = max(s.r, max(s.g, s.b));
    return s * (1.0 + (headroom - 1.0) * t * t / max(m, 1e-6));
}

fn tonemap(c: vec3f, which: u32, headroom: f32) -> vec3f {
    // No curve: the radiance as it is (clamped later on the standard path).
    if which == TONEMAP_NONE {
        return c;
    }
    let s = curve(c, which);
    if !has(FLAG_EXTENDED) {
        return s;
    }
    return extend_to_headroom(c, s, which, headroom);
}
