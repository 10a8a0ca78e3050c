// The demo's scenes, in WGSL for setSceneShader: `fn scene(uv, time)`
// returns linear HDR radiance (far above 1 where it should glow).

// The first screen: street lamps at night, blooming and mirrored in the
// wet road. A floodlight comes on for 5 s of every 12: with autoExposure
// on, the exposure comes down to it and goes back up after (the stats'
// folded line shows the EV).
export const NIGHT_STREET = `// A street at night, lamps on both sides. Every 12 s a floodlight comes
// on for 5 s: with autoExposure on, the exposure follows it down and up.
fn lamp_color(i: i32) -> vec3f {
  let colors = array<vec3f, 4>(vec3f(1.0, 0.6, 0.25), vec3f(0.35, 0.75, 1.0),
                               vec3f(1.0, 0.35, 0.65), vec3f(1.0, 0.85, 0.5));
  return colors[i % 4];
}

fn scene(uv: vec2f, time: f32) -> vec4f {
  let aspect = resolution().x / resolution().y;
  let p = vec2f((uv.x - 0.5) * aspect, uv.y - 0.5); // height 1, y down
  let horizon = 0.0;
  let f = 0.9;   // focal length
  let eye = 0.7; // camera height above the road
  let t = time % 12.0;
  let flood = smoothstep(5.0, 5.25, t) * (1.0 - smoothstep(10.0, 10.25, t));
  // The floodlight: high above the road, ahead on the right.
  let mast = vec3f(3.0, 6.0, 12.0); // across, height, depth
  let mast_px = vec2f(mast.x / mast.z * f, horizon - (mast.y - eye) / mast.z * f);
  let flood_color = vec3f(1.0, 0.93, 0.8);
  var c: vec3f;
  if p.y < horizon {
    let h = clamp((horizon - p.y) / 0.5, 0.0, 1.0);
    c = mix(vec3f(0.03, 0.02, 0.025), vec3f(0.002, 0.003, 0.012), sqrt(h));
    c += flood * flood_color * 0.6 * exp(-5.0 * length(p - mast_px));
  } else {
    // The road at this pixel, in the world: depth z, across x.
    let z = eye * f / max(p.y - horizon, 1e-4);
    let x = p.x * z / f;
    let paint = select(0.05, 0.3, abs(x) < 0.03 && fract(z * 0.25) < 0.5);
    var light = vec3f(0.0005);
    for (var i = 0; i < 14; i++) {
      let side = select(-2.0, 2.0, i % 2 == 0);
      let lz = 3.0 + f32(i / 2) * 3.0;
      let d = vec3f(x - side * 0.8, 2.5, z - lz);
      light += lamp_color(i) * 6.0 * pow(2.5 / length(d), 6.0) / dot(d, d);
    }
    let fd = vec3f(x - mast.x, mast.y, z - mast.z);
    light += flood * flood_color * 800.0 * mast.y / pow(dot(fd, fd), 1.5);
    c = light * paint;
  }
  // The lamps, their heads and reflections on the wet road.
  for (var i = 0; i < 14; i++) {
    let side = select(-2.0, 2.0, i % 2 == 0);
    let lz = 3.0 + f32(i / 2) * 3.0;
    let head = vec2f(side / lz * f, horizon - (2.7 - eye) / lz * f);
    let base = horizon + eye / lz * f;
    let r = 0.05 / lz;
    let q = p - head;
    let col = lamp_color(i);
    c += col * 50.0 * exp(-dot(q, q) / (r * r));
    if abs(p.x - head.x) < 0.012 / lz && p.y > head.y && p.y < base { c = vec3f(0.004); }
    if p.y > horizon {
      let mirror = 2.0 * horizon - head.y;
      let dy = (p.y - mirror) / (0.5 / lz);
      c += col * 1.5 * exp(-pow(q.x / (1.2 * r), 2.0) - abs(dy));
    }
  }
  c += flood * flood_color * 300.0 * exp(-dot(p - mast_px, p - mast_px) / (0.012 * 0.012));
  return vec4f(c, 1.0);
}
`;

