//! A small, very bright dot (radius 0.8 px) moving across black by
//! sub-pixel steps: it lights 1 to 4 pixels depending on where it falls.
//! An energy-conserving, shift-invariant bloom's halo follows the number
//! of lit pixels; these helpers measure how closely it does.

/// Size of the frame the dot is rendered in.
pub const DOT_SIZE: (u32, u32) = (320, 180);
/// Frames of the moving dot.
pub const DOT_FRAMES: u32 = 24;
const RADIUS: f32 = 0.8;

/// Centre of the dot in frame `i`, in pixels.
pub fn dot_center(i: u32) -> (f32, f32) {
    (160.0 + 0.37 * i as f32, 90.0 + 0.23 * i as f32)
}

/// A scene shader drawing the dot of `radiance` at `dot_center(time)`.
pub fn dot_shader(radiance: f32) -> String {
    let (x, y) = dot_center(0);
    format!(
        "fn scene(uv: vec2f, time: f32) -> vec4f {{
            let p = uv * resolution();
            let c = vec2f({x:?} + 0.37 * time, {y:?} + 0.23 * time);
            let lit = length(p - c) <= {RADIUS:?};
            return select(vec4f(0.0, 0.0, 0.0, 1.0), vec4f(vec3f({radiance:?}), 1.0), lit);
        }}"
    )
}

/// Pixels whose centre the dot covers in frame `i`.
pub fn lit_pixels(i: u32) -> u32 {
    let (cx, cy) = dot_center(i);
    let mut n = 0;
    for y in (cy as i32 - 2)..=(cy as i32 + 2) {
        for x in (cx as i32 - 2)..=(cx as i32 + 2) {
            let (dx, dy) = (x as f32 + 0.5 - cx, y as f32 + 0.5 - cy);
            if (dx * dx + dy * dy).sqrt() <= RADIUS {
                n += 1;
            }
        }
    }
    n
}

/// Light in the annulus 3 to 30 px around the dot of frame `i`, from a
/// function giving a pixel's linear value.
pub fn halo_energy(i: u32, value: impl Fn(u32, u32) -> f32) -> f64 {
    let (cx, cy) = dot_center(i);
    let mut sum = 0.0;
    for y in 0..DOT_SIZE.1 {
        for x in 0..DOT_SIZE.0 {
            let d = ((x as f32 + 0.5 - cx).powi(2) + (y as f32 + 0.5 - cy).powi(2)).sqrt();
            if (3.0..=30.0).contains(&d) {
                sum += value(x, y) as f64;
            }
        }
    }
    sum
}

/// Halo per lit pixel over the frames: (mean, coefficient of variation).
pub fn steadiness(per_frame: &[(f64, u32)]) -> (f64, f64) {
    let v: Vec<f64> = per_frame
        .iter()
        .map(|(e, lit)| e / (*lit).max(1) as f64)
        .collect();
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / v.len() as f64;
    (mean, var.sqrt() / mean.max(1e-12))
}

/// Linear light from an sRGB-encoded value (the float canvas is encoded by
/// the shader; extended values continue the curve).
pub fn srgb_to_linear(v: f32) -> f32 {
    let a = v.abs();
    let d = if a <= 0.04045 {
        a / 12.92
    } else {
        ((a + 0.055) / 1.055).powf(2.4)
    };
    d.copysign(v)
}
