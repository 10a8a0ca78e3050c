// Depth of field: the blur of a thin-lens camera, from the scene's depth.
// Five passes (src/passes/depth_of_field.rs), each run as compute, an
// invocation per pixel of the image it writes (fx_dof_out, or
// fx_dof_tiles_out), each its function here:
//   cs_dof_prepare  full -> half resolution: colour and the signed circle of
//                   confusion (CoC) of each 2x2 box
//   cs_dof_tiles    half -> tiles: the largest near-field CoC of each tile
//   cs_dof_near     half: the near field (in front of the focus), gathered
//                   as if each texel scattered its disc: colour and
//                   coverage, reaching as far as the largest near CoC of
//                   the tiles around (nothing to gather: no taps)
//   cs_dof_far      half: the far field (behind the focus), each texel's
//                   own disc of neighbours that reach it
//   cs_dof_combine  full: near over (far or sharp), by each pixel's own CoC
// or, for debug: 'coc', cs_dof_coc alone.
//
// The CoC is the thin lens's (as Bevy's depth of field computes it): a point
// at distance z, with the lens of focal length f and f-number N focused at
// s, images as a disc of diameter f^2 |z - s| / (N z (s - f)) on the
// sensor; over the sensor's height and times the image's height in pixels
// that is K (1 - s / z) pixels with K = f^2 H / (N (s - f) h) computed on
// the CPU. Negative: in front of the focus (the near field).
//
// The near and far fields are gathered apart, so that an object in focus
// keeps its edge against a blurred background (the far gather takes no
// texel whose own disc does not reach it: a sharp texel reaches nothing
// but itself) and a blurred foreground spreads over what is behind it (the
// near gather is a scatter written as a gather: each near texel gives its
// light spread over its disc, so the near layer's coverage reaches past the
// object's silhouette). Both sample rings of taps spaced evenly in radius,
// 8k taps on ring k, so every tap stands for the same area; a flat disc of
// weights makes a bright point a bokeh disc. (After Jimenez, "Next
// Generation Post Processing in Call of Duty: Advanced Warfare",
// SIGGRAPH 2014, and Sousa, "Graphics Gems from CryENGINE 3", 2013.)
//
// `distance_at(p)` (the distance along the view direction at a
// full-resolution texel) comes from dof_depth_buffer.wgsl,
// dof_depth_multisampled.wgsl or dof_depth_linear.wgsl, by the depth
// texture's kind.

struct DofParams {
    // The camera's clip planes, for a depth buffer.
    near: f32,
    far: f32,
    // Distance in focus, and K (above) in full-resolution pixels.
    focus: f32,
    lens: f32,
    // The largest CoC, a diameter in full-resolution pixels.
    max_coc: f32,
    _pad0: u32,
    // 1: an orthographic camera (a depth buffer's reading).
    orthographic: u32,
    // 1: the depth buffer holds 1 at the near plane.
    reversed: u32,
    // Half-resolution texels per tile side: at least the near gather's
    // reach, so the 3x3 tiles around a texel see every near texel whose
    // disc can reach it.
    tile: u32,
    _pad1: u32,
    _pad2: u32,
    _pad3: u32,
}

@group(0) @binding(0) var hdr_image: texture_2d<f32>;
@group(0) @binding(2) var<uniform> dof: DofParams;
@group(0) @binding(3) var near_layer: texture_2d<f32>;
@group(0) @binding(4) var far_layer: texture_2d<f32>;
@group(0) @binding(5) var layer_sampler: sampler;
@group(0) @binding(6) var half_image: texture_2d<f32>;
@group(0) @binding(7) var near_tiles: texture_2d<f32>;
// What a pass writes, declared by Rust (group 1): fx_dof_out, a
// half-resolution layer or the next HDR image, or fx_dof_tiles_out, the
// tiles. Each pass's entry point (cs_dof_*, generated) stores its function
// (fx_dof_*) at every pixel of one of them.

// Rings of taps around the centre of a gather (1 + 4 RINGS (RINGS + 1)
// taps), set from the frame's largest CoC so that taps stay about 1.5
// half-resolution pixels apart (up to 16 rings: rings() in
// depth_of_field.rs).
override RINGS: u32 = 3u;

// The smallest near-field radius gathered, in half-resolution pixels (a
// CoC of 2 full-resolution pixels): below it the pixel is as good as sharp.
const NEAR_MIN: f32 = 0.5;

