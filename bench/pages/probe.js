// What a browser's flags give on its GPU, for bench/gpu-probe.mjs: the
// adapters WebGPU and WebGL report, a WebGPU canvas cleared to red and a
// WebGL canvas cleared to green (the driver reads both back from a
// screenshot, which shows whether canvases reach the page at all; the
// WebGPU one is also drawn into a 2D canvas and copied on the GPU), and
// how many animation frames one second gets.
import { adapters, glSyncer } from './harness.js';

const result = { webgpu: null, webgl: null, rafPerSecond: 0, adapters };

/** The centre texel of `canvas`, drawn into a 2D canvas. */
function readBack(canvas) {
  const copy = document.createElement('canvas');
  [copy.width, copy.height] = [canvas.width, canvas.height];
  const context = copy.getContext('2d');
  context.drawImage(canvas, 0, 0);
  return [...context.getImageData(canvas.width >> 1, canvas.height >> 1, 1, 1).data.slice(0, 3)];
}
try {
  const adapter = await navigator.gpu?.requestAdapter({ powerPreference: 'high-performance' });
  if (adapter) {
    const device = await adapter.requestDevice();
    const context = document.getElementById('webgpu').getContext('webgpu');
    context.configure({ device, format: navigator.gpu.getPreferredCanvasFormat(), alphaMode: 'opaque' });
    const encoder = device.createCommandEncoder();
    encoder.beginRenderPass({
      colorAttachments: [{ view: context.getCurrentTexture().createView(), clearValue: [1, 0, 0, 1], loadOp: 'clear', storeOp: 'store' }],
    }).end();
    device.queue.submit([encoder.finish()]);
    // Read back in the same task, before the canvas presents: this works
    // where the picture never reaches the page (no compositor interop).
    result.webgpuReadback = readBack(document.getElementById('webgpu'));
    // And copied on the GPU (bench/browser.mjs's canvasCopyHook), which
    // needs no interop at all: it shows whether the canvas's texture holds
    // what was drawn where neither of the above does.
    const copied = window.canvasCopy?.(document.getElementById('webgpu'));
    await device.queue.onSubmittedWorkDone();
    if (copied) {
      const { data, width, height } = await copied;
      const i = 4 * ((height >> 1) * width + (width >> 1));
      result.webgpuCopy = [...data.slice(i, i + 3)];
    }
    result.webgpu = 'drawn';
  } else {
    result.webgpu = navigator.gpu ? 'no adapter' : 'no navigator.gpu';
  }
} catch (e) {
  result.webgpu = `threw: ${e.message}`;
}
try {
  const gl = document.getElementById('webgl').getContext('webgl2', { preserveDrawingBuffer: true });
  gl.clearColor(0, 1, 0, 1);
  gl.clear(gl.COLOR_BUFFER_BIT);
  glSyncer(gl)();
  result.webgl = 'drawn';
} catch (e) {
  result.webgl = `threw: ${e.message}`;
}
let frames = 0;
const count = () => { frames += 1; requestAnimationFrame(count); };
requestAnimationFrame(count);
await new Promise((resolve) => setTimeout(resolve, 1000));
result.rafPerSecond = frames;
window.probe = result;
