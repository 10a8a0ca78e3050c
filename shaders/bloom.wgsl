// Bloom: bright extract, downsample, upsample and Gaussian blur passes.
//
// The mip chain follows Jimenez, "Next Generation Post Processing in Call of
// Duty: Advanced Warfare" (SIGGRAPH 2014): a 13-tap downsample whose five
// overlapping 2x2 boxes suppress aliasing, and a 3x3 tent upsample added
// onto the next larger mip. The first downsample weights each box by
// 1 / (1 + luma) (Karis average) so a single very bright texel (a
// "firefly") cannot dominate, and it replaces NaN and Inf by 0 so one bad
// texel cannot spread through the whole chain.
//
// BloomParams is checked against src/passes/bloom.rs by tests/shaders.rs.

struct BloomParams {
    // Threshold and knee width (threshold * knee), after exposure.
    threshold: f32,
    knee: f32,
    exposure: f32,
    // Upsample tent radius, in texels of the source mip. The chain has the
    // same shape in screen terms at every resolution (see bloom.rs), so
    // this is a fixed fraction of the screen at each level.
    radius: f32,
    // Gaussian mode: tap spacing in texels of the source.
    gauss_step: f32,
    _pad0: f32,
    _pad1: f32,
    _pad2: f32,
}

@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var src_sampler: sampler;
@group(0) @binding(2) var<uniform> params: BloomParams;

fn tap(uv: vec2f) -> vec3f {
    return textureSampleLevel(src, src_sampler, uv, 0.0).rgb;
}

fn luma(c: vec3f) -> f32 {
    return dot(c, vec3f(0.2126, 0.7152, 0.0722));
}

fn karis(c: vec3f) -> f32 {
    return 1.0 / (1.0 + luma(c));
}

// The 13 taps around uv: a (outer corners), b (outer edges), c (centre),
// d (inner corners), spaced in texels of the source.
struct Taps {
    a: vec3f, b: vec3f, c: vec3f, d: vec3f, e: vec3f, f: vec3f, g: vec3f,
    h: vec3f, i: vec3f, j: vec3f, k: vec3f, l: vec3f, m: vec3f,
}

fn taps13(uv: vec2f, guard: bool) -> Taps {
    let t = 1.0 / vec2f(textureDimensions(src));
    var s: Taps;
    s.a = tap(uv + t * vec2f(-2.0, -2.0));
    s.b = tap(uv + t * vec2f(0.0, -2.0));
    s.c = tap(uv + t * vec2f(2.0, -2.0));
    s.d = tap(uv + t * vec2f(-2.0, 0.0));
    s.e = tap(uv);
    s.f = tap(uv + t * vec2f(2.0, 0.0));
    s.g = tap(uv + t * vec2f(-2.0, 2.0));
    s.h = tap(uv + t * vec2f(0.0, 2.0));
    s.i = tap(uv + t * vec2f(2.0, 2.0));
    s.j = tap(uv + t * vec2f(-1.0, -1.0));
    s.k = tap(uv + t * vec2f(1.0, -1.0));
    s.l = tap(uv + t * vec2f(-1.0, 1.0));
    s.m = tap(uv + t * vec2f(1.0, 1.0));
    if guard {
        s.a = finite3(s.a); s.b = finite3(s.b); s.c = finite3(s.c); s.d = finite3(s.d);
        s.e = finite3(s.e); s.f = finite3(s.f); s.g = finite3(s.g); s.h = finite3(s.h);
        s.i = finite3(s.i); s.j = finite3(s.j); s.k = finite3(s.k); s.l = finite3(s.l);
        s.m = finite3(s.m);
    }
    return s;
}

// Plain 13-tap downsample: weights 0.5 for the inner box, 0.125 for each of
// the four outer boxes.
fn downsample13(s: Taps) -> vec3f {
    var r = (s.j + s.k + s.l + s.m) * 0.125;
    r += (s.a + s.b + s.d + s.e) * 0.03125;
    r += (s.b + s.c + s.e + s.f) * 0.03125;
    r += (s.d + s.e + s.g + s.h) * 0.03125;
    r += (s.e + s.f + s.h + s.i) * 0.03125;
    return r;
}

