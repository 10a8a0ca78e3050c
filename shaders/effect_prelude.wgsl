// In scope for every effect fused into the composite (built-in ones and
// those given to addEffect): the time in seconds, the output's size in
// pixels, and a linear, clamping sampler (`texel()` is generated with the
// effects: an effect may declare its own).
// Bound only while an effect runs; `effect_frame` and `effect_sampler`
// are declared with the effects' bindings (`shared_bindings` in
// src/effect.rs).

struct EffectFrame {
    time: f32,
    _pad: f32,
    resolution: vec2f,
}

fn time() -> f32 {
    return effect_frame.time;
}

fn resolution() -> vec2f {
    return effect_frame.resolution;
}
