// A plain WebGPU app with a 3D scene of its own — lit cubes on a floor, two
// of them emissive — that hands its HDR targets to afterglow. Everything up
// to the two rgba16float textures and the depth is the app's: the device,
// the geometry, one 4× MSAA pass with depth and two color targets (the lit
// scene, and the emissive light alone). afterglow runs on the same device
// and only adds depth of field (from the depth and the camera's planes),
// bloom (from the emissive target), exposure, tonemapping and the canvas.
// A click on the scene focuses there: the app finds what the click hits.
import init, { Renderer } from './pkg/afterglow.js';
import { focusControl } from './focus.js';

const $ = (id) => document.getElementById(id);
const canvas = $('view');

const SHADER = /* wgsl */ `
struct Frame {
  viewProj: mat4x4f,
  sunDir: vec4f,     // xyz: direction the sunlight travels; w: intensity
  lampPos: vec4f,    // a point light inside the orange emissive cube
  lampColor: vec4f,
  time: vec4f,
}
@group(0) @binding(0) var<uniform> frame: Frame;

struct VertexIn {
  @location(0) position: vec3f,
  @location(1) normal: vec3f,
  @location(2) center: vec3f,
  @location(3) size: vec3f,
  @location(4) spin: vec2f,      // angle about the vertical, and its rate
  @location(5) albedo: vec3f,
  @location(6) emissive: vec3f,
}

struct Varyings {
  @builtin(position) clip: vec4f,
  @location(0) world: vec3f,
  @location(1) normal: vec3f,
  @location(2) albedo: vec3f,
  @location(3) emissive: vec3f,
}

fn spinY(v: vec3f, a: f32) -> vec3f {
  let c = cos(a);
  let s = sin(a);
  return vec3f(c * v.x + s * v.z, v.y, -s * v.x + c * v.z);
}

@vertex fn vs(v: VertexIn) -> Varyings {
  let angle = v.spin.x + v.spin.y * frame.time.x;
  let world = v.center + spinY(v.position * v.size, angle);
  var o: Varyings;
  o.clip = frame.viewProj * vec4f(world, 1.0);
  o.world = world;
  o.normal = spinY(v.normal, angle);
  o.albedo = v.albedo;
  o.emissive = v.emissive;
  return o;
}

struct Targets {
  @location(0) scene: vec4f,     // all the light, linear HDR
  @location(1) emissive: vec4f,  // only what should glow
}

@fragment fn fs(v: Varyings) -> Targets {
  let n = normalize(v.normal);
  let sun = max(dot(n, -frame.sunDir.xyz), 0.0) * frame.sunDir.w;
  let toLamp = frame.lampPos.xyz - v.world;
  let d2 = dot(toLamp, toLamp);
  let lamp = max(dot(n, toLamp * inverseSqrt(d2)), 0.0) / d2;
  let light = v.albedo * (vec3f(0.04) + sun + lamp * frame.lampColor.rgb) + v.emissive;
  return Targets(vec4f(light, 1.0), vec4f(v.emissive, 1.0));
}
`;

// center, size, [angle, rate], albedo, emissive
const BOXES = [
  // The floor: lit by the sun and the lamp, below the bloom threshold.
  [[0, -0.05, 0], [12, 0.1, 12], [0, 0], [0.25, 0.25, 0.28], [0, 0, 0]],
  // A white cube in full sun, brighter than the threshold: it would glow if
  // the scene fed the bloom; with the emissive target it stays crisp.
  [[-2.6, 0.6, 1.2], [1.2, 1.2, 1.2], [0.4, 0.3], [0.9, 0.9, 0.9], [0, 0, 0]],
  [[2.2, 0.5, -1.4], [1, 1, 1], [-0.3, -0.2], [0.8, 0.3, 0.2], [0, 0, 0]],
  [[0.9, 0.35, 2.2], [0.7, 0.7, 0.7], [0.9, 0.5], [0.2, 0.5, 0.9], [0, 0, 0]],
  // The lamp: an emissive cube with a point light inside.
  [[0, 0.45, 0], [0.5, 0.5, 0.5], [0.7, 0.8], [0, 0, 0], [6, 2, 0.4]],
  // A floating cyan emitter.
  [[-0.6, 1.9, -2.2], [0.35, 0.35, 0.35], [0.2, -1.1], [0, 0, 0], [0.3, 3, 5]],
];
const LAMP = [0, 0.45, 0];
const EMITTERS = { lamp: LAMP, cyan: BOXES[5][0] };
const WHITE = { center: BOXES[1][0], size: 1.2 };

