// Composite: the only pass that touches the output (canvas) texture.
// HDR scene x exposure + bloom x intensity, tonemapped, dithered, and written
// in the output's encoding: linear through an -srgb view (the hardware
// encodes), or sRGB-encoded here where the format has no -srgb view
// (rgba16float). The bloom is added here, so the full-resolution HDR target
// is read once and never written back.
// The FLAG_* bits are generated from src/output.rs; CompositeParams is
// checked against src/passes/composite.rs by src/tests/shaders.rs.

// Linear sRGB (Rec. 709 primaries, D65) to linear Display P3 (D65). Content
// is authored in sRGB primaries; a 'display-p3' canvas reads P3 values, so
// without this the same numbers would show oversaturated.
const SRGB_TO_P3 = mat3x3f(
    vec3f(0.8224621, 0.0331941, 0.0170827),
    vec3f(0.1775380, 0.9668058, 0.0723974),
    vec3f(0.0000000, 0.0000000, 0.9105199),
);

// Linear sRGB (Rec. 709 primaries) to linear BT.2020 (ITU-R BT.2087), for
// a BT.2100 PQ output.
const SRGB_TO_BT2020 = mat3x3f(
    vec3f(0.6274039, 0.0690973, 0.0163914),
    vec3f(0.3292830, 0.9195404, 0.0880133),
    vec3f(0.0433131, 0.0113623, 0.8955953),
);

// SMPTE ST 2084 (PQ), the inverse EOTF: absolute luminance over 10,000
// cd/m² to the signal.
fn pq_encode(y: vec3f) -> vec3f {
    let m1 = 0.1593017578125;
    let m2 = 78.84375;
    let c1 = 0.8359375;
    let c2 = 18.8515625;
    let c3 = 18.6875;
    let p = pow(clamp(y, vec3f(0.0), vec3f(1.0)), vec3f(m1));
    return pow((c1 + c2 * p) / (1.0 + c3 * p), vec3f(m2));
}

// The pipeline is specialised with override constants rather than
// branching on uniforms at run time: a branch not taken is free on a GPU,
// but a software rasterizer (SwiftShader, where WebGPU runs without one)
// executes every path of a run-time branch for every pixel.
// FLAGS: FLAG_* bits; TONEMAPPER: a TONEMAP_* index; BLOOM: add the bloom.
override FLAGS: u32 = 0u;
override TONEMAPPER: u32 = 0u;
override BLOOM: bool = false;
// ENERGY: the energy-conserving bloom, which takes from each pixel the light
// it gave to the bloom, so blooming moves light rather than adding it.
override ENERGY: bool = false;
// DEBUG: 0 the picture, 1 the bloom alone, 2 auto exposure's histogram over
// the picture, 3 the HDR image as display values (depth of field's view of
// its circle of confusion, drawn in place of the scene).
override DEBUG: u32 = 0u;
// SPLIT: stop after the effects on display light and write the display
// image (linear display values and coverage, rgba16float), for an effect
// that reads the pixels around its own (anti-aliasing): its pass resumes
// the frame from there (fs_resume, generated with the effects).
override SPLIT: bool = false;
// SDR white in cd/m² on a PQ output (FLAG_PQ): where 1 of display light
// lands (BT.2408's 203 unless the program says otherwise).
override SDR_WHITE_NITS: f32 = 203.0;
// The effects fused into the composite (src/effect.rs) are called through
// four hooks generated with the module, each with a constant saying whether
// any effect runs there: fx_bloom (FX_BLOOM) on the bloom's light before
// it is added, fx_scene (FX_SCENE) on linear light before the curve,
// fx_display (FX_DISPLAY) on linear display light after it, fx_encoded
// (FX_ENCODED) on encoded display values, last. Without effects each hook
// is the identity and its constant false.

struct CompositeParams {
    exposure: f32,
    // bloom.intensity divided by the number of accumulated levels.
    bloom_scale: f32,
    // Frame to bloom texture coordinates: the bloom base covers whole
    // boxes of frame texels, so it may reach a little past the frame.
    bloom_uv: vec2f,
    // How far the curve reaches: 1 (SDR white), or canvas.headroom on the
    // extended path.
    headroom: f32,
    // The bloom extract's threshold and knee width (bright.wgsl).
    threshold: f32,
    knee: f32,
    // How much of a pixel's blooming light it gives away (energy mode).
    bloom_subtract: f32,
}

