// Bloom: bright extract, downsample, upsample and Gaussian blur passes.
//
// The bright extract works on single texels of the HDR target, before any
// averaging: each texel is made finite (NaN and Inf become 0), scaled by
// the exposure, compressed by a soft ceiling far above ordinary highlights
// (so one extreme texel, a "firefly", cannot flood the frame) and
// thresholded; only then are texels averaged into the base, a whole
// number of frame texels per base texel and axis (for the mip chain, a box
// whose light is then moved to where it sat in the box, see fx_centre; a
// tent for the Gaussian blur), with weights that sum to the same total for
// every source texel. A light's bloom is then linear in its energy, centred
// on it and nearly independent of where it falls on the pixel grid, so
// small moving lights glow steadily. (Thresholding
// after a wide average, as the 13-tap Karis-weighted extract of Jimenez,
// "Next Generation Post Processing in Call of Duty: Advanced Warfare",
// SIGGRAPH 2014, does, dilutes a light smaller than the filter below the
// threshold by an amount that depends on its sub-pixel position.)
//
// The rest of the mip chain follows that talk: a 13-tap downsample whose
// five overlapping 2x2 boxes suppress aliasing, and a 3x3 tent upsample
// added onto the next larger mip.
//
// BloomParams is checked against src/passes/bloom.rs by src/tests/shaders.rs.

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
    // Bright extract: frame texels per base texel and axis, a whole
    // number from 4 to 16 (2 to 16 for the Gaussian blur's target; see
    // BloomPlan in bloom.rs).
    ratio: f32,
    _pad0: vec2f,
}

@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var src_sampler: sampler;
@group(0) @binding(2) var<uniform> params: BloomParams;
// The chain's base, the centre pass's output: read by the last upsample
// (fx_upsample_base), which smooths it into mip 0. Other passes have their
// source here too and do not read it.
@group(0) @binding(3) var base: texture_2d<f32>;

fn tap(uv: vec2f) -> vec3f {
    return textureSampleLevel(src, src_sampler, uv, 0.0).rgb;
}

// The 13 taps around uv: a (outer corners), b (outer edges), c (centre),
// d (inner corners), spaced in texels of the source.
struct Taps {
    a: vec3f, b: vec3f, c: vec3f, d: vec3f, e: vec3f, f: vec3f, g: vec3f,
    h: vec3f, i: vec3f, j: vec3f, k: vec3f, l: vec3f, m: vec3f,
}