// A scene whose light swings six stops either way every 20 s: with
// autoExposure on, the exposure follows it (the stats show the EV) and
// the picture stays readable; with it off, it goes black and white.
export const CHANGING_LIGHT = `// Light swinging over 12 stops every 20 s.
fn scene(uv: vec2f, time: f32) -> vec4f {
  let stops = 6.0 * sin(time * 0.314);
  let p = (uv - 0.5) * vec2f(resolution().x / resolution().y, 1.0);
  let sky = mix(vec3f(0.55, 0.65, 0.9), vec3f(0.12, 0.1, 0.08), uv.y);
  let sun = 30.0 * smoothstep(0.08, 0.0, length(p - vec2f(0.25, -0.15)));
  let stripes = 0.5 + 0.5 * step(0.5, fract(p.x * 8.0));
  return vec4f((sky * stripes + sun) * 0.18 * exp2(stops), 1.0);
}
`;

// Edges that alias, for comparing antialias 'none', 'fxaa' and 'smaa':
// every pixel is lit or not, with no smoothing of the shader's own, so
// what smooths them is the chosen filter alone (msaa does not: the scene
// shader draws one full-screen triangle, and samples differ only at the
// edges of geometry). The demo shows it at one canvas pixel per CSS pixel.
export const HARD_EDGES = `// Hairlines one pixel wide at shallow and steep angles, a fine grid, and
// a bright bar turning slowly, all with hard edges on a dark ground: their
// stair steps and crawling are what Edge smoothing (antialias) smooths.
// 1 on the line through o at angle a (radians), one pixel wide, beyond r0.
fn hairline(p: vec2f, o: vec2f, a: f32, r0: f32) -> f32 {
  let d = p - o;
  let along = dot(d, vec2f(cos(a), -sin(a)));
  let across = dot(d, vec2f(sin(a), cos(a)));
  return select(0.0, 1.0, abs(across) < 0.5 && along > r0);
}

fn scene(uv: vec2f, time: f32) -> vec4f {
  let res = resolution();
  let p = uv * res; // in pixels, y down
  let s = min(res.x, res.y);
  var c = mix(vec3f(0.004, 0.005, 0.009), vec3f(0.009, 0.008, 0.007), uv.y);
  // A fan of hairlines from the lower left corner, 2 to 80 degrees.
  let o = vec2f(0.04 * res.x, 0.96 * res.y);
  let angles = array<f32, 7>(2.0, 6.0, 12.0, 20.0, 32.0, 50.0, 80.0);
  for (var i = 0; i < 7; i++) {
    c = mix(c, vec3f(0.75, 0.85, 1.0), hairline(p, o, radians(angles[i]), 0.12 * s));
  }
  // Texture that has no steps to smooth: a grid of one-pixel lines three
  // pixels apart, at the top right of the middle. A filter that softens
  // it blurs detail.
  let g = p - vec2f(0.5 * res.x + 0.1 * s, 0.04 * s);
  if all(g >= vec2f(0.0)) && all(g < vec2f(0.16 * s)) {
    let on = (u32(g.x) % 3u == 0u) || (u32(g.y) % 3u == 0u);
    c = select(vec3f(0.02), vec3f(0.7, 0.7, 0.6), on);
  }
  // The bar: turning once a minute around the centre, hard-edged, its
  // light above white (it glows a little) so its edge is where the tone
  // curve bends most.
  let a = time * radians(6.0) + 0.3;
  let q = p - 0.5 * res;
  let r = vec2f(dot(q, vec2f(cos(a), sin(a))), dot(q, vec2f(-sin(a), cos(a))));
  if abs(r.x) < 0.3 * s && abs(r.y) < 0.035 * s {
    c = vec3f(1.6, 1.3, 0.9);
  }
  return vec4f(c, 1.0);
}
`;
