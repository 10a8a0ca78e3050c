// The benchmark's content, written once in WGSL and once in GLSL: a dim
// gradient and six discs of linear HDR radiance up to 100, one cheap
// full-screen function. uv runs 0..1 with y down; `res` is the target size
// in pixels. The discs drift by 0.02 along their own direction as
// sin(time), so frame 0 (time 0) has them exactly at DISCS below.

// Centre (uv), radius (fraction of the height), radiance (linear RGB).
export const DISCS = [
  { centre: [0.20, 0.30], radius: 0.050, radiance: [100, 60, 20] },
  { centre: [0.50, 0.25], radius: 0.030, radiance: [20, 40, 100] },
  { centre: [0.80, 0.35], radius: 0.060, radiance: [8, 30, 10] },
  { centre: [0.30, 0.72], radius: 0.040, radiance: [50, 10, 40] },
  { centre: [0.62, 0.65], radius: 0.080, radiance: [3, 3, 3] },
  { centre: [0.85, 0.78], radius: 0.025, radiance: [100, 100, 100] },
];

// Bloom settings: light above 1 blooms in every library. The libraries
// weigh their blurred light differently (UnrealBloomPass and TSL bloom()
// add five blurred mips at up to full strength each), so each one's
// strength is chosen to give about the same halo as afterglow's intensity
// of 0.6 (its default when this was set); strength does not change the
// work done. bench/defaults.mjs compares each library at its own defaults.
export const BLOOM = {
  threshold: 1.0,
  afterglow: 0.6,
  threeWebgl: 0.08,
  postprocessing: 0.15,
  threeWebgpu: 0.15,
};

const f = (x) => (Number.isInteger(x) ? `${x}.0` : `${x}`);
const discCalls = (vec2, vec3) =>
  DISCS.map((d, k) =>
    `  c += bench_disc(uv, res, ${vec2}(${d.centre.map(f).join(', ')}) + drift * ${vec2}(${f(+Math.cos(k).toFixed(4))}, ${f(+Math.sin(k).toFixed(4))}), ${f(d.radius)}, ${vec3}(${d.radiance.map(f).join(', ')}));`,
  ).join('\n');

/** WGSL: one disc with a one-pixel antialiased edge. */
export const WGSL_DISC = `fn bench_disc(uv: vec2f, res: vec2f, centre: vec2f, radius: f32, radiance: vec3f) -> vec3f {
  let p = (uv - centre) * vec2f(res.x / res.y, 1.0);
  return radiance * clamp((radius - length(p)) * res.y + 0.5, 0.0, 1.0);
}`;

/** WGSL: the whole picture. */
export const WGSL_SCENE = `fn bench_scene(uv: vec2f, time: f32, res: vec2f) -> vec4f {
  var c = vec3f(0.010, 0.015, 0.030) + uv.y * vec3f(0.030, 0.020, 0.010);
  let drift = 0.02 * sin(time);
${discCalls('vec2f', 'vec3f')}
  return vec4f(c, 1.0);
}`;

/** GLSL ES 3.00 (three.js RawShaderMaterial, GLSL3): a full-screen quad. */
export const GLSL_VERTEX = `precision highp float;
in vec3 position;
out vec2 vUv;
void main() {
  vUv = vec2(position.x * 0.5 + 0.5, 0.5 - position.y * 0.5); // y down, as in WGSL
  gl_Position = vec4(position.xy, 0.0, 1.0);
}`;

export const GLSL_FRAGMENT = `precision highp float;
uniform float time;
uniform vec2 res;
in vec2 vUv;
out vec4 fragColor;
vec3 bench_disc(vec2 uv, vec2 res, vec2 centre, float radius, vec3 radiance) {
  vec2 p = (uv - centre) * vec2(res.x / res.y, 1.0);
  return radiance * clamp((radius - length(p)) * res.y + 0.5, 0.0, 1.0);
}
void main() {
  vec2 uv = vUv;
  vec3 c = vec3(0.010, 0.015, 0.030) + uv.y * vec3(0.030, 0.020, 0.010);
  float drift = 0.02 * sin(time);
${discCalls('vec2', 'vec3')}
  fragColor = vec4(c, 1.0);
}`;

// The small-light scene (bench/dot.mjs; the same dot as the tests'
// src/tests/common/dot.rs): black, and one dot of radius 0.8 px and linear
// radiance `radiance` whose centre moves from (160, 90) px by (0.37, 0.23)
// px per unit of time, so frame i (time i) lights 1 to 4 pixels depending
// on where it falls on the grid. Pixel centres are lit, not antialiased.
export const DOT = { width: 320, height: 180, start: [160, 90], step: [0.37, 0.23], radius: 0.8 };

/** Centre of the dot at time t, in pixels (y down). */
export const dotCentre = (t) => [DOT.start[0] + DOT.step[0] * t, DOT.start[1] + DOT.step[1] * t];

