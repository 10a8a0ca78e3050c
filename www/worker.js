// A module worker that renders into the OffscreenCanvas the page sent it.
// The page posts the canvas's size in device pixels whenever it changes,
// with its devicePixelRatio (undefined in a worker).
import init, { Renderer } from './pkg/index.js';

let renderer = null;
let pending = null; // a size that arrived before the renderer existed
let devicePixelRatio = 1;

const SCENE = `fn scene(uv: vec2f, time: f32) -> vec4f {
  let p = (uv - 0.5) * vec2f(resolution().x / resolution().y, 1.0);
  let ring = exp(-pow((length(p) - 0.25 - 0.02 * sin(time * 2.0)) * 40.0, 2.0)) * 12.0;
  return vec4f(vec3f(0.3, 0.7, 1.0) * ring + vec3f(0.02, 0.03, 0.06), 1.0);
}`;

async function start({ canvas, width, height }) {
  await init();
  canvas.width = width;
  canvas.height = height;
  // No autoResize: it observes an element of the page; the page sends sizes.
  renderer = await Renderer.create(canvas);
  await renderer.setSceneShader(SCENE);
  if (pending) renderer.resize(pending.width, pending.height);
  // The count goes to the page after the first frame and then at most
  // four times a second, however fast or slow the frames come.
  let frames = 0;
  let reported = -Infinity;
  const frame = (t) => {
    renderer.render(t / 1000);
    frames++;
    if (t - reported >= 250) {
      reported = t;
      report(frames);
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

function report(frames) {
  const { width, height } = renderer.configuration();
  postMessage({ frames, width, height, devicePixelRatio });
}

onmessage = ({ data }) => {
  if (data.devicePixelRatio) devicePixelRatio = data.devicePixelRatio;
  try {
    if (data.canvas) {
      start(data).catch((e) => postMessage({ error: `afterglow could not start: ${e.message}` }));
    } else if (data.resize) {
      if (renderer) renderer.resize(data.resize.width, data.resize.height);
      else pending = data.resize;
    }
  } catch (e) {
    postMessage({ error: e.message });
  }
};