@group(0) @binding(0) var hdr: texture_2d<f32>;
@group(0) @binding(1) var linear_sampler: sampler;
@group(0) @binding(2) var<uniform> params: CompositeParams;
@group(0) @binding(3) var bloom: texture_2d<f32>;
// What bloomed: the HDR image, or the caller's bloom texture.
@group(0) @binding(4) var bright_source: texture_2d<f32>;

// Auto exposure's histogram (auto_exposure.wgsl), for DEBUG 2: the bins
// scaled to the fullest, and (first bin kept, last bin kept, metered
// average in bins, ev).
struct ExposureView {
    bins: array<vec4f, 16>,
    meter: vec4f,
}
@group(0) @binding(5) var<uniform> exposure_view: ExposureView;
// The histogram over the lower part of the frame (display values): a bar
// per bin, white inside the metered range, grey outside, the metered
// average as an orange line, over the picture darkened.
fn exposure_overlay(rgb: vec3f, uv: vec2f) -> vec3f {
    let left = 0.03;
    let right = 0.97;
    let top = 0.72;
    let bottom = 0.97;
    if uv.x < left || uv.x > right || uv.y < top || uv.y > bottom {
        return rgb;
    }
    let position = (uv.x - left) / (right - left) * 64.0;
    let bin = min(u32(position), 63u);
    let height = exposure_view.bins[bin / 4u][bin % 4u];
    let level = (bottom - uv.y) / (bottom - top);
    let meter = exposure_view.meter;
    if abs(position - meter.z) < 0.25 {
        return vec3f(1.0, 0.45, 0.05);
    }
    if level <= height {
        let kept = f32(bin) >= meter.x && f32(bin) <= meter.y;
        return vec3f(select(0.35, 0.9, kept));
    }
    return min(rgb, vec3f(1.0)) * 0.3;
}

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
    return (FLAGS & flag) != 0u;
}

// Interleaved gradient noise (Jimenez 2014) in [-0.5, 0.5) of one 8-bit step.
fn dither_noise(p: vec2f) -> f32 {
    return (fract(52.9829189 * fract(dot(p, vec2f(0.06711056, 0.00583715)))) - 0.5) / 255.0;
}

// The light at a pixel before the curve: the scene's, exposed, less what
// it gave to the bloom in the energy-conserving mode, plus the bloom
// (through fx_bloom). `scene` is the HDR image there, `source` what
// bloomed there (read only in the energy-conserving mode).
fn light(scene: vec4f, source: vec3f, uv: vec2f) -> vec3f {
    var rgb = max(scene.rgb, vec3f(0.0)) * params.exposure;
    if BLOOM {
        if ENERGY {
            // The bloom is the blur of what the extract took from every
            // pixel; take it from this one, so the frame's light is kept.
            let x = max(finite3(source), vec3f(0.0)) * params.exposure;
            // (A bloom texture brighter than the scene cannot take it below 0.)
            rgb = max(rgb - params.bloom_subtract * bright_pass(x, params.threshold, params.knee), vec3f(0.0));
        }
        let glow = finite4(textureSampleLevel(bloom, linear_sampler, uv * params.bloom_uv, 0.0)).rgb;
        var bloom_light = max(glow, vec3f(0.0)) * params.bloom_scale;
        if FX_BLOOM {
            bloom_light = fx_bloom(vec4f(bloom_light, 1.0), uv).rgb;
        }
        if DEBUG == 1u {
            return bloom_light;
        }
        rgb += bloom_light;
    } else if DEBUG == 1u {
        return vec3f(0.0);
    }
    return rgb;
}

// The alpha of premultiplied output: the coverage, raised to the
// brightest channel where light has none (bloom over a transparent page
// is a glow, never a dark halo).
fn glow_alpha(rgb: vec3f, coverage: f32) -> f32 {
    return clamp(max(coverage, max(rgb.r, max(rgb.g, rgb.b))), 0.0, 1.0);
}