// Same boxes, each weighted by the Karis factor of its average.
fn downsample13_karis(s: Taps) -> vec3f {
    let g0 = (s.j + s.k + s.l + s.m) * 0.25;
    let g1 = (s.a + s.b + s.d + s.e) * 0.25;
    let g2 = (s.b + s.c + s.e + s.f) * 0.25;
    let g3 = (s.d + s.e + s.g + s.h) * 0.25;
    let g4 = (s.e + s.f + s.h + s.i) * 0.25;
    let w0 = 0.5 * karis(g0);
    let w1 = 0.125 * karis(g1);
    let w2 = 0.125 * karis(g2);
    let w3 = 0.125 * karis(g3);
    let w4 = 0.125 * karis(g4);
    return (g0 * w0 + g1 * w1 + g2 * w2 + g3 * w3 + g4 * w4) / (w0 + w1 + w2 + w3 + w4);
}

// Threshold with a quadratic soft knee: 0 well below, linear well above,
// smooth in between.
fn threshold(c: vec3f) -> vec3f {
    let brightness = max(c.r, max(c.g, c.b));
    let knee = params.knee;
    var soft = clamp(brightness - params.threshold + knee, 0.0, 2.0 * knee);
    soft = soft * soft / (4.0 * knee + 1e-5);
    let contribution = max(soft, brightness - params.threshold) / max(brightness, 1e-5);
    return c * max(contribution, 0.0);
}

// Bright extract: HDR target -> bloom mip 0 (or the Gaussian ping target).
@fragment
fn fs_extract(in: FullscreenOut) -> @location(0) vec4f {
    let c = downsample13_karis(taps13(in.uv, true)) * params.exposure;
    return vec4f(threshold(c), 1.0);
}

@fragment
fn fs_downsample(in: FullscreenOut) -> @location(0) vec4f {
    return vec4f(downsample13(taps13(in.uv, false)), 1.0);
}

// 3x3 tent, added (blend one + one) onto the next larger mip.
@fragment
fn fs_upsample(in: FullscreenOut) -> @location(0) vec4f {
    let r = params.radius / vec2f(textureDimensions(src));
    var c = tap(in.uv) * 4.0;
    c += (tap(in.uv + vec2f(-r.x, 0.0)) + tap(in.uv + vec2f(r.x, 0.0))
        + tap(in.uv + vec2f(0.0, -r.y)) + tap(in.uv + vec2f(0.0, r.y))) * 2.0;
    c += tap(in.uv + vec2f(-r.x, -r.y)) + tap(in.uv + vec2f(r.x, -r.y))
        + tap(in.uv + vec2f(-r.x, r.y)) + tap(in.uv + vec2f(r.x, r.y));
    return vec4f(c / 16.0, 1.0);
}

// Separable 9-tap Gaussian in 5 bilinear fetches (offsets and weights of
// the discrete binomial kernel merged pairwise).
fn gauss(uv: vec2f, dir: vec2f) -> vec3f {
    let t = dir * params.gauss_step / vec2f(textureDimensions(src));
    var c = tap(uv) * 0.2270270270;
    c += (tap(uv + t * 1.3846153846) + tap(uv - t * 1.3846153846)) * 0.3162162162;
    c += (tap(uv + t * 3.2307692308) + tap(uv - t * 3.2307692308)) * 0.0702702703;
    return c;
}

@fragment
fn fs_blur_h(in: FullscreenOut) -> @location(0) vec4f {
    return vec4f(gauss(in.uv, vec2f(1.0, 0.0)), 1.0);
}

@fragment
fn fs_blur_v(in: FullscreenOut) -> @location(0) vec4f {
    return vec4f(gauss(in.uv, vec2f(0.0, 1.0)), 1.0);
}
