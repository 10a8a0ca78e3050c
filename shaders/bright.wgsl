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

// `x`: finite, non-negative, exposed radiance. `knee`: the knee's width
// (threshold * knee option). 0 well below the threshold, linear well
// above, smooth in between.
fn bright_pass(x: vec3f, threshold: f32, knee: f32) -> vec3f {
    let ceiled = x / (1.0 + max(x.r, max(x.g, x.b)) / CEILING);
    let brightness = max(ceiled.r, max(ceiled.g, ceiled.b));
    var soft = clamp(brightness - threshold + knee, 0.0, 2.0 * knee);
    soft = soft * soft / (4.0 * knee + 1e-5);
    let contribution = max(soft, brightness - threshold) / max(brightness, 1e-5);
    return ceiled * max(contribution, 0.0);
}
