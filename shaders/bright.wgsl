// What of a texel blooms, shared by the bloom extract and the composite's
// energy-conserving mode (which takes back from each pixel what its light
// gave to the bloom): a soft ceiling far above ordinary highlights, then
// the threshold with a quadratic soft knee.

// Relative luminance of linear Rec. 709 / sRGB primaries: where the
// extract's light sits in its box, and the grading's contrast and
// saturation (both parts compose this file).
const LUMA = vec3f(0.2126, 0.7152, 0.0722);

// Where the soft ceiling starts to bite, in scene units after exposure:
// a texel of radiance x contributes x / (1 + x / CEILING), within 3 % of x
// up to 30 and never more than CEILING.
const CEILING: f32 = 1000.0;

// bright_gain's `knee_scale` for a knee of width `knee`: the same for
// every texel, so a loop over many texels computes it once, and divides
// twice per texel rather than six times.
fn knee_scale_of(knee: f32) -> f32 {
    return 1.0 / (4.0 * knee + 1e-5);
}

// What of a texel blooms, as one factor for its three channels (the
// ceiling and the knee scale them alike, so the brightest channel stays
// the brightest). `peak`: the texel's brightest channel, finite,
// non-negative and exposed; `knee`: the knee's width (threshold * knee
// option); `knee_scale`: knee_scale_of(knee).
fn bright_gain(peak: f32, threshold: f32, knee: f32, knee_scale: f32) -> f32 {
    let brightness = peak / (1.0 + peak * (1.0 / CEILING));
    let soft = clamp(brightness - threshold + knee, 0.0, 2.0 * knee);
    // The ceiling keeps brightness / peak of the texel, the knee
    // max(soft, brightness - threshold) / brightness of that: 0 well below
    // the threshold, linear well above, smooth in between.
    // (The soft part is never negative, so neither is the larger one.)
    return max(soft * soft * knee_scale, brightness - threshold) / max(peak, 1e-5);
}

// `x`: finite, non-negative, exposed radiance. `knee`: the knee's width
// (threshold * knee option).
fn bright_pass(x: vec3f, threshold: f32, knee: f32) -> vec3f {
    let peak = max(x.r, max(x.g, x.b));
    return x * bright_gain(peak, threshold, knee, knee_scale_of(knee));
}
