// Composite: the only pass that touches the output (canvas) texture.
// HDR scene x exposure + bloom x intensity, tonemapped, dithered, and written
// in the output's encoding: linear through an -srgb view (the hardware
// encodes), or sRGB-encoded here where the format has no -srgb view
// (rgba16float). The bloom is added here, so the full-resolution HDR target
// is read once and never written back.
// The FLAG_* bits are generated from src/output.rs; CompositeParams is
// checked against src/passes/composite.rs by tests/shaders.rs.

// Linear sRGB (Rec. 709 primaries, D65) to linear Display P3 (D65). Content
// is authored in sRGB primaries; a 'display-p3' canvas reads P3 values, so
// without this the same numbers would show oversaturated.
const SRGB_TO_P3 = mat3x3f(
    vec3f(0.8224621, 0.0331941, 0.0170827),
    vec3f(0.1775380, 0.9668058, 0.0723974),
    vec3f(0.0000000, 0.0000000, 0.9105199),
);

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
// the picture.
override DEBUG: u32 = 0u;
// GRADE: white balance, contrast and saturation (a `grading` option is away
// from its default); VIGNETTE: the vignette (its intensity is above 0).
// Off, they cost nothing.
override GRADE: bool = false;
override VIGNETTE: bool = false;
// LUT: a 3D lookup table is set and grading.lutIntensity is above 0;
// DIRT: a lens dirt texture is set, bloom.dirtIntensity is above 0 and
// there is bloom.
override LUT: bool = false;
override DIRT: bool = false;

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
    // Grading: white balance on linear sRGB, saturation, contrast.
    white_balance: mat3x3f,
    saturation: f32,
    contrast: f32,
    // Vignette, and the output's width over its height.
    vignette_intensity: f32,
    vignette_radius: f32,
    vignette_smoothness: f32,
    aspect: f32,
    lut_intensity: f32,
    dirt_intensity: f32,
    // Display value to table coordinate in [0, 1] (the domain), and the
    // table's last index.
    lut_scale: vec3f,
    lut_last: f32,
    lut_offset: vec3f,
    _pad1: f32,
    // Frame to dirt texture coordinates around the centre: the dirt
    // covers the frame, cropped to its aspect ratio.
    dirt_scale: vec2f,
    _pad2: vec2f,
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
@group(0) @binding(6) var lut: texture_3d<f32>;
@group(0) @binding(7) var dirt: texture_2d<f32>;

// The 3D table at a display-encoded colour, by tetrahedral interpolation:
// the cell around it is cut into six tetrahedra along its grey diagonal,
// and the one holding the colour is walked from the cell's low corner
// along the largest fraction's axis, then the next, to the high corner.
// Four texel loads and no branch (src/lut.rs has the same on the CPU).
fn apply_lut(c: vec3f) -> vec3f {
    let p = clamp(c * params.lut_scale + params.lut_offset, vec3f(0.0), vec3f(1.0)) * params.lut_last;
    let base = min(floor(p), vec3f(params.lut_last - 1.0));
    let f = p - base;
    let hi = max(f.x, max(f.y, f.z));
    let lo = min(f.x, min(f.y, f.z));
    // The median, exactly one of the three.
    let mid = max(min(f.x, f.y), min(max(f.x, f.y), f.z));
    let first = select(vec3u(0u), vec3u(1u), f >= vec3f(hi));
    let second = select(vec3u(0u), vec3u(1u), f >= vec3f(mid));
    let b = vec3u(base);
    let c000 = textureLoad(lut, b, 0).rgb;
    let c_first = textureLoad(lut, b + first, 0).rgb;
    let c_second = textureLoad(lut, b + second, 0).rgb;
    let c111 = textureLoad(lut, b + vec3u(1u), 0).rgb;
    return (1.0 - hi) * c000 + (hi - mid) * c_first + (mid - lo) * c_second + lo * c111;
}

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

// Grading in scene-linear light, before the curve: the white balance
// (a chromatic adaptation, made on the CPU), then contrast of luminance in
// log space around mid grey (hue and saturation kept), then saturation
// around the pixel's luminance.
fn grade(c: vec3f) -> vec3f {
    // Bounded so that contrast's pow cannot overflow to inf (and inf * 0
    // to NaN) for extreme float content.
    let rgb = clamp(params.white_balance * c, vec3f(0.0), vec3f(1e12));
    let y = max(dot(rgb, LUMA), 1e-10);
    let graded_y = 0.18 * pow(y / 0.18, params.contrast);
    let contrasted = rgb * (graded_y / y);
    return max(mix(vec3f(graded_y), contrasted, params.saturation), vec3f(0.0));
}

// What the vignette leaves of the light at uv: 1 within `radius` of the
// centre (a fraction of the distance to a corner, measured round on any
// aspect ratio), falling smoothly to 1 - intensity over `smoothness`.
fn vignette(uv: vec2f) -> f32 {
    let scale = vec2f(params.aspect, 1.0);
    let d = length((uv - 0.5) * scale) / length(0.5 * scale);
    let t = clamp((d - params.vignette_radius) / params.vignette_smoothness, 0.0, 1.0);
    return 1.0 - params.vignette_intensity * t * t * (3.0 - 2.0 * t);
}

fn has(flag: u32) -> bool {
    return (FLAGS & flag) != 0u;
}

// Interleaved gradient noise (Jimenez 2014) in [-0.5, 0.5) of one 8-bit step.
fn dither_noise(p: vec2f) -> f32 {
    return (fract(52.9829189 * fract(dot(p, vec2f(0.06711056, 0.00583715)))) - 0.5) / 255.0;
}