// The 36 vertices (position, normal) of a unit cube, counter-clockwise seen
// from outside.
function cube() {
  const faces = [
    [[1, 0, 0], [0, 1, 0], [0, 0, 1]], [[-1, 0, 0], [0, 0, 1], [0, 1, 0]],
    [[0, 1, 0], [0, 0, 1], [1, 0, 0]], [[0, -1, 0], [1, 0, 0], [0, 0, 1]],
    [[0, 0, 1], [1, 0, 0], [0, 1, 0]], [[0, 0, -1], [0, 1, 0], [1, 0, 0]],
  ];
  const corners = [[-1, -1], [1, -1], [1, 1], [-1, -1], [1, 1], [-1, 1]];
  const out = [];
  for (const [n, u, v] of faces) {
    for (const [a, b] of corners) {
      for (let i = 0; i < 3; i++) out.push(0.5 * (n[i] + a * u[i] + b * v[i]));
      out.push(...n);
    }
  }
  return new Float32Array(out);
}

const sub = (a, b) => a.map((x, i) => x - b[i]);
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const normalize = (a) => a.map((x) => x / Math.sqrt(dot(a, a)));

// Perspective × look-at, column-major, depth 0..1 (right-handed).
function viewProj(eye, target, fovY, aspect) {
  const f = normalize(sub(target, eye));
  const s = normalize(cross(f, [0, 1, 0]));
  const u = cross(s, f);
  const view = [s[0], u[0], -f[0], 0, s[1], u[1], -f[1], 0, s[2], u[2], -f[2], 0,
    -dot(s, eye), -dot(u, eye), dot(f, eye), 1];
  const [near, far] = [NEAR, FAR];
  const t = 1 / Math.tan(fovY / 2);
  const proj = [t / aspect, 0, 0, 0, 0, t, 0, 0, 0, 0, far / (near - far), -1,
    0, 0, near * far / (near - far), 0];
  const m = new Float32Array(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let x = 0;
      for (let k = 0; k < 4; k++) x += proj[k * 4 + r] * view[c * 4 + k];
      m[c * 4 + r] = x;
    }
  }
  return m;
}

// The camera's clip planes: its depth buffer holds far (z - near) /
// (z (far - near)), which afterglow reads back into distance.
const NEAR = 0.1;
const FAR = 100;
const FOV_Y = 0.75;
const LOOK_AT = [0, 0.5, 0];

function eyeAt(time) {
  const a = 0.6 + 0.15 * time;
  return [8.6 * Math.sin(a), 3.2, 8.6 * Math.cos(a)];
}

function camera(time, aspect) {
  return viewProj(eyeAt(time), LOOK_AT, FOV_Y, aspect);
}

// Where a click at (u, v) (0 to 1 over the canvas, y down) meets the
// scene: the distance along the view direction to the nearest box it
// hits, the boxes turned as the vertex shader turns them; null for none.
function focusDistance(u, v, time, aspect) {
  const eye = eyeAt(time);
  const f = normalize(sub(LOOK_AT, eye));
  const s = normalize(cross(f, [0, 1, 0]));
  const up = cross(s, f);
  const t = Math.tan(FOV_Y / 2);
  const x = (2 * u - 1) * t * aspect;
  const y = (1 - 2 * v) * t;
  const ray = normalize([0, 1, 2].map((i) => f[i] + x * s[i] + y * up[i]));
  let nearest = Infinity;
  for (const [center, size, [angle, rate]] of BOXES) {
    const a = -(angle + rate * time);
    const turn = (p) => [Math.cos(a) * p[0] + Math.sin(a) * p[2], p[1], -Math.sin(a) * p[0] + Math.cos(a) * p[2]];
    const o = turn(sub(eye, center));
    const d = turn(ray);
    let enter = 0;
    let leave = Infinity;
    for (let i = 0; i < 3; i++) {
      const lo = (-size[i] / 2 - o[i]) / d[i];
      const hi = (size[i] / 2 - o[i]) / d[i];
      enter = Math.max(enter, Math.min(lo, hi));
      leave = Math.min(leave, Math.max(lo, hi));
    }
    if (enter <= leave && enter < nearest) nearest = enter;
  }
  return nearest === Infinity ? null : nearest * dot(ray, f);
}

