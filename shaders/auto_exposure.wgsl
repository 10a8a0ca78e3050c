// Auto exposure, in two compute passes, all in GPU memory.
//
// 1. histogram: every `stride`-th texel of the HDR image (the centre of
//    each stride x stride block) adds its weight to the bin of its log2
//    luminance, 64 bins from LOG_MIN to LOG_MAX (half an EV each), and its
//    position within the bin to the bin's sum, so the metered average is
//    exact for the pixels it keeps, not rounded to bins. Texels darker than
//    LOG_MIN (black) are not counted. Workgroup-local bins first, one
//    global atomic per bin and workgroup after.
// 2. meter: one workgroup of 64. Averages the log luminance of the weight
//    between the positions `low_percentile` and `high_percentile` of the
//    histogram (fractions of the weight from the darkest), aims it at mid grey (0.18) plus `compensation`, clamps
//    the target to [min_ev, max_ev], moves the exposure in use towards it
//    at `speed_brighten` or `speed_darken` EV per second (slowing within
//    half an EV of it, so it settles without overshooting), and clears
//    the bins for the next frame.
//
// The idea (a log-luminance histogram metered between two percentiles,
// with separate speeds up and down) is the one of Bevy's auto exposure
// and Unreal's eye adaptation.

const BINS: u32 = 64u;
const LOG_MIN: f32 = -16.0;
const LOG_MAX: f32 = 16.0;
// Fixed-point steps of a texel's position within its bin.
const FRACTION_STEPS: f32 = 256.0;

struct AutoExposureParams {
    min_ev: f32,
    max_ev: f32,
    compensation: f32,
    speed_brighten: f32,
    speed_darken: f32,
    low_percentile: f32,
    high_percentile: f32,
    // The manual `exposure`, multiplied on top.
    exposure: f32,
    // Seconds since the last frame, clamped.
    dt: f32,
    // 1: jump to the target (first frame, a camera cut).
    reset: u32,
    // 1: centre-weighted metering.
    center: u32,
    stride: u32,
}

struct ExposureState {
    // The exposure in use, in EV (log2 of the automatic multiplier).
    ev: f32,
    // What the frame multiplies radiance by: 2^ev times `exposure`.
    multiplier: f32,
    // 1 once a frame has been metered.
    metered: u32,
    _pad0: u32,
}

struct Histogram {
    weight: array<atomic<u32>, 64>,
    fraction: array<atomic<u32>, 64>,
}

@group(0) @binding(0) var hdr: texture_2d<f32>;
@group(0) @binding(1) var<storage, read_write> histogram: Histogram;
@group(0) @binding(2) var<storage, read_write> state: ExposureState;
@group(0) @binding(3) var<uniform> params: AutoExposureParams;

// What `debug: 'exposure'` draws (the composite copies it into its
// `ExposureView` uniform): the bins scaled to the fullest, and the metered
// range, the metered average (both in bins) and the exposure in use.
struct ExposureView {
    bins: array<vec4f, 16>,
    // (first bin kept, last bin kept, average, ev)
    meter: vec4f,
}
@group(0) @binding(4) var<storage, read_write> view: ExposureView;

var<workgroup> local_weight: array<atomic<u32>, 64>;
var<workgroup> local_fraction: array<atomic<u32>, 64>;

// Samples per invocation and axis: a workgroup of 8x8 meters 64x64
// samples. Fewer, longer invocations: a software rasterizer (SwiftShader)
// pays for each invocation of a shader with barriers far more than for a
// loop iteration.
const BLOCK: u32 = 8u;

@compute @workgroup_size(8, 8)
fn cs_histogram(
    @builtin(global_invocation_id) id: vec3u,
    @builtin(local_invocation_index) index: u32,
) {
    atomicStore(&local_weight[index], 0u);
    atomicStore(&local_fraction[index], 0u);
    workgroupBarrier();
    for (var j = 0u; j < BLOCK; j++) {
        for (var i = 0u; i < BLOCK; i++) {
            count_sample(id.xy * BLOCK + vec2u(i, j));
        }
    }
    workgroupBarrier();
    let w = atomicLoad(&local_weight[index]);
    if w > 0u {
        atomicAdd(&histogram.weight[index], w);
        atomicAdd(&histogram.fraction[index], atomicLoad(&local_fraction[index]));
    }
}