@fragment
fn fs_composite(in: FullscreenOut) -> @location(0) vec4f {
    // At render scale 1 every output pixel is one HDR texel: load it.
    var scene: vec4f;
    if has(FLAG_ONE_TO_ONE) {
        scene = textureLoad(hdr, vec2i(in.position.xy), 0);
    } else {
        scene = textureSampleLevel(hdr, linear_sampler, in.uv, 0.0);
    }
    scene = finite4(scene);
    // Premultiplied linear radiance.
    var rgb = max(scene.rgb, vec3f(0.0)) * params.exposure;
    var bloom_light = vec3f(0.0);
    if BLOOM {
        if ENERGY {
            // The bloom is the blur of what the extract took from every
            // pixel; take it from this one, so the frame's light is kept.
            var source: vec3f;
            if has(FLAG_ONE_TO_ONE) {
                source = textureLoad(bright_source, vec2i(in.position.xy), 0).rgb;
            } else {
                source = textureSampleLevel(bright_source, linear_sampler, in.uv, 0.0).rgb;
            }
            let x = max(finite3(source), vec3f(0.0)) * params.exposure;
            // (A bloom texture brighter than the scene cannot take it below 0.)
            rgb = max(rgb - params.bloom_subtract * bright_pass(x, params.threshold, params.knee), vec3f(0.0));
        }
        let glow = finite4(textureSampleLevel(bloom, linear_sampler, in.uv * params.bloom_uv, 0.0)).rgb;
        bloom_light = max(glow, vec3f(0.0)) * params.bloom_scale;
        if DIRT {
            // Light scattered by dirt on the lens: only where there is bloom.
            let at = (in.uv - 0.5) * params.dirt_scale + 0.5;
            let smudge = max(textureSampleLevel(dirt, linear_sampler, at, 0.0).rgb, vec3f(0.0));
            bloom_light *= 1.0 + params.dirt_intensity * smudge;
        }
        rgb += bloom_light;
    }
    if DEBUG == 1u {
        rgb = bloom_light;
    }
    if VIGNETTE {
        rgb *= vignette(in.uv);
    }
    if GRADE {
        rgb = grade(rgb);
    }
    rgb = tonemap(rgb, TONEMAPPER, params.headroom);
    // On an opaque SDR output that encodes in the shader (to dither, or
    // with no -srgb view) and has nothing after the table (no Display P3
    // conversion, no overlay), the output takes the table's result still
    // encoded, instead of decoding it only to encode it again. Known when
    // the pipeline is made, so no pixel pays for both ways.
    let lut_encoded = LUT && !has(FLAG_EXTENDED) && !has(FLAG_DISPLAY_P3)
        && !has(FLAG_PREMULTIPLIED) && DEBUG != 2u
        && (has(FLAG_DITHER) || has(FLAG_SHADER_ENCODES));
    var looked = vec3f(0.0);
    if LUT {
        // In display space, where the tables of grading tools live: the
        // sRGB-encoded [0, 1] part of the colour goes through the table,
        // mixed in by lutIntensity. On an HDR output what lies beyond
        // (highlights above SDR white) is kept on top; an SDR output would
        // clip it, so there it takes the table's white.
        let display = clamp(rgb, vec3f(0.0), vec3f(1.0));
        let encoded = srgb_encode(display);
        looked = clamp(mix(encoded, apply_lut(encoded), params.lut_intensity), vec3f(0.0), vec3f(1.0));
        if !lut_encoded {
            rgb = srgb_decode(looked) + select(vec3f(0.0), rgb - display, has(FLAG_EXTENDED));
        }
    }
    if DEBUG == 2u {
        rgb = exposure_overlay(rgb, in.uv);
    }
    if has(FLAG_DISPLAY_P3) {
        rgb = SRGB_TO_P3 * rgb;
    }
    if !has(FLAG_EXTENDED) {
        rgb = clamp(rgb, vec3f(0.0), vec3f(1.0));
    }
    let dither = has(FLAG_DITHER);

    if !has(FLAG_PREMULTIPLIED) {
        // Opaque canvas: the content over black, alpha exactly 1. Without
        // dither through an -srgb view, the hardware does all the encoding.
        if !dither && !has(FLAG_SHADER_ENCODES) {
            return vec4f(rgb, 1.0);
        }
        var encoded: vec3f;
        if lut_encoded {
            encoded = looked;
        } else {
            encoded = srgb_encode(rgb);
        }
        if dither {
            encoded = clamp(encoded + dither_noise(in.position.xy), vec3f(0.0), vec3f(1.0));
        }
        return vec4f(select(srgb_decode(encoded), encoded, has(FLAG_SHADER_ENCODES)), 1.0);
    }

    // Premultiplied canvas. The compositor blends encoded values, so the
    // stored colour must be encode(straight) * alpha, which keeps rgb <= alpha.
    // Light with no coverage (bloom over a transparent page) raises alpha to
    // its brightest channel: a glow, never a dark halo.
    let alpha = clamp(max(scene.a, max(rgb.r, max(rgb.g, rgb.b))), 0.0, 1.0);
    if alpha <= 0.0 {
        return vec4f(0.0);
    }
    var straight = srgb_encode(rgb / alpha);
    if dither {
        straight = clamp(straight + dither_noise(in.position.xy), vec3f(0.0), vec3f(1.0));
    }
    let encoded = straight * alpha;
    if has(FLAG_SHADER_ENCODES) {
        return vec4f(encoded, alpha);
    }
    // The -srgb view will encode what we write: hand it the linear value
    // whose encoding is the premultiplied encoded colour.
    return vec4f(srgb_decode(encoded), alpha);
}