/** WGSL: the dot, with bench_scene's signature. */
export const wgslDot = (radiance) => `fn bench_scene(uv: vec2f, time: f32, res: vec2f) -> vec4f {
  let c = vec2f(${f(DOT.start[0])}, ${f(DOT.start[1])}) + time * vec2f(${f(DOT.step[0])}, ${f(DOT.step[1])});
  let lit = length(uv * res - c) <= ${f(DOT.radius)};
  return select(vec4f(0.0, 0.0, 0.0, 1.0), vec4f(vec3f(${f(radiance)}), 1.0), lit);
}`;

/** GLSL ES 3.00: the dot, as GLSL_FRAGMENT's main. */
export const glslDot = (radiance) => `precision highp float;
uniform float time;
uniform vec2 res;
in vec2 vUv;
out vec4 fragColor;
void main() {
  vec2 c = vec2(${f(DOT.start[0])}, ${f(DOT.start[1])}) + time * vec2(${f(DOT.step[0])}, ${f(DOT.step[1])});
  bool lit = length(vUv * res - c) <= ${f(DOT.radius)};
  fragColor = lit ? vec4(vec3(${f(radiance)}), 1.0) : vec4(0.0, 0.0, 0.0, 1.0);
}`;

/** WGSL: a photo's tones as setImage shows them: the 8-bit sRGB levels
 * 0 to 255 across the width (whole levels), decoded to linear light and
 * multiplied by `gain`. afterglow's page only (bench/defaults.mjs). */
export const wgslRamp = (gain) => `fn bench_scene(uv: vec2f, time: f32, res: vec2f) -> vec4f {
  let s = floor(uv.x * 256.0) / 255.0;
  let linear = select(pow((s + 0.055) / 1.055, 2.4), s / 12.92, s <= 0.04045);
  return vec4f(vec3f(linear * ${f(gain)}), 1.0);
}`;

// The anti-aliasing scene (bench/antialias.mjs; the scene of
// src/tests/antialias.rs): a 256×256 frame of 4×4 cells of 64 px, the top
// two rows squares of side 34 turned by the eight ANGLES, the bottom two
// one-pixel lines 52 long at the same angles. Lengths are in pixels of the
// 256 frame whatever size it is drawn at. Lit is 0.9 and the background
// 0.02, linear: both below 1, so with no curve each library shows the
// same display values and the curve cannot matter.
export const AA = { side: 256, cell: 64, bright: 0.9, background: 0.02, angles: [2, 9, 17, 26, 37, 45, 63, 81] };

const aaAngles = AA.angles.map(f).join(', ');

/** WGSL: the AA scene, with bench_scene's signature. */
export const WGSL_AA = `fn bench_scene(uv: vec2f, time: f32, res: vec2f) -> vec4f {
  let p = uv * ${f(AA.side)};
  let cell = min(vec2u(p / ${f(AA.cell)}), vec2u(3u));
  let local = p - (vec2f(cell) * ${f(AA.cell)} + ${f(AA.cell / 2)});
  let index = cell.y * 4u + cell.x;
  let angles = array<f32, 8>(${aaAngles});
  let a = radians(angles[index % 8u]);
  let along = vec2f(cos(a), sin(a));
  let across = vec2f(-along.y, along.x);
  var lit = false;
  if index < 8u {
    let q = vec2f(dot(local, along), dot(local, across));
    lit = max(abs(q.x), abs(q.y)) < 17.0;
  } else {
    lit = abs(dot(local, across)) < 0.5 && abs(dot(local, along)) < 26.0;
  }
  return vec4f(select(vec3f(${f(AA.background)}), vec3f(${f(AA.bright)}), lit), 1.0);
}`;

/** GLSL ES 3.00: the AA scene, as GLSL_FRAGMENT's main, line for line
 * the WGSL above. */
export const GLSL_AA = `precision highp float;
uniform float time;
uniform vec2 res;
in vec2 vUv;
out vec4 fragColor;
void main() {
  vec2 p = vUv * ${f(AA.side)};
  uvec2 cell = min(uvec2(p / ${f(AA.cell)}), uvec2(3u));
  vec2 local = p - (vec2(cell) * ${f(AA.cell)} + ${f(AA.cell / 2)});
  uint index = cell.y * 4u + cell.x;
  float angles[8] = float[8](${aaAngles});
  float a = radians(angles[index % 8u]);
  vec2 along = vec2(cos(a), sin(a));
  vec2 across = vec2(-along.y, along.x);
  bool lit = false;
  if (index < 8u) {
    vec2 q = vec2(dot(local, along), dot(local, across));
    lit = max(abs(q.x), abs(q.y)) < 17.0;
  } else {
    lit = abs(dot(local, across)) < 0.5 && abs(dot(local, along)) < 26.0;
  }
  fragColor = vec4(lit ? vec3(${f(AA.bright)}) : vec3(${f(AA.background)}), 1.0);
}`;