// The light before the curve anywhere in the frame (uv), sampled, and its
// coverage: what the scene stage's effects see at their own pixel, for
// those that read around it (chromatic aberration, a user's effect in the
// scene stage, as `light_at`).
fn fx_light_at(uv: vec2f) -> vec4f {
    let at = scene_at(uv);
    return vec4f(light(at.scene, at.source, uv), at.scene.a);
}

// The edge-adaptive upscaler (`upscale: 'edge'`), where the HDR image is
// smaller than the output. Around the output pixel's position among the
// texels, twelve texels (the 4 x 4 square without its corners) are read.
// The gradients of their perceptual luma at the four nearest texels,
// weighted by nearness, make a structure tensor: its main axis is the
// direction across the local edge, and how much it dominates (times how
// strong the edge is) says how edge-like the neighbourhood is. The twelve
// texels are then filtered with a Catmull-Rom kernel whose footprint is
// squeezed across that direction and stretched along it, as far as the
// neighbourhood is an edge: a step stays a step, and a diagonal line stays
// straight instead of stair-stepped; flat areas and smooth gradients get
// the round kernel. The result is clamped to the range of the four
// nearest texels, so the kernel's negative lobes never ring.
//
// The twelve taps, by their offsets from the texel up and to the left of
// the position (index: offset): 0 (0,-1), 1 (1,-1), 2 (-1,0), 3 (0,0),
// 4 (1,0), 5 (2,0), 6 (-1,1), 7 (0,1), 8 (1,1), 9 (2,1), 10 (0,2),
// 11 (1,2). The code is written out tap by tap: a loop over an array
// indexed at run time is far slower on some compilers (an emulation's
// among them).

// Luma on a perceptual scale, for judging edges: exposed, compressed
// (x / (1 + x)), then the square root (close to sRGB's encoding).
fn edge_luma(c: vec3f) -> f32 {
    let l = max(dot(c, vec3f(0.2126, 0.7152, 0.0722)), 0.0) * params.exposure;
    return sqrt(1.0 - 1.0 / (1.0 + l));
}

// Catmull-Rom's cubic at distance `d` (none beyond 2).
fn edge_kernel(d: f32) -> f32 {
    let x = min(d, 2.0);
    if x < 1.0 {
        return (1.5 * x - 2.5) * x * x + 1.0;
    }
    return ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0;
}

// The structure tensor's part from one texel's gradient, weighted.
fn edge_tensor(g: vec2f, w: f32) -> vec3f {
    return w * vec3f(g.x * g.x, g.y * g.y, g.x * g.y);
}

// The filter at one position: the texel the taps are around and each
// tap's weight, in tap order, four to a vector (their total divides).
struct EdgeFilter {
    base: vec2i,
    w0: vec4f,
    w1: vec4f,
    w2: vec4f,
}

fn edge_luma_at(p: vec2i, size: vec2i) -> f32 {
    return edge_luma(edge_at(hdr, p, size).rgb);
}

// The kernel's weight of the tap at `o` from the position, in the frame
// of the edge (`across` and `along` carry their scales).
fn edge_weight(o: vec2f, across: vec2f, along: vec2f) -> f32 {
    return edge_kernel(length(vec2f(dot(o, across), dot(o, along))));
}