function showMessage(text) {
  $('message').firstElementChild.textContent = text;
  $('message').classList.add('shown');
}

// The app: its own device and scene, afterglow after it.
async function main() {
  const device = await requestDevice();
  if (!device) return;
  await init();
  const renderer = await Renderer.create(canvas, { device, autoResize: true });
  const scene = createScene(device);
  const targets = sceneTargets(device);
  const loop = runLoop(renderer, (time) => drawScene(device, scene, targets, time));
  $('bloom').addEventListener('change', (e) => renderer.setOptions({ bloom: { enabled: e.target.checked } }));
  // Depth of field: a click (or a tap) focuses where it points.
  const focus = focusControl(renderer, canvas,
    (u, v) => focusDistance(u, v, loop.fixedTime ?? loop.time, canvas.width / canvas.height));
  exposeForTests(renderer, device, loop, focus);
}

// The app's device: afterglow adapts to whatever features it has.
async function requestDevice() {
  if (!navigator.gpu) {
    showMessage('This page needs WebGPU, which this browser does not offer (or only on https).');
    return null;
  }
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) {
    showMessage('No WebGPU adapter is available.');
    return null;
  }
  return adapter.requestDevice();
}

// The app's scene resources: the cube's vertices, one instance per box,
// the frame's uniforms and the pipeline that draws into the scene and
// emissive targets at once (4× MSAA, depth).
function createScene(device) {
  const vertices = device.createBuffer({
    label: 'cube vertices', size: 36 * 24, usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(vertices, 0, cube());
  const instanceData = new Float32Array(BOXES.flatMap((b) => b.flat()));
  const instances = device.createBuffer({
    label: 'cube instances', size: instanceData.byteLength,
    usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(instances, 0, instanceData);
  const uniforms = device.createBuffer({
    label: 'frame uniforms', size: 128, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  const pipeline = createPipeline(device);
  const bindGroup = device.createBindGroup({
    label: 'frame uniforms',
    layout: pipeline.getBindGroupLayout(0),
    entries: [{ binding: 0, resource: { buffer: uniforms } }],
  });
  return { vertices, instances, uniforms, pipeline, bindGroup, frameData: new Float32Array(32) };
}

function createPipeline(device) {
  const module = device.createShaderModule({ label: 'cubes', code: SHADER });
  const f32x3 = 'float32x3';
  return device.createRenderPipeline({
    label: 'cubes',
    layout: 'auto',
    vertex: {
      module,
      entryPoint: 'vs',
      buffers: [
        { arrayStride: 24, attributes: [
          { shaderLocation: 0, offset: 0, format: f32x3 },
          { shaderLocation: 1, offset: 12, format: f32x3 }] },
        { arrayStride: 56, stepMode: 'instance', attributes: [
          { shaderLocation: 2, offset: 0, format: f32x3 },
          { shaderLocation: 3, offset: 12, format: f32x3 },
          { shaderLocation: 4, offset: 24, format: 'float32x2' },
          { shaderLocation: 5, offset: 32, format: f32x3 },
          { shaderLocation: 6, offset: 44, format: f32x3 }] },
      ],
    },
    fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba16float' }, { format: 'rgba16float' }] },
    primitive: { cullMode: 'back' },
    depthStencil: { format: 'depth24plus', depthWriteEnabled: true, depthCompare: 'less' },
    multisample: { count: 4 },
  });
}

// The app's targets, rebuilt when the canvas size changes (the old ones
// destroyed at once). afterglow samples the two resolved textures.
function sceneTargets(device) {
  let targets = null;
  return (width, height) => {
    if (targets && targets.width === width && targets.height === height) return targets;
    if (targets) for (const t of targets.all) t.destroy();
    const make = (label, format, sampleCount, usage) => device.createTexture({
      label, size: [width, height], format, sampleCount, usage,
    });
    const attach = GPUTextureUsage.RENDER_ATTACHMENT;
    const sampled = attach | GPUTextureUsage.TEXTURE_BINDING;
    targets = {
      width,
      height,
      msScene: make('scene msaa', 'rgba16float', 4, attach),
      msEmissive: make('emissive msaa', 'rgba16float', 4, attach),
      // Kept for depth of field: afterglow reads its first sample.
      depth: make('depth', 'depth24plus', 4, sampled),
      scene: make('scene', 'rgba16float', 1, sampled),
      emissive: make('emissive', 'rgba16float', 1, sampled),
    };
    targets.all = [targets.msScene, targets.msEmissive, targets.depth, targets.scene, targets.emissive];
    return targets;
  };
}

const SUN = normalize([-0.4, -1, -0.3]);

// The app's frame: one pass into its scene and emissive targets, its own
// submit. Returns the targets, for afterglow.
function drawScene(device, scene, targets, time) {
  const t = targets(Math.max(1, canvas.width), Math.max(1, canvas.height));
  const { frameData } = scene;
  frameData.set(camera(time, t.width / t.height), 0);
  frameData.set([...SUN, 1.6], 16);
  frameData.set([...LAMP, 1], 20);
  frameData.set([4, 1.5, 0.4, 1], 24);
  frameData.set([time, 0, 0, 0], 28);
  device.queue.writeBuffer(scene.uniforms, 0, frameData);
  const encoder = device.createCommandEncoder({ label: 'cubes' });
  const color = (view, resolveTarget) => ({
    view, resolveTarget, loadOp: 'clear', clearValue: [0, 0, 0, 1],
    storeOp: 'discard', // only the resolved images are read later
  });
  const pass = encoder.beginRenderPass({
    label: 'cubes',
    colorAttachments: [
      color(t.msScene.createView(), t.scene.createView()),
      color(t.msEmissive.createView(), t.emissive.createView()),
    ],
    depthStencilAttachment: {
      view: t.depth.createView(), depthClearValue: 1, depthLoadOp: 'clear', depthStoreOp: 'store',
    },
  });
  pass.setPipeline(scene.pipeline);
  pass.setBindGroup(0, scene.bindGroup);
  pass.setVertexBuffer(0, scene.vertices);
  pass.setVertexBuffer(1, scene.instances);
  pass.draw(36, BOXES.length);
  pass.end();
  device.queue.submit([encoder.finish()]);
  return t;
}

// Every animation frame: the app draws, then hands its two textures to
// afterglow, which renders into the canvas. The pause freezes the clock;
// an error stops the loop and is shown. Returns the loop's state.
function runLoop(renderer, draw) {
  const loop = { time: 0, fixedTime: null, frames: 0, failed: false };
  let last = performance.now();
  const frame = (now) => {
    if (!$('pause').checked) loop.time += (now - last) / 1000;
    last = now;
    const t = loop.fixedTime ?? loop.time;
    try {
      const { scene, emissive, depth } = draw(t);
      // The same texture objects cost nothing; new ones (after a resize)
      // rebind afterglow's chain once.
      const inputs = { depth, camera: { near: NEAR, far: FAR } };
      if ($('selective').checked) inputs.bloom = emissive;
      renderer.setTexture(scene, inputs);
      renderer.render(t);
      loop.frames++;
    } catch (e) {
      $('error').textContent = `${e.name}: ${e.message}`;
      loop.failed = true;
      return;
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  return loop;
}

// For the console and the end-to-end test.
function exposeForTests(renderer, device, loop, focusAt) {
  window.ownRenderer = {
    renderer,
    device,
    /** Focuses where (u, v) points (0 to 1, y down); the distance, or null. */
    focusAt,
    get frames() { return loop.frames; },
    get failed() { return loop.failed; },
    /** Freezes the scene's clock at `t` seconds (null: runs again). */
    setTime(t) { loop.fixedTime = t; },
    /** Where a world position lands on the canvas, in CSS pixels. */
    project(p) {
      const m = camera(loop.fixedTime ?? loop.time, canvas.width / canvas.height);
      const c = [0, 1, 2, 3].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
      return { x: (c[0] / c[3] * 0.5 + 0.5) * canvas.clientWidth, y: (0.5 - c[1] / c[3] * 0.5) * canvas.clientHeight };
    },
    emitters: EMITTERS,
    white: WHITE,
  };
}

main().catch((e) => showMessage(`${e.name ?? 'Error'}: ${e.message}`));
