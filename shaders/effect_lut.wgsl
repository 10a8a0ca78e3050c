// The 3D lookup table (src/effects/lookup_table.rs), in display space
// where the tables of grading tools live: the sRGB-encoded colour goes
// through the table, mixed in by grading.lutIntensity.

struct LutParams {
    // Display value to table coordinate in [0, 1] (the domain), and the
    // table's last index.
    scale: vec3f,
    last: f32,
    offset: vec3f,
    intensity: f32,
}

// The table at an encoded colour, by tetrahedral interpolation: the cell
// around it is cut into six tetrahedra along its grey diagonal, and the one
// holding the colour is walked from the cell's low corner along the largest
// fraction's axis, then the next, to the high corner. Four texel loads and
// no branch (src/lut.rs has the same on the CPU).
fn lut_lookup(c: vec3f) -> vec3f {
    let last = fx_lut_params.last;
    let p = clamp(c * fx_lut_params.scale + fx_lut_params.offset, vec3f(0.0), vec3f(1.0)) * last;
    let base = min(floor(p), vec3f(last - 1.0));
    let f = p - base;
    let hi = max(f.x, max(f.y, f.z));
    let lo = min(f.x, min(f.y, f.z));
    // The median, exactly one of the three.
    let mid = max(min(f.x, f.y), min(max(f.x, f.y), f.z));
    let first = select(vec3u(0u), vec3u(1u), f >= vec3f(hi));
    let second = select(vec3u(0u), vec3u(1u), f >= vec3f(mid));
    let b = vec3u(base);
    let c000 = textureLoad(fx_lut_table, b, 0).rgb;
    let c_first = textureLoad(fx_lut_table, b + first, 0).rgb;
    let c_second = textureLoad(fx_lut_table, b + second, 0).rgb;
    let c111 = textureLoad(fx_lut_table, b + vec3u(1u), 0).rgb;
    return (1.0 - hi) * c000 + (hi - mid) * c_first + (mid - lo) * c_second + lo * c111;
}

fn fx_lut(color: vec4f, uv: vec2f) -> vec4f {
    return vec4f(mix(color.rgb, lut_lookup(color.rgb), fx_lut_params.intensity), color.a);
}
