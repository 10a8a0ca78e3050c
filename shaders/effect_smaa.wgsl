// SMAA 1x, pass 4 of 4: neighbourhood blending (Jimenez et al. 2012),
// fused into the composite. Mixes each pixel with at most one neighbour
// on each side of its strongest edge, as the weights of pass 2 say, with
// one bilinear fetch per side. Linear values and coverage are blended
// alike (premultiplied, so that is right for both).
// In scope, declared by Rust: fx_input (the display image), smaa_weights
// (pass 2's output, the same size), effect_sampler (linear, clamped).

fn fx_smaa(uv: vec2f) -> vec4f {
    let texel = 1.0 / vec2f(textureDimensions(fx_input));
    // Weights of the four edges around the pixel: the right neighbour's
    // left edge (its a), the bottom neighbour's top edge (its g), this
    // pixel's top (r) and left (b) edges.
    let here = textureSampleLevel(smaa_weights, effect_sampler, uv, 0.0);
    let right = textureSampleLevel(smaa_weights, effect_sampler, uv + vec2f(texel.x, 0.0), 0.0).a;
    let bottom = textureSampleLevel(smaa_weights, effect_sampler, uv + vec2f(0.0, texel.y), 0.0).g;
    let a = vec4f(right, bottom, here.b, here.r);
    if dot(a, vec4f(1.0)) < 1e-5 {
        return textureSampleLevel(fx_input, effect_sampler, uv, 0.0);
    }
    // Blend along one axis only: the one with the larger weight. Each
    // fetch lands between the pixel and a neighbour, as far towards the
    // neighbour as its weight (bilinear filtering does the mix), and the
    // two are averaged in proportion.
    let horizontal = max(a.x, a.z) > max(a.y, a.w);
    let reach = select(a.yw, a.xz, horizontal);
    let axis = select(vec2f(0.0, 1.0), vec2f(1.0, 0.0), horizontal) * texel;
    let ahead = textureSampleLevel(fx_input, effect_sampler, uv + axis * reach.x, 0.0);
    let behind = textureSampleLevel(fx_input, effect_sampler, uv - axis * reach.y, 0.0);
    return (reach.x * ahead + reach.y * behind) / (reach.x + reach.y);
}