fn taps13(uv: vec2f) -> Taps {
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

// One texel as the bloom sees it: finite, exposed, ceiled, thresholded
// (bright.wgsl). `knee_scale`: bright_gain's, computed once per pixel.
fn bright(c: vec3f, knee_scale: f32) -> vec3f {
    // max(finite3(c), 0) in one test per channel: a float is finite and
    // not negative exactly when its bits, read as unsigned, are below
    // those of +Inf (the sign bit clear, the exponent not all ones).
    let x = select(vec3f(0.0), c, bitcast<vec3u>(c) < vec3u(0x7f800000u));
    let peak = max(x.r, max(x.g, x.b)) * params.exposure;
    return x * (params.exposure * bright_gain(peak, params.threshold, params.knee, knee_scale));
}

// One source texel, bright-passed; black outside the target (so light
// near an edge is not boosted).
fn bright_at(q: vec2i, last: vec2i, knee_scale: f32) -> vec3f {
    let inside = all(q >= vec2i(0)) && all(q <= last);
    let c = textureLoad(src, clamp(q, vec2i(0), last), 0).rgb;
    return select(vec3f(0.0), bright(c, knee_scale), inside);
}

// Whether the base's last boxes reach past the frame's last row or column
// (its size is not a whole number of boxes): only then does the extract
// test each texel against the frame's edge. A pipeline constant, not a
// run-time branch (see composite.wgsl); false at 1080p, 720p and 2160p.
override PARTIAL_BOXES: bool = true;

// The image a step of the mip chain writes when it runs as compute: the
// extract, the centring, the last upsample (or the smoothing of a chain of
// one level) and the fine target, each a `cs_` entry point the Rust side
// generates around its `fx_` function (passes::bloom::Computed). Group 1,
// which no drawing stage of this module binds. These steps read or write
// the largest images of the chain, which a narrow raster path (a
// data-centre GPU's) draws many times slower than compute runs them; they
// cost what a draw would elsewhere.
@group(1) @binding(0) var fx_bloom_out: texture_storage_2d<rgba16float, write>;

// Bright extract for the mip chain, first of two steps, one invocation per
// box: the average of the ratio x ratio thresholded texels under this base
// texel (a box, so every source texel is read once), and where in the box
// their light sits (its luminance-weighted centroid), packed into alpha.
// Texels past the frame's last row or column count as black.
fn fx_extract(in: FullscreenOut) -> vec4f {
    let m = min(i32(params.ratio), 16);
    let last = vec2i(textureDimensions(src)) - 1;
    let first = vec2i(floor(in.position.xy)) * m;
    let knee_scale = knee_scale_of(params.knee);
    var sum = vec3f(0.0);
    var moment = vec2f(0.0);
    var weight = 0.0;
    for (var j = 0; j < m; j++) {
        // The row's luminance and its moment across the box.
        var row = vec2f(0.0);
        for (var i = 0; i < m; i++) {
            let q = first + vec2i(i, j);
            var c: vec3f;
            if PARTIAL_BOXES {
                c = bright_at(q, last, knee_scale);
            } else {
                c = bright(textureLoad(src, q, 0).rgb, knee_scale);
            }
            let l = dot(c, LUMA);
            sum += c;
            row += vec2f(l, l * f32(i));
        }
        moment += vec2f(row.y, row.x * f32(j));
        weight += row.x;
    }
    // The centroid in [0, 1] across the box (texel centres at (i + 0.5) / m).
    let centroid = select(vec2f(0.5), (moment / max(weight, 1e-30) + 0.5) / f32(m), weight > 0.0);
    return vec4f(sum / f32(m * m), pack_centroid(centroid));
}

// A centroid in [0, 1]^2 in steps of 1/32 per axis (the texel centres
// of a box of 4, 8 or 16 texels exactly), as a whole number below 1089:
// exact in a 16-bit float's alpha.
fn pack_centroid(c: vec2f) -> f32 {
    let q = round(clamp(c, vec2f(0.0), vec2f(1.0)) * 32.0);
    return q.x + 33.0 * q.y;
}

// The centroid's offset from its base texel's centre, in base texels
// (-0.5 to 0.5 per axis). The packed value is a whole number below 1089,
// exact in the texture, so its row is found in float arithmetic half a
// step from any rounding (a software rasterizer divides integers one lane
// at a time).
fn unpack_centroid(a: f32) -> vec2f {
    let y = floor((a + 0.5) * (1.0 / 33.0));
    return vec2f(a - 33.0 * y, y) * (1.0 / 32.0) - 0.5;
}

// What a light at offset o from its texel's centre (-0.5 to 0.5 per axis)
// gives the texel at d from its own (-1, 0 or 1 per axis): the quadratic
// B-spline at distance d - o, whose piece is known from d alone (the
// outer one, 0.5 (1.5 - |t|)^2, for a neighbour, the inner one,
// 0.75 - t^2, for its own texel). Per axis; the three add up to one.
fn spline_share(d: vec2f, o: vec2f) -> vec2f {
    let s = 0.5 + d * o;
    return select(0.5 * s * s, 0.75 - o * o, d == vec2f(0.0));
}

// What the neighbour d of base texel b gives it (see fx_centre), times
// `present`: 0 for a neighbour past the base's edge. (That one's load
// reads outside the texture, which gives zero or some texel's value, and
// every texel the extract wrote is finite, so the product is 0.) Without
// a branch: a software rasterizer runs both sides of one for every pixel.
fn share(b: vec2i, d: vec2i, present: f32) -> vec3f {
    let t = textureLoad(src, b + d, 0);
    let w = spline_share(vec2f(-d), unpack_centroid(t.a));
    return (present * w.x * w.y) * t.rgb;
}

// Second step: each base texel's light is spread over the three nearest
// base texels per axis with the weights of a quadratic B-spline centred on
// its centroid, so a light's bloom is centred on the light, not on the box
// it falls in. This texel gathers what its 3x3 neighbours give it. The
// weights add up to one and reproduce linear functions, and the filters
// after this (the 13-tap downsamples, the tent upsamples, the composite's
// bilinear sample) are linear: the light's total and its centre are kept.
// A share that would land past the base's edge stays on the edge texel
// (as the chain's clamp-to-edge sampling treats the edge), so no light is
// lost there.
fn fx_centre(in: FullscreenOut) -> vec4f {
    let b = vec2i(floor(in.position.xy));
    let last = vec2i(textureDimensions(src)) - 1;
    // Per axis, 1 where the base has a texel before (after) this one.
    let before = select(vec2f(0.0), vec2f(1.0), b > vec2i(0));
    let after = select(vec2f(0.0), vec2f(1.0), b < last);
    var sum = share(b, vec2i(-1, -1), before.x * before.y) + share(b, vec2i(0, -1), before.y)
        + share(b, vec2i(1, -1), after.x * before.y) + share(b, vec2i(-1, 0), before.x)
        + share(b, vec2i(1, 0), after.x) + share(b, vec2i(-1, 1), before.x * after.y)
        + share(b, vec2i(0, 1), after.y) + share(b, vec2i(1, 1), after.x * after.y);
    // This texel's own share; at the base's edge it also keeps the share
    // it would send one texel past that edge.
    let t = textureLoad(src, b, 0);
    let o = unpack_centroid(t.a);
    let w = spline_share(vec2f(0.0), o) + (1.0 - before) * spline_share(vec2f(-1.0), o)
        + (1.0 - after) * spline_share(vec2f(1.0), o);
    sum += w.x * w.y * t.rgb;
    return vec4f(sum, 1.0);
}

// Bright extract for the Gaussian blur, which has no pyramid to smooth a
// box's half-texel skew: a separable tent as wide as two base texels over
// the thresholded texels, centred on this base texel, which keeps each
// texel's light centred and, at a whole ratio, sums to the same total
// (ratio per axis) for every texel.
@fragment
fn fs_extract_smooth(in: FullscreenOut) -> @location(0) vec4f {
    let k = f32(min(i32(params.ratio), 16));
    let last = vec2i(textureDimensions(src)) - 1;
    let p = in.position.xy * k;
    let first = vec2i(floor(p - k + 0.5));
    let n = i32(2.0 * k);
    let knee_scale = knee_scale_of(params.knee);
    var sum = vec3f(0.0);
    for (var j = 0; j < n; j++) {
        let y = first.y + j;
        let wy = max(1.0 - abs(f32(y) + 0.5 - p.y) / k, 0.0);
        var row = vec3f(0.0);
        for (var i = 0; i < n; i++) {
            let x = first.x + i;
            let wx = max(1.0 - abs(f32(x) + 0.5 - p.x) / k, 0.0);
            row += wx * bright_at(vec2i(x, y), last, knee_scale);
        }
        sum += wy * row;
    }
    return vec4f(sum / (k * k), 1.0);
}

@fragment
fn fs_downsample(in: FullscreenOut) -> @location(0) vec4f {
    return vec4f(downsample13(taps13(in.uv)), 1.0);
}

// Where the tent's radius is at most half a source texel (bloom.radius up
// to 1, the default), its three taps per axis are exact in two bilinear
// fetches: the centre tap shares a texel interval, where bilinear
// filtering is linear, with one of its neighbours, so the two merge into
// one fetch at their weighted mean. Four fetches in 2D instead of nine,
// the same result.
override NARROW_TENT: bool = false;

// One axis of the narrow tent: the merged fetch's position (weight 3/4)
// and the single one's (weight 1/4), in texels.
fn tent_axis(p: f32, r: f32) -> vec2f {
    let same_as_next = floor(p - 0.5) == floor(p + r - 0.5);
    let other = select(p - r, p + r, same_as_next);
    let single = select(p + r, p - r, same_as_next);
    return vec2f((2.0 * p + other) / 3.0, single);
}

// 3x3 tent (weights 1 2 1 per axis) of the source mip at uv.
fn upsample(uv: vec2f) -> vec3f {
    let size = vec2f(textureDimensions(src));
    if NARROW_TENT {
        let p = uv * size;
        let x = tent_axis(p.x, params.radius) / size.x;
        let y = tent_axis(p.y, params.radius) / size.y;
        let c = tap(vec2f(x.x, y.x)) * 9.0 + tap(vec2f(x.y, y.x)) * 3.0
            + tap(vec2f(x.x, y.y)) * 3.0 + tap(vec2f(x.y, y.y));
        return c / 16.0;
    }
    let r = params.radius / size;
    var c = tap(uv) * 4.0;
    c += (tap(uv + vec2f(-r.x, 0.0)) + tap(uv + vec2f(r.x, 0.0))
        + tap(uv + vec2f(0.0, -r.y)) + tap(uv + vec2f(0.0, r.y))) * 2.0;
    c += tap(uv + vec2f(-r.x, -r.y)) + tap(uv + vec2f(r.x, -r.y))
        + tap(uv + vec2f(-r.x, r.y)) + tap(uv + vec2f(r.x, r.y));
    return c / 16.0;
}

// The upsample, added (blend one + one) onto the next larger mip.
@fragment
fn fs_upsample(in: FullscreenOut) -> @location(0) vec4f {
    return vec4f(upsample(in.uv), 1.0);
}

// The chain's last steps make the composite's one bilinear sample read a
// smooth picture. Read straight from mip 0, that sample magnifies four
// times, and a B-spline splat read back that way is wider or narrower
// depending on where it sits between texel centres: a small light's glow
// changed shape with its place in its 4x4 box (59-65 % stronger along one
// axis than across it in the middle of a box's edge). So the base is
// smoothed by a 3x3 tent at its own size (weights 1 2 1 per axis: four
// bilinear fetches half a texel off the centre, each the mean of a 2x2
// block) as the last upsample adds the coarser levels to it into mip 0,
// and mip 0 is then read into a target twice its size with one bilinear
// fetch (fx_fine); the composite samples that. The tent and bilinear
// filtering reproduce linear functions, so the light's centre is kept.
fn tent_of(t: texture_2d<f32>, uv: vec2f) -> vec3f {
    let h = 0.5 / vec2f(textureDimensions(t));
    let c = textureSampleLevel(t, src_sampler, uv - h, 0.0).rgb
        + textureSampleLevel(t, src_sampler, uv + vec2f(h.x, -h.y), 0.0).rgb
        + textureSampleLevel(t, src_sampler, uv + vec2f(-h.x, h.y), 0.0).rgb
        + textureSampleLevel(t, src_sampler, uv + h, 0.0).rgb;
    return c * 0.25;
}

// The last upsample: the base smoothed, plus the coarser levels, into mip 0.
fn fx_upsample_base(in: FullscreenOut) -> vec4f {
    return vec4f(tent_of(base, in.uv) + upsample(in.uv), 1.0);
}

// A chain of one level: the base smoothed into mip 0.
fn fx_smooth(in: FullscreenOut) -> vec4f {
    return vec4f(tent_of(src, in.uv), 1.0);
}

fn fx_fine(in: FullscreenOut) -> vec4f {
    return vec4f(tap(in.uv), 1.0);
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