fn edge_filter(uv: vec2f) -> EdgeFilter {
    let size = vec2i(textureDimensions(hdr));
    let p = uv * vec2f(size) - 0.5;
    let t = fract(p);
    let base = vec2i(floor(p));
    let l0 = edge_luma_at(base + vec2i(0, -1), size);
    let l1 = edge_luma_at(base + vec2i(1, -1), size);
    let l2 = edge_luma_at(base + vec2i(-1, 0), size);
    let l3 = edge_luma_at(base + vec2i(0, 0), size);
    let l4 = edge_luma_at(base + vec2i(1, 0), size);
    let l5 = edge_luma_at(base + vec2i(2, 0), size);
    let l6 = edge_luma_at(base + vec2i(-1, 1), size);
    let l7 = edge_luma_at(base + vec2i(0, 1), size);
    let l8 = edge_luma_at(base + vec2i(1, 1), size);
    let l9 = edge_luma_at(base + vec2i(2, 1), size);
    let l10 = edge_luma_at(base + vec2i(0, 2), size);
    let l11 = edge_luma_at(base + vec2i(1, 2), size);
    // Central differences at the four nearest texels (taps 3, 4, 7, 8).
    let w = vec4f((1.0 - t.x) * (1.0 - t.y), t.x * (1.0 - t.y), (1.0 - t.x) * t.y, t.x * t.y);
    let j = edge_tensor(vec2f(l4 - l2, l7 - l0), w.x)
        + edge_tensor(vec2f(l5 - l3, l8 - l1), w.y)
        + edge_tensor(vec2f(l8 - l6, l10 - l3), w.z)
        + edge_tensor(vec2f(l9 - l7, l11 - l4), w.w);
    let trace = j.x + j.y;
    let spread = sqrt((j.x - j.y) * (j.x - j.y) + 4.0 * j.z * j.z);
    // 1 where every gradient is parallel, 0 where none dominates.
    let anisotropy = select(0.0, spread / trace, trace > 1e-8);
    // How strong the edge is: a step of a quarter of the perceptual range
    // between two texels or more is a full edge; a smooth gradient is not.
    let larger = 0.5 * (trace + spread);
    let edge = anisotropy * clamp(sqrt(larger) * 4.0, 0.0, 1.0);
    // The main axis: the eigenvector of the larger eigenvalue, from the
    // row of the tensor less that eigenvalue which cancels least (an axis
    // of the grid where the tensor has no cross term).
    let v = select(vec2f(larger - j.y, j.z), vec2f(j.z, larger - j.x), j.y > j.x);
    let axis = select(vec2f(1.0, 0.0), vec2f(0.0, 1.0), j.y > j.x);
    let normal = select(axis, normalize(v), dot(v, v) > 1e-12);
    let across = normal * (1.0 + 0.5 * edge);
    let along = vec2f(-normal.y, normal.x) * (1.0 - 0.5 * edge);
    var f: EdgeFilter;
    f.base = base;
    f.w0 = vec4f(
        edge_weight(vec2f(0.0, -1.0) - t, across, along),
        edge_weight(vec2f(1.0, -1.0) - t, across, along),
        edge_weight(vec2f(-1.0, 0.0) - t, across, along),
        edge_weight(vec2f(0.0, 0.0) - t, across, along),
    );
    f.w1 = vec4f(
        edge_weight(vec2f(1.0, 0.0) - t, across, along),
        edge_weight(vec2f(2.0, 0.0) - t, across, along),
        edge_weight(vec2f(-1.0, 1.0) - t, across, along),
        edge_weight(vec2f(0.0, 1.0) - t, across, along),
    );
    f.w2 = vec4f(
        edge_weight(vec2f(1.0, 1.0) - t, across, along),
        edge_weight(vec2f(2.0, 1.0) - t, across, along),
        edge_weight(vec2f(0.0, 2.0) - t, across, along),
        edge_weight(vec2f(1.0, 2.0) - t, across, along),
    );
    return f;
}

// The texel of `image` at `p`, the edge's texels standing in beyond it.
fn edge_at(image: texture_2d<f32>, p: vec2i, size: vec2i) -> vec4f {
    return finite4(textureLoad(image, clamp(p, vec2i(0), size - 1), 0));
}