// Distance along the view direction of a raw depth value.
fn view_distance(raw: f32) -> f32 {
    let span = dof.far - dof.near;
    if dof.orthographic == 1u {
        return select(dof.near + raw * span, dof.far - raw * span, dof.reversed == 1u);
    }
    // Perspective: a standard buffer holds far (z - near) / (z (far - near));
    // a reversed one near (far - z) / (z (far - near)). Each solved for z
    // from its own value, so the reversed one keeps its precision far away.
    if dof.reversed == 1u {
        return dof.near * dof.far / (dof.near + raw * span);
    }
    return dof.near * dof.far / (dof.far - raw * span);
}

// The signed CoC diameter in full-resolution pixels of a distance `z`.
// At the lens or behind it (0 or less: an orthographic camera's near
// plane may lie there) the thin lens's CoC has gone to minus infinity:
// the nearest field. Nothing there (NaN, or 3.0e38 and beyond: what
// distance_at gives where no geometry is) is as far as can be: K.
fn coc_of(z: f32) -> f32 {
    var c = dof.lens;
    if z <= 0.0 {
        c = -dof.max_coc;
    } else if z < 3.0e38 {
        c = dof.lens * (1.0 - dof.focus / z);
    }
    return clamp(c, -dof.max_coc, dof.max_coc);
}

// Full resolution to half: the box's colour and its nearest CoC (as a
// radius in half-resolution pixels), the colour averaged over the texels
// of that nearest layer only, so that a box on a silhouette gives the
// near field the near object's colour, not the background's.
fn fx_dof_prepare(in: FullscreenOut) -> vec4f {
    let last = vec2i(textureDimensions(hdr_image)) - 1;
    let base = vec2i(in.position.xy) * 2;
    var colours: array<vec3f, 4>;
    var cocs: array<f32, 4>;
    var nearest = 3.0e38;
    for (var i = 0; i < 4; i++) {
        let p = min(base + vec2i(i & 1, i >> 1u), last);
        colours[i] = finite4(textureLoad(hdr_image, p, 0)).rgb;
        cocs[i] = coc_of(distance_at(p));
        nearest = min(nearest, cocs[i]);
    }
    var sum = vec3f(0.0);
    var count = 0.0;
    for (var i = 0; i < 4; i++) {
        let w = select(0.0, 1.0, cocs[i] <= nearest + 1.0 + 0.25 * abs(nearest));
        sum += colours[i] * w;
        count += w;
    }
    return vec4f(sum / count, nearest * 0.25);
}

// Tap `j` of ring `ring`, in units of the ring spacing; odd rings turned
// by half a tap so that rings do not line up.
fn tap(ring: u32, j: u32) -> vec2f {
    let angle = (f32(j) + 0.5 * f32(ring & 1u)) * 6.28318530718 / f32(8u * ring);
    return f32(ring) * vec2f(cos(angle), sin(angle));
}

// The half-resolution texel at `centre + offset`, clamped to the image.
fn half_at(centre: vec2i, offset: vec2f) -> vec4f {
    let last = vec2i(textureDimensions(half_image)) - 1;
    return textureLoad(half_image, clamp(centre + vec2i(round(offset)), vec2i(0), last), 0);
}

// What a near texel `s` at `distance` gives the pixel: its light and
// coverage spread over its disc (the tap stands for `area` / pi, and the
// disc covers r^2: pi cancels).
fn near_share(s: vec4f, distance: f32, area: f32) -> vec4f {
    let r = -s.a;
    if r < NEAR_MIN {
        return vec4f(0.0);
    }
    let w = clamp(r - distance + 0.5, 0.0, 1.0) * min(area / (r * r), 1.0);
    return vec4f(s.rgb * w, w);
}

// The largest near-field radius of the tile's texels (0: none).
fn fx_dof_tiles(in: FullscreenOut) -> vec4f {
    let last = vec2i(textureDimensions(half_image)) - 1;
    let side = i32(dof.tile);
    let first = vec2i(in.position.xy) * side;
    var reach = 0.0;
    for (var y = 0; y < side; y++) {
        for (var x = 0; x < side; x++) {
            let s = textureLoad(half_image, min(first + vec2i(x, y), last), 0);
            reach = max(reach, -s.a);
        }
    }
    return vec4f(reach, 0.0, 0.0, 1.0);
}

