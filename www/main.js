// afterglow demo: one canvas, sized to its CSS box in device pixels,
// animated with requestAnimationFrame.
import init, { Renderer } from './pkg/afterglow.js';

const canvas = document.getElementById('view');
const message = document.getElementById('message');

function showMessage(text) {
  message.firstElementChild.textContent = text;
  message.classList.add('shown');
}

// The canvas size in device pixels: exact where the browser reports
// device-pixel-content-box, CSS size × devicePixelRatio otherwise.
function observeSize(onSize) {
  const fallback = () => {
    const r = canvas.getBoundingClientRect();
    onSize(Math.round(r.width * devicePixelRatio), Math.round(r.height * devicePixelRatio));
  };
  const observer = new ResizeObserver((entries) => {
    const box = entries[0].devicePixelContentBoxSize?.[0];
    if (box) onSize(box.inlineSize, box.blockSize);
    else fallback();
  });
  try {
    observer.observe(canvas, { box: 'device-pixel-content-box' });
  } catch {
    observer.observe(canvas);
  }
  fallback();
}

async function main() {
  if (!navigator.gpu) {
    showMessage('This page needs WebGPU, which this browser does not offer (or only on https). ' +
                'Try a current Chrome, Edge or Safari, or Firefox with WebGPU enabled.');
    return;
  }
  await init();
  let renderer;
  try {
    renderer = await Renderer.create(canvas, {});
  } catch (e) {
    showMessage(`WebGPU could not start: ${e.message}`);
    return;
  }
  const max = 8192;
  observeSize((w, h) => {
    try {
      renderer.resize(Math.min(w, max), Math.min(h, max));
    } catch (e) {
      console.warn(e.message);
    }
  });
  const start = performance.now();
  const frame = (now) => {
    renderer.render((now - start) / 1000);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  window.afterglow = renderer; // for the console and the end-to-end test
}

main();