// `image` (the HDR image, or what bloomed, of its size) filtered as `f`
// says, clamped to the range of the four nearest texels.
fn edge_apply(image: texture_2d<f32>, f: EdgeFilter) -> vec4f {
    let size = vec2i(textureDimensions(image));
    let c0 = edge_at(image, f.base + vec2i(0, -1), size);
    let c1 = edge_at(image, f.base + vec2i(1, -1), size);
    let c2 = edge_at(image, f.base + vec2i(-1, 0), size);
    let c3 = edge_at(image, f.base + vec2i(0, 0), size);
    let c4 = edge_at(image, f.base + vec2i(1, 0), size);
    let c5 = edge_at(image, f.base + vec2i(2, 0), size);
    let c6 = edge_at(image, f.base + vec2i(-1, 1), size);
    let c7 = edge_at(image, f.base + vec2i(0, 1), size);
    let c8 = edge_at(image, f.base + vec2i(1, 1), size);
    let c9 = edge_at(image, f.base + vec2i(2, 1), size);
    let c10 = edge_at(image, f.base + vec2i(0, 2), size);
    let c11 = edge_at(image, f.base + vec2i(1, 2), size);
    let sum = f.w0.x * c0 + f.w0.y * c1 + f.w0.z * c2 + f.w0.w * c3
        + f.w1.x * c4 + f.w1.y * c5 + f.w1.z * c6 + f.w1.w * c7
        + f.w2.x * c8 + f.w2.y * c9 + f.w2.z * c10 + f.w2.w * c11;
    let total = dot(f.w0 + f.w1 + f.w2, vec4f(1.0));
    let lo = min(min(c3, c4), min(c7, c8));
    let hi = max(max(c3, c4), max(c7, c8));
    return clamp(sum / max(total, 1e-4), lo, hi);
}

// The HDR image and what bloomed at `uv`, as the frame's size and
// `upscale` say: sampled bilinearly, or by the edge-adaptive filter (the
// same weights for both, so what the energy-conserving bloom takes back
// lies where the light does).
struct SceneAt {
    scene: vec4f,
    source: vec3f,
}

fn scene_at(uv: vec2f) -> SceneAt {
    var out: SceneAt;
    out.source = vec3f(0.0);
    if has(FLAG_EDGE_UPSCALE) {
        let f = edge_filter(uv);
        out.scene = edge_apply(hdr, f);
        if BLOOM && ENERGY {
            out.source = edge_apply(bright_source, f).rgb;
        }
    } else {
        out.scene = textureSampleLevel(hdr, linear_sampler, uv, 0.0);
        if BLOOM && ENERGY {
            out.source = textureSampleLevel(bright_source, linear_sampler, uv, 0.0).rgb;
        }
    }
    out.scene = finite4(out.scene);
    return out;
}

@fragment
fn fs_composite(in: FullscreenOut) -> @location(0) vec4f {
    return fx_composite(in);
}

// The composite at one pixel: drawn into the output (fs_composite), or,
// with SPLIT, the display image, drawn or run as compute (cs_composite,
// generated with the effects where none of them needs the fragment
// stage's derivatives).
fn fx_composite(in: FullscreenOut) -> vec4f {
    // At render scale 1 every output pixel is one HDR texel: load it.
    var scene: vec4f;
    var source = vec3f(0.0);
    if has(FLAG_ONE_TO_ONE) {
        scene = textureLoad(hdr, vec2i(in.position.xy), 0);
        if BLOOM && ENERGY {
            source = textureLoad(bright_source, vec2i(in.position.xy), 0).rgb;
        }
    } else {
        let at = scene_at(in.uv);
        scene = at.scene;
        source = at.source;
    }
    scene = finite4(scene);
    if DEBUG == 3u {
        let view = clamp(scene.rgb, vec3f(0.0), vec3f(1.0));
        if SPLIT {
            return vec4f(view, 1.0);
        }
        return fx_finish(view, 1.0, in.position.xy, in.uv);
    }
    // Premultiplied linear radiance.
    var rgb = light(scene, source, in.uv);
    var coverage = scene.a;
    if FX_SCENE {
        let c = fx_scene(vec4f(rgb, coverage), in.uv);
        rgb = c.rgb;
        coverage = c.a;
    }
    rgb = tonemap(rgb, TONEMAPPER, params.headroom);
    if FX_DISPLAY {
        let c = fx_display(vec4f(rgb, coverage), in.uv);
        rgb = c.rgb;
        coverage = c.a;
    }
    if SPLIT {
        // The display image, for an effect that reads around its pixel.
        return vec4f(rgb, coverage);
    }
    return fx_finish(rgb, coverage, in.position.xy, in.uv);
}

