// afterglow demo: a full-window canvas, a panel with every option, a stats
// overlay, drag and drop of images and videos, a WGSL editor, screenshots.
// Plain ES modules: no bundler.
import init, { Renderer } from './pkg/afterglow.js';
import { buildOptionsPanel } from './panel.js';

const $ = (id) => document.getElementById(id);
const canvas = $('view');

function showMessage(text) {
  const box = $('message');
  box.firstElementChild.textContent = text;
  box.classList.add('shown');
}

function showError(text) {
  $('error').textContent = text ?? '';
}

const DEFAULT_SHADER = `// Linear HDR radiance and alpha for uv in 0..1 (y down).
fn scene(uv: vec2f, time: f32) -> vec4f {
  let p = (uv - 0.5) * vec2f(resolution().x / resolution().y, 1.0);
  let r = length(p);
  // A ring whose brightness goes far above 1, so it blooms.
  let ring = exp(-pow((r - 0.25 - 0.03 * sin(time * 2.0)) * 40.0, 2.0)) * 12.0;
  let glow = vec3f(1.0, 0.55, 0.2) * ring + vec3f(0.02, 0.03, 0.06);
  return vec4f(glow, 1.0);
}
`;

async function main() {
  if (!navigator.gpu) {
    showMessage('This page needs WebGPU, which this browser does not offer (or only on https). ' +
                'Try a current Chrome, Edge or Safari, or Firefox with WebGPU enabled.');
    return;
  }
  await init();
  let renderer;
  try {
    renderer = await Renderer.create(canvas, { autoResize: true, canvas: { screenshots: true } });
  } catch (e) {
    showMessage(`WebGPU could not start: ${e.message}`);
    return;
  }
  window.afterglow = renderer; // for the console and the end-to-end test

  const panel = buildOptionsPanel($('options'), renderer, showError);
  $('reset').addEventListener('click', () => panel.reset());

  // Animation, with a pause that freezes the time.
  let time = 0;
  let last = performance.now();
  let frameMs = 0;
  const frame = (now) => {
    const dt = now - last;
    last = now;
    frameMs = frameMs * 0.9 + dt * 0.1;
    if (!$('pause').checked) time += dt / 1000;
    try {
      renderer.render(time);
    } catch (e) {
      showError(e.message);
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);

  // Stats overlay.
  setInterval(() => {
    const s = renderer.stats({ gpu: true });
    const lines = [
      `frame ${frameMs.toFixed(2)} ms (${(1000 / frameMs).toFixed(0)} fps)`,
      `cpu   ${s.cpuMs.toFixed(3)} ms`,
      `canvas ${s.configuration?.width ?? 0}×${s.configuration?.height ?? 0} ${s.configuration?.format ?? ''}`,
      `gpu memory ${(s.gpuBytes / 1048576).toFixed(1)} MiB`,
    ];
    if (s.gpuMs) {
      const total = Object.values(s.gpuMs).reduce((a, b) => a + b, 0);
      lines.push(`gpu   ${total.toFixed(3)} ms`);
      for (const [pass, ms] of Object.entries(s.gpuMs)) lines.push(`  ${pass.padEnd(20)} ${ms.toFixed(3)}`);
    } else {
      lines.push('gpu   (no timestamp queries)');
    }
    $('stats').textContent = lines.join('\n');
  }, 250);

  // Content.
  const gain = () => Number($('gain').value);
  $('gain').addEventListener('input', () => {
    $('gain').nextElementSibling.value = $('gain').value;
    if (currentImage) showImage(currentImage);
  });
  let currentImage = null;
  function showImage(source) {
    try {
      renderer.setImage(source, { gain: gain() });
      currentImage = source;
      showError();
    } catch (e) {
      showError(e.message);
    }
  }
  async function openFile(file) {
    if (!file) return;
    if (file.type.startsWith('video/')) {
      const video = document.createElement('video');
      video.muted = true;
      video.loop = true;
      video.playsInline = true;
      video.src = URL.createObjectURL(file);
      await video.play();
      video.addEventListener('loadeddata', () => showImage(video), { once: true });
      if (video.readyState >= 2) showImage(video);
    } else {
      showImage(await createImageBitmap(file));
    }
  }
  $('file').addEventListener('change', (e) => openFile(e.target.files[0]));
  $('demo').addEventListener('click', () => {
    currentImage = null;
    renderer.useDemoScene();
  });
  addEventListener('dragover', (e) => {
    e.preventDefault();
    document.body.classList.add('dragging');
  });
  addEventListener('dragleave', () => document.body.classList.remove('dragging'));
  addEventListener('drop', (e) => {
    e.preventDefault();
    document.body.classList.remove('dragging');
    openFile(e.dataTransfer.files[0]);
  });

  // Scene shader editor.
  const dialog = $('shader-dialog');
  $('wgsl').value = DEFAULT_SHADER;
  $('edit-shader').addEventListener('click', () => dialog.showModal());
  async function applyShader() {
    try {
      await renderer.setSceneShader($('wgsl').value);
      currentImage = null;
      $('wgsl-error').textContent = '';
    } catch (e) {
      $('wgsl-error').textContent = e.message;
      if (e.line > 0) {
        const lines = $('wgsl').value.split('\n');
        const start = lines.slice(0, e.line - 1).join('\n').length + (e.line > 1 ? 1 : 0);
        $('wgsl').focus();
        $('wgsl').setSelectionRange(start, start + lines[e.line - 1].length);
      }
    }
  }
  $('apply-shader').addEventListener('click', applyShader);
  $('wgsl').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) applyShader();
  });

  // Screenshot.
  $('screenshot').addEventListener('click', async () => {
    try {
      const blob = await renderer.screenshot();
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = 'afterglow.png';
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    } catch (e) {
      showError(e.message);
    }
  });

  $('toggle-panel').addEventListener('click', () => {
    const collapsed = $('panel').classList.toggle('collapsed');
    $('toggle-panel').textContent = collapsed ? '+' : '–';
  });
}

main();