// Adds the sample at `sample` (in samples: every `stride`-th texel) to the
// workgroup's bins.
fn count_sample(sample: vec2u) {
    let size = textureDimensions(hdr);
    let texel = sample * params.stride + params.stride / 2u;
    if all(texel < size) {
        let c = max(finite3(textureLoad(hdr, texel, 0).rgb), vec3f(0.0));
        let luminance = dot(c, vec3f(0.2126, 0.7152, 0.0722));
        let l = log2(max(luminance, 1e-30));
        if l >= LOG_MIN {
            let position = (min(l, LOG_MAX - 1e-4) - LOG_MIN) / (LOG_MAX - LOG_MIN) * f32(BINS);
            let bin = min(u32(position), BINS - 1u);
            var weight = 1u;
            if params.center == 1u {
                // 4 at the centre down to 1 at the corners.
                let d = (vec2f(texel) + 0.5) / vec2f(size) - 0.5;
                weight = 1u + u32(round(3.0 * max(1.0 - 2.0 * dot(d, d), 0.0)));
            }
            let fraction = u32(fract(position) * FRACTION_STEPS);
            atomicAdd(&local_weight[bin], weight);
            atomicAdd(&local_fraction[bin], weight * fraction);
        }
    }
}

var<workgroup> bins: array<vec2f, 64>;

@compute @workgroup_size(64)
fn cs_meter(@builtin(local_invocation_index) index: u32) {
    bins[index] = vec2f(
        f32(atomicLoad(&histogram.weight[index])),
        f32(atomicLoad(&histogram.fraction[index])),
    );
    atomicStore(&histogram.weight[index], 0u);
    atomicStore(&histogram.fraction[index], 0u);
    workgroupBarrier();
    if index != 0u {
        return;
    }
    var total = 0.0;
    for (var i = 0u; i < BINS; i++) {
        total += bins[i].x;
    }
    var ev = state.ev;
    var fullest = 1.0;
    for (var i = 0u; i < BINS; i++) {
        fullest = max(fullest, bins[i].x);
    }
    for (var i = 0u; i < BINS; i++) {
        view.bins[i / 4u][i % 4u] = bins[i].x / fullest;
    }
    view.meter = vec4f(0.0);
    if total > 0.0 {
        // The weight between the two percentiles, and its log luminance.
        let low = total * params.low_percentile;
        let high = total * params.high_percentile;
        let width = (LOG_MAX - LOG_MIN) / f32(BINS);
        var seen = 0.0;
        var kept = 0.0;
        var sum = 0.0;
        var first = -1.0;
        var last = 0.0;
        for (var i = 0u; i < BINS; i++) {
            let w = bins[i].x;
            if w > 0.0 {
                let take = max(min(seen + w, high) - max(seen, low), 0.0);
                if take > 0.0 {
                    first = select(first, f32(i), first < 0.0);
                    last = f32(i);
                }
                let mean = LOG_MIN + (f32(i) + bins[i].y / (w * FRACTION_STEPS)) * width;
                sum += take * mean;
                kept += take;
            }
            seen += w;
        }
        if kept > 0.0 {
            let average = sum / kept;
            view.meter = vec4f(first, last, (average - LOG_MIN) / width, 0.0);
            let target_ev = clamp(log2(0.18) + params.compensation - average, params.min_ev, params.max_ev);
            if params.reset == 1u || state.metered == 0u {
                ev = target_ev;
            } else {
                let diff = target_ev - ev;
                let speed = select(params.speed_darken, params.speed_brighten, diff > 0.0);
                // Full speed far from the target, proportional within half
                // an EV of it: a smooth landing, never past it.
                let rate = speed * min(abs(diff) / 0.5, 1.0);
                ev += sign(diff) * min(abs(diff), rate * params.dt);
            }
            state.metered = 1u;
        }
    }
    ev = clamp(ev, params.min_ev, params.max_ev);
    state.ev = ev;
    state.multiplier = exp2(ev) * params.exposure;
    view.meter.w = ev;
}
