// Scene content, drawn into the HDR target (through the MSAA attachment
// when msaa is 4). Writes premultiplied linear radiance.
//
// - vs_scene/fs_scene: the demo scene, instanced emissive cubes generated
//   from vertex_index and instance_index (no vertex buffers), depth-tested.
// - vs_fullscreen with fs_image: an uploaded image, fitted.
// Test content lives in fixtures.wgsl.
//
// SceneParams and its binding come from scene_params.wgsl.

// Image content: an sRGB texture (sampling decodes to linear), fitted.
@group(1) @binding(1) var image: texture_2d<f32>;
@group(1) @binding(2) var image_sampler: sampler;

fn hash(n: u32) -> f32 {
    var x = n * 747796405u + 2891336453u;
    x = ((x >> ((x >> 28u) + 4u)) ^ x) * 277803737u;
    x = (x >> 22u) ^ x;
    return f32(x) / 4294967295.0;
}

fn rotate_y(a: f32) -> mat3x3f {
    let c = cos(a);
    let s = sin(a);
    return mat3x3f(vec3f(c, 0.0, -s), vec3f(0.0, 1.0, 0.0), vec3f(s, 0.0, c));
}

fn rotate_x(a: f32) -> mat3x3f {
    let c = cos(a);
    let s = sin(a);
    return mat3x3f(vec3f(1.0, 0.0, 0.0), vec3f(0.0, c, s), vec3f(0.0, -s, c));
}

// Perspective projection of a view-space point (camera looking down -z).
fn project(p: vec3f) -> vec4f {
    let f = 1.0 / tan(radians(45.0) * 0.5);
    let near = 0.1;
    let far = 100.0;
    let z = p.z * far / (near - far) + near * far / (near - far);
    return vec4f(p.x * f / params.aspect, p.y * f, z, -p.z);
}

struct SceneOut {
    @builtin(position) position: vec4f,
    @location(0) @interpolate(flat) radiance: vec3f,
    @location(1) @interpolate(flat) normal: vec3f,
}

// The 36 corners of a unit cube, two triangles per face.
fn cube_corner(i: u32) -> vec3f {
    let face = i / 6u;
    let corner = array<vec2f, 6>(
        vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0),
        vec2f(-1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0),
    )[i % 6u];
    let axis = face / 2u;
    let side = select(-1.0, 1.0, face % 2u == 0u);
    // Winding flips with the side so every face is front-facing outward.
    let uv = vec2f(corner.x * side, corner.y);
    if axis == 0u {
        return vec3f(side, uv.y, -uv.x);
    } else if axis == 1u {
        return vec3f(uv.x, side, -uv.y);
    }
    return vec3f(uv.x, uv.y, side);
}

fn cube_normal(i: u32) -> vec3f {
    let face = i / 6u;
    let side = select(-1.0, 1.0, face % 2u == 0u);
    let axis = face / 2u;
    return vec3f(
        select(0.0, side, axis == 0u),
        select(0.0, side, axis == 1u),
        select(0.0, side, axis == 2u),
    );
}

@vertex
fn vs_scene(@builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32) -> SceneOut {
    let t = params.time;
    let h0 = hash(ii * 4u);
    let h1 = hash(ii * 4u + 1u);
    let h2 = hash(ii * 4u + 2u);
    let h3 = hash(ii * 4u + 3u);
    // A slowly turning spiral of cubes around the origin.
    let n = f32(params.instances);
    let k = f32(ii) / n;
    let angle = k * 6.2832 * 3.0 + t * (0.15 + 0.1 * h0);
    let radius = 1.2 + 3.4 * k;
    let center = vec3f(cos(angle) * radius, (h1 - 0.5) * 2.6 + sin(t * 0.7 + h2 * 6.0) * 0.3, sin(angle) * radius);
    let size = 0.1 + 0.2 * h3;
    let spin = rotate_y(t * (0.5 + h2) + h0 * 6.0) * rotate_x(t * (0.3 + h1) + h3 * 6.0);
    let world = center + spin * (cube_corner(vi) * size);
    let normal = spin * cube_normal(vi);
    // Camera orbiting slowly, looking at the origin from above.
    let cam = rotate_x(0.35) * rotate_y(-t * 0.1);
    let view = cam * world - vec3f(0.0, 0.0, 9.0);
    var out: SceneOut;
    out.position = project(view);
    // Emission from 0.1 to 40: most cubes dim, a few blinding.
    let emission = 0.1 * pow(400.0, pow(h0, 2.5));
    let hue = vec3f(0.5) + 0.5 * cos(6.2832 * (vec3f(0.0, 0.33, 0.67) + h1));
    out.radiance = hue * emission;
    out.normal = cam * normal;
    return out;
}

@fragment
fn fs_scene(in: SceneOut) -> @location(0) vec4f {
    let light = normalize(vec3f(0.4, 0.8, 0.6));
    let shade = 0.35 + 0.65 * max(dot(in.normal, light), 0.0);
    return vec4f(in.radiance * shade, 1.0);
}

// A texel of the image, decoded to linear by the sRGB texture and
// premultiplied. Filtering premultiplied values keeps a transparent texel's
// colour from bleeding into its opaque neighbours (dark fringes).
fn image_texel(i: vec2f, last: vec2i) -> vec4f {
    let c = textureLoad(image, clamp(vec2i(i), vec2i(0), last), 0);
    return vec4f(c.rgb * c.a, c.a);
}

// An image fitted inside the target (contain), straight alpha in the
// texture, premultiplied before a bilinear filter, scaled by the gain.
@fragment
fn fs_image(in: FullscreenOut) -> @location(0) vec4f {
    let ratio = params.image_aspect / params.aspect;
    // Scale of the image in uv: full width and shorter, or full height and narrower.
    let scale = select(vec2f(ratio, 1.0), vec2f(1.0, 1.0 / ratio), ratio > 1.0);
    let uv = (in.uv - 0.5) / scale + 0.5;
    if any(uv < vec2f(0.0)) || any(uv > vec2f(1.0)) {
        return vec4f(0.0);
    }
    let dims = vec2f(textureDimensions(image));
    let last = vec2i(dims) - 1;
    let p = uv * dims - 0.5;
    let i = floor(p);
    let f = p - i;
    let top = mix(image_texel(i, last), image_texel(i + vec2f(1.0, 0.0), last), f.x);
    let bottom = mix(image_texel(i + vec2f(0.0, 1.0), last), image_texel(i + 1.0, last), f.x);
    let c = mix(top, bottom, f.y);
    return vec4f(c.rgb * params.gain, c.a);
}
