// In scope for every effect fused into the composite (built-in ones and
// those given to addEffect): the time in seconds, the output's size in
// pixels, and a linear, clamping sampler. Bound only while an effect runs.

struct EffectFrame {
    time: f32,
    _pad: f32,
    resolution: vec2f,
}

@group(0) @binding(6) var<uniform> effect_frame: EffectFrame;
@group(0) @binding(7) var effect_sampler: sampler;

fn time() -> f32 {
    return effect_frame.time;
}

fn resolution() -> vec2f {
    return effect_frame.resolution;
}