// How far the near field reaches here: the largest near radius of the
// 3x3 tiles around.
fn near_reach(centre: vec2i) -> f32 {
    let last = vec2i(textureDimensions(near_tiles)) - 1;
    let tile = centre / i32(dof.tile);
    var reach = 0.0;
    for (var y = -1; y <= 1; y++) {
        for (var x = -1; x <= 1; x++) {
            let t = clamp(tile + vec2i(x, y), vec2i(0), last);
            reach = max(reach, textureLoad(near_tiles, t, 0).r);
        }
    }
    return reach;
}

// The near field: premultiplied light and coverage of the discs of near
// texels that reach this pixel. The taps spread over the reach, so they
// are as dense as the near field's largest disc allows.
fn fx_dof_near(in: FullscreenOut) -> vec4f {
    let centre = vec2i(in.position.xy);
    let reach = near_reach(centre);
    if reach < NEAR_MIN {
        return vec4f(0.0);
    }
    let spacing = (reach + 0.5) / (f32(RINGS) + 0.5);
    let area = 0.25 * spacing * spacing;
    var sum = near_share(half_at(centre, vec2f(0.0)), 0.0, area);
    for (var ring = 1u; ring <= RINGS; ring++) {
        for (var j = 0u; j < 8u * ring; j++) {
            let offset = tap(ring, j) * spacing;
            sum += near_share(half_at(centre, offset), length(offset), area);
        }
    }
    // Discs overlapping past full coverage: their average light.
    if sum.a > 1.0 {
        sum /= sum.a;
    }
    return sum;
}

// The far field: the average of the texels within this texel's own CoC
// whose own disc reaches it (never the near field, never a sharper texel
// farther than its own radius).
fn fx_dof_far(in: FullscreenOut) -> vec4f {
    let centre = vec2i(in.position.xy);
    let own = half_at(centre, vec2f(0.0));
    let radius = own.a;
    if radius < 0.25 {
        return vec4f(own.rgb, 1.0);
    }
    let spacing = radius / f32(RINGS);
    var sum = vec4f(own.rgb, 1.0);
    for (var ring = 1u; ring <= RINGS; ring++) {
        for (var j = 0u; j < 8u * ring; j++) {
            let offset = tap(ring, j) * spacing;
            let s = half_at(centre, offset);
            let w = select(0.0, clamp(s.a - length(offset) + 0.5, 0.0, 1.0), s.a >= 0.0);
            sum += vec4f(s.rgb * w, w);
        }
    }
    return vec4f(sum.rgb / sum.a, 1.0);
}

// Back to full resolution: each pixel by its own CoC, so a pixel in focus
// is the sharp image's own, the far field shows behind, and the near
// field's coverage lies over both.
fn fx_dof_combine(in: FullscreenOut) -> vec4f {
    let p = vec2i(in.position.xy);
    let sharp = finite4(textureLoad(hdr_image, p, 0));
    let coc = coc_of(distance_at(p));
    let uv = in.position.xy / (2.0 * vec2f(textureDimensions(near_layer)));
    let near = textureSampleLevel(near_layer, layer_sampler, uv, 0.0);
    let far = textureSampleLevel(far_layer, layer_sampler, uv, 0.0);
    // From a CoC of 1 pixel (sharp) to 3 (the half-resolution layers' own
    // softness).
    let behind = mix(sharp.rgb, far.rgb, clamp((coc - 1.0) * 0.5, 0.0, 1.0));
    let cover = max(near.a, clamp((-coc - 1.0) * 0.5, 0.0, 1.0));
    var front = behind;
    if near.a > 1.0e-4 {
        front = near.rgb / near.a;
    }
    return vec4f(mix(behind, front, cover), sharp.a);
}

// debug: 'coc': the signed CoC as display values, red for the near field
// and blue for the far, |CoC| over the largest; green where it is under a
// pixel. The composite shows it as it is.
fn fx_dof_coc(in: FullscreenOut) -> vec4f {
    let coc = coc_of(distance_at(vec2i(in.position.xy)));
    let scale = 1.0 / max(dof.max_coc, 1.0e-6);
    let focus = clamp(1.0 - abs(coc), 0.0, 1.0) * 0.35;
    return vec4f(max(-coc, 0.0) * scale, focus, max(coc, 0.0) * scale, 1.0);
}