/** What a page draws, from its URL: `?scene=discs` (the default) or
 * `?scene=dot&radiance=R`, or `?scene=aa` (AA above), or (afterglow's page) `?scene=ramp&gain=G`; `tonemapper=aces` (the default), `none`, or
 * `own` (the library's curve when none is set: AgX for afterglow, none for
 * the others); `bloom=matched` (the default: the strengths of BLOOM
 * above), `own` (the library's defaults; UnrealBloomPass has none for its
 * radius and threshold and takes its documentation's example, 1.5, 0.4,
 * 0.85) or `off`; and for afterglow `intensity=X` and `radius=R` over its
 * defaults; `antialias=none` (the default), `fxaa` or `smaa` (afterglow's
 * and postprocessing's pages; the others refuse anything but none);
 * for afterglow, `sharpen=A` (0 to 1), `scale=S` (its renderScale, 0.25
 * to 1) and `upscale=bilinear` (the default) or `edge`.
 * Refuses anything else, naming the parameter and what it takes. */
export function pageContent(search = globalThis.location?.search ?? '') {
  const q = new URLSearchParams(search);
  const scene = q.get('scene') ?? 'discs';
  const tonemapper = q.get('tonemapper') ?? 'aces';
  const bloom = q.get('bloom') ?? 'matched';
  const antialias = q.get('antialias') ?? 'none';
  if (!['discs', 'dot', 'ramp', 'aa'].includes(scene)) throw new Error(`scene: '${scene}' is not 'discs', 'dot', 'ramp' or 'aa'`);
  if (!['aces', 'none', 'own'].includes(tonemapper)) throw new Error(`tonemapper: '${tonemapper}' is not 'aces', 'none' or 'own'`);
  if (!['matched', 'own', 'off'].includes(bloom)) throw new Error(`bloom: '${bloom}' is not 'matched', 'own' or 'off'`);
  if (!['none', 'fxaa', 'smaa'].includes(antialias)) throw new Error(`antialias: '${antialias}' is not 'none', 'fxaa' or 'smaa'`);
  const intensity = q.has('intensity') ? Number(q.get('intensity')) : null;
  if (intensity !== null && !(intensity >= 0 && intensity <= 100)) {
    throw new Error(`intensity: '${q.get('intensity')}' is not a number from 0 to 100`);
  }
  const radius = q.has('radius') ? Number(q.get('radius')) : null;
  if (radius !== null && !(radius > 0 && radius <= 8)) {
    throw new Error(`radius: '${q.get('radius')}' is not a number above 0 and at most 8`);
  }
  const sharpen = Number(q.get('sharpen') ?? 0);
  if (!(sharpen >= 0 && sharpen <= 1)) throw new Error(`sharpen: '${q.get('sharpen')}' is not a number from 0 to 1`);
  const renderScale = Number(q.get('scale') ?? 1);
  if (!(renderScale >= 0.25 && renderScale <= 1)) throw new Error(`scale: '${q.get('scale')}' is not a number from 0.25 to 1`);
  const upscale = q.get('upscale') ?? 'bilinear';
  if (!['bilinear', 'edge'].includes(upscale)) throw new Error(`upscale: '${upscale}' is not 'bilinear' or 'edge'`);
  const common = { scene, tonemapper, bloom, intensity, radius, antialias, sharpen, renderScale, upscale };
  if (scene === 'aa') {
    return { ...common, wgsl: WGSL_AA, wgslNeedsDisc: false, glsl: GLSL_AA };
  }
  if (scene === 'discs') {
    return { ...common, wgsl: WGSL_SCENE, wgslNeedsDisc: true, glsl: GLSL_FRAGMENT };
  }
  if (scene === 'ramp') {
    const gain = Number(q.get('gain') ?? 1);
    if (!(gain > 0 && gain <= 100)) throw new Error(`gain: '${q.get('gain')}' is not a number above 0 and at most 100`);
    return { ...common, gain, wgsl: wgslRamp(gain), wgslNeedsDisc: false, glsl: null };
  }
  const radiance = Number(q.get('radiance') ?? 30);
  if (!(radiance > 0 && radiance < 1e6)) throw new Error(`radiance: '${q.get('radiance')}' is not a number above 0 and below 1e6`);
  return { ...common, radiance, wgsl: wgslDot(radiance), wgslNeedsDisc: false, glsl: glslDot(radiance) };
}

/** UnrealBloomPass's strength, radius and threshold for `content.bloom`. */
export const unrealBloom = (content) => (content.bloom === 'own' ? [1.5, 0.4, 0.85] : [BLOOM.threeWebgl, 0.4, BLOOM.threshold]);

/** afterglow's setSceneShader source for a page's content. */
export const afterglowSource = (content) => `${content.wgslNeedsDisc ? `${WGSL_DISC}\n\n` : ''}${content.wgsl}

fn scene(uv: vec2f, time: f32) -> vec4f {
  return bench_scene(uv, time, resolution());
}`;