// The frame from display light on: the effects on encoded values, the
// overlay, and the output's encoding. `position` is the output pixel.
fn fx_finish(display: vec3f, display_coverage: f32, position: vec2f, uv: vec2f) -> vec4f {
    var rgb = display;
    var coverage = display_coverage;
    // On an opaque SDR output that encodes in the shader (to dither, or
    // with no -srgb view) and has nothing after the encoded effects (no
    // Display P3 conversion, no overlay), the output takes their result
    // still encoded, instead of decoding it only to encode it again. Known
    // when the pipeline is made, so no pixel pays for both ways.
    let stays_encoded = FX_ENCODED && !has(FLAG_EXTENDED) && !has(FLAG_DISPLAY_P3)
        && !has(FLAG_PREMULTIPLIED) && DEBUG != 2u
        && (has(FLAG_DITHER) || has(FLAG_SHADER_ENCODES));
    var looked = vec3f(0.0);
    if FX_ENCODED {
        // In display space, where the tables of grading tools live: the
        // sRGB-encoded [0, 1] part of the colour. On an HDR output what
        // lies beyond (highlights above SDR white) is kept on top; an SDR
        // output would clip it, so there it takes the effects' white.
        let display = clamp(rgb, vec3f(0.0), vec3f(1.0));
        let c = fx_encoded(vec4f(srgb_encode(display), coverage), uv);
        looked = clamp(c.rgb, vec3f(0.0), vec3f(1.0));
        coverage = c.a;
        if !stays_encoded {
            rgb = srgb_decode(looked) + select(vec3f(0.0), rgb - display, has(FLAG_EXTENDED));
        }
    }
    if DEBUG == 2u {
        rgb = exposure_overlay(rgb, uv);
    }
    if has(FLAG_DISPLAY_P3) {
        rgb = SRGB_TO_P3 * rgb;
    }
    if !has(FLAG_EXTENDED) {
        rgb = clamp(rgb, vec3f(0.0), vec3f(1.0));
    }
    if has(FLAG_PQ) {
        // HDR10: BT.2020 primaries, PQ of the absolute luminance (opaque).
        let nits = max(SRGB_TO_BT2020 * rgb, vec3f(0.0)) * SDR_WHITE_NITS;
        return vec4f(pq_encode(nits / 10000.0), 1.0);
    }
    if has(FLAG_LINEAR) {
        // scRGB: linear light, 1 = SDR white, premultiplied where the
        // output is (light with no coverage raises alpha, as below).
        if !has(FLAG_PREMULTIPLIED) {
            return vec4f(rgb, 1.0);
        }
        return vec4f(rgb, glow_alpha(rgb, coverage));
    }
    let dither = has(FLAG_DITHER);

    if !has(FLAG_PREMULTIPLIED) {
        // Opaque canvas: the content over black, alpha exactly 1. Without
        // dither through an -srgb view, the hardware does all the encoding.
        if !dither && !has(FLAG_SHADER_ENCODES) {
            return vec4f(rgb, 1.0);
        }
        var encoded: vec3f;
        if stays_encoded {
            encoded = looked;
        } else {
            encoded = srgb_encode(rgb);
        }
        if dither {
            encoded = clamp(encoded + dither_noise(position), vec3f(0.0), vec3f(1.0));
        }
        return vec4f(select(srgb_decode(encoded), encoded, has(FLAG_SHADER_ENCODES)), 1.0);
    }

    // Premultiplied canvas. The compositor blends encoded values, so the
    // stored colour must be encode(straight) * alpha, which keeps rgb <= alpha.
    let alpha = glow_alpha(rgb, coverage);
    if alpha <= 0.0 {
        return vec4f(0.0);
    }
    var straight = srgb_encode(rgb / alpha);
    if dither {
        straight = clamp(straight + dither_noise(position), vec3f(0.0), vec3f(1.0));
    }
    let encoded = straight * alpha;
    if has(FLAG_SHADER_ENCODES) {
        return vec4f(encoded, alpha);
    }
    // The -srgb view will encode what we write: hand it the linear value
    // whose encoding is the premultiplied encoded colour.
    return vec4f(srgb_decode(encoded), alpha);
}
