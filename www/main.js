// afterglow demo: a full-window canvas, a panel with every option, a stats
// overlay, drag and drop of images and videos, a WGSL editor, screenshots.
// Plain ES modules: no bundler. ./pkg is the npm package (cargo xtask pack).
import init, { Renderer } from './pkg/index.js';
import { buildOptionsPanel, libraryDefaults, merged } from './panel.js';
import { NIGHT_STREET, CHANGING_LIGHT } from './scenes.js';
import { Split } from './compare.js';
import { lensDirt } from './looks/dirt.js';
import { effectEditor } from './effect-editor.js';

// What the page starts with, over the library's defaults: HDR output where
// the display has it, auto exposure (held a stop below mid grey, and at
// most 3 EV up, so a night stays a night), half the default bloom (a street
// of many lamps in mist would otherwise turn to fog), screenshots, and a
// canvas that follows its box.
const DEMO_PRESET = {
  autoResize: true,
  canvas: { dynamicRange: 'auto', screenshots: true },
  autoExposure: { enabled: true, compensation: -1, maxEv: 3 },
  bloom: { intensity: 0.8 },
};

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

// Errors of the content (drops, files, images), shown under its controls.
function showContentError(text) {
  $('content-error').textContent = text ?? '';
}

// A status line with a spinner in the panel's header while something slow
// runs (a shader compile, a screenshot); the latest task's text wins.
let busy = 0;
async function withStatus(text, task) {
  busy++;
  $('status').textContent = text;
  $('status').classList.add('busy');
  try {
    return await task();
  } finally {
    if (--busy === 0) {
      $('status').textContent = '';
      $('status').classList.remove('busy');
    }
  }
}

function setPanelCollapsed(collapsed) {
  $('panel').classList.toggle('collapsed', collapsed);
  $('toggle-panel').textContent = collapsed ? '+' : '–';
  $('toggle-panel').setAttribute('aria-expanded', String(!collapsed));
}
// Narrow screens start with the panel folded, so the canvas shows.
setPanelCollapsed(matchMedia('(max-width: 600px)').matches);
$('toggle-panel').addEventListener('click', () => {
  setPanelCollapsed(!$('panel').classList.contains('collapsed'));
});
// The option table's line under each control, for touch screens (no
// hover) and for anyone who wants them all in view.
$('explain').addEventListener('click', () => {
  const on = $('panel').classList.toggle('explain');
  $('explain').setAttribute('aria-pressed', String(on));
});

// The stats overlay: one line (frame rate, and the exposure when it is
// automatic) until opened.
function setStatsOpen(open) {
  $('stats').hidden = !open;
  $('stats-toggle').setAttribute('aria-expanded', String(open));
}
$('stats-toggle').addEventListener('click', () => setStatsOpen($('stats').hidden));

async function main() {
  if (!navigator.gpu) {
    showMessage('This page needs WebGPU, which this browser does not offer (or only on https). ' +
                'Try a current Chrome, Edge or Safari, or Firefox with WebGPU enabled.');
    return;
  }
  await init();
  let renderer;
  try {
    renderer = await Renderer.create(canvas, DEMO_PRESET);
  } catch (e) {
    showMessage(`WebGPU could not start: ${e.message}`);
    return;
  }
  window.afterglow = renderer; // for the console and the end-to-end test

  let invalidate = () => {};
  const split = new Split(renderer, canvas);
  window.afterglowSplit = split; // for the end-to-end test and the pictures
  // After any change of the options: a frame, and the split's copy.
  const changed = () => {
    invalidate();
    try {
      split.syncOptions();
    } catch (e) {
      showError(e.message);
    }
  };
  const panel = buildOptionsPanel($('options'), renderer, () => {
    showError();
    changed();
    syncScreenshotButton();
  });
  // Library defaults: what Renderer.create gives a renderer with no
  // options (the canvas then keeps its size and screenshots are off).
  // Demo preset: what this page started with.
  const presets = { 'library-defaults': libraryDefaults(), 'demo-preset': merged(libraryDefaults(), DEMO_PRESET) };
  for (const [id, options] of Object.entries(presets)) {
    $(id).addEventListener('click', () => {
      try {
        panel.apply(options);
      } catch (e) {
        showError(e.message);
      }
    });
  }
  // Looks: grading, vignette, a lookup table and lens dirt, applied over
  // the current options. Each look sets all four, so one replaces another.
  const NEUTRAL = { temperature: 0, tint: 0, saturation: 1, contrast: 1, lutIntensity: 1 };
  const LOOKS = {
    neutral: { grading: NEUTRAL, vignette: { intensity: 0 } },
    warm: { grading: { ...NEUTRAL, temperature: 0.35, tint: 0.05, saturation: 1.1, contrast: 1.05 }, vignette: { intensity: 0.3, radius: 0.5, smoothness: 0.5 } },
    cold: { grading: { ...NEUTRAL, temperature: -0.4, tint: -0.05, saturation: 0.85, contrast: 1.15 }, vignette: { intensity: 0 } },
    faded: { grading: { ...NEUTRAL, temperature: 0.1, saturation: 0.6, contrast: 0.8 }, vignette: { intensity: 0.6, radius: 0.35, smoothness: 0.6 } },
    // A .cube file from a grading tool (./looks/film.cube: an S-curve,
    // lifted blacks, warm highlights and teal shadows), after the curve.
    film: { grading: NEUTRAL, vignette: { intensity: 0.25, radius: 0.55, smoothness: 0.5 }, lut: true },
    // Dust on the lens lit by the bloom (./looks/dirt.js draws it).
    dirty: { grading: NEUTRAL, vignette: { intensity: 0 }, bloom: { dirtIntensity: 6 }, dirt: true },
  };
  let filmCube = null;
  let dirtCanvas = null;
  // The latest click wins: a look still loading when another is clicked
  // stops at its next step.
  let lookClicks = 0;
  async function applyLook(name) {
    const click = ++lookClicks;
    const { lut, dirt, ...options } = LOOKS[name];
    if (lut) filmCube ??= await (await fetch('./looks/film.cube')).text();
    if (click !== lookClicks) return;
    renderer.setLut(lut ? filmCube : null);
    if (dirt) dirtCanvas ??= lensDirt();
    await renderer.setLensDirt(dirt ? dirtCanvas : null);
    if (click !== lookClicks) return;
    renderer.setOptions(options);
    panel.sync();
    showError();
    changed();
  }
  for (const button of document.querySelectorAll('#looks [data-look]')) {
    button.addEventListener('click', () => {
      applyLook(button.dataset.look).catch((e) => showError(e.message));
    });
  }
  $('compare').addEventListener('change', async () => {
    const box = $('compare');
    try {
      if (box.checked) await withStatus('Starting the split…', () => split.enable());
      else split.disable();
      invalidate();
      showError();
    } catch (e) {
      box.checked = false;
      showError(`The before/after split could not start: ${e.message}`);
    }
  });
  function syncScreenshotButton() {
    const on = renderer.options().canvas.screenshots;
    $('screenshot').disabled = !on;
    $('screenshot').title = on ? 'Save the current frame as a PNG' : 'Needs canvas.screenshots';
  }
  syncScreenshotButton();

  // Animation, with a pause that freezes the time. While paused, a frame is
  // drawn only when something changed (an option, the content, the window
  // size) or a video plays: a still image costs no GPU time.
  let dirty = true;
  invalidate = () => { dirty = true; };
  addEventListener('resize', invalidate);
  $('pause').addEventListener('change', invalidate);
  let time = 0;
  let last = performance.now();
  let frameMs = 0;
  const frame = (now) => {
    const dt = now - last;
    last = now;
    frameMs = frameMs ? frameMs * 0.9 + dt * 0.1 : dt;
    const paused = $('pause').checked;
    if (!paused) time += dt / 1000;
    try {
      if (!paused || dirty || currentImage instanceof HTMLVideoElement) {
        renderer.render(time);
        split.render(time);
      }
      dirty = false;
    } catch (e) {
      showError(e.message);
    }
    requestAnimationFrame(frame);
  };

  // Stats overlay. What the display gets: on an HDR display with the
  // extended canvas, highlights above SDR white up to canvas.headroom.
  const hdrDisplay = matchMedia('(dynamic-range: high)');
  const displayLine = (config) => {
    const display = hdrDisplay.matches ? 'HDR display' : 'SDR display';
    if (config?.toneMapping?.mode === 'extended') {
      return `${display}, extended: highlights up to ${renderer.options().canvas.headroom}× SDR white`;
    }
    return `${display}, standard: SDR white is the peak`;
  };
  // GPU timing costs a query per pass: asked for once the overlay opens.
  setInterval(() => {
    const open = !$('stats').hidden;
    const s = renderer.stats(open ? { gpu: true } : undefined);
    const fps = `${(1000 / frameMs).toFixed(0)} fps`;
    const ev = s.exposureEv !== null ? ` · ${s.exposureEv >= 0 ? '+' : '−'}${Math.abs(s.exposureEv).toFixed(1)} EV` : '';
    $('stats-toggle').textContent = `${fps}${ev} ${open ? '▾' : '▸'}`;
    if (!open) return;
    const lines = [
      `frame ${frameMs.toFixed(2)} ms (${fps})`,
      `cpu   ${s.cpuMs.toFixed(3)} ms`,
      `canvas ${s.configuration?.width ?? 0}×${s.configuration?.height ?? 0} ${s.configuration?.format ?? ''}`,
      `gpu memory ${(s.gpuBytes / 1048576).toFixed(1)} MiB`,
    ];
    if (s.exposureEv !== null) lines.push(`exposure ${s.exposureEv.toFixed(2)} EV (auto)`);
    lines.push(displayLine(s.configuration));
    if (s.gpuMs) {
      const total = Object.values(s.gpuMs).reduce((a, b) => a + b, 0);
      lines.push(`gpu   ${total.toFixed(3)} ms`);
      for (const [pass, ms] of Object.entries(s.gpuMs)) lines.push(`  ${pass.padEnd(20)} ${ms.toFixed(3)}`);
    } else {
      lines.push('gpu   (no timings: none yet, or no timestamp queries)');
    }
    $('stats').textContent = lines.join('\n');
  }, 250);

  // Content.
  const gain = () => Number($('gain').value);
  $('gain').addEventListener('input', () => {
    $('gain').nextElementSibling.value = Number($('gain').value).toFixed(1);
    if (currentImage) showImage(currentImage);
  });
  let currentImage = null;
  function showImage(source) {
    try {
      renderer.setImage(source, { gain: gain() });
      currentImage = source;
      split.setContent({ kind: 'image', source, gain: gain() }).then(invalidate, (e) => showError(e.message));
      invalidate();
      showContentError();
    } catch (e) {
      showContentError(e.message);
    }
  }
  async function openFile(file) {
    if (!file) {
      showContentError('Nothing to open: drop an image or a video file.');
      return;
    }
    const name = file.name || 'the file';
    try {
      if (file.type.startsWith('video/')) {
        const video = document.createElement('video');
        video.muted = true;
        video.loop = true;
        video.playsInline = true;
        video.src = URL.createObjectURL(file);
        await video.play();
        if (video.readyState >= 2) showImage(video);
        else video.addEventListener('loadeddata', () => showImage(video), { once: true });
      } else {
        showImage(await createImageBitmap(file));
      }
    } catch (e) {
      showContentError(`Could not open ${name} (${file.type || 'unknown type'}): ` +
        'it is not an image or video this browser can decode.');
    }
  }
  $('file').addEventListener('change', (e) => openFile(e.target.files[0]));
  $('demo').addEventListener('click', () => {
    currentImage = null;
    renderer.useDemoScene();
    split.setContent({ kind: 'demo' }).then(invalidate, (e) => showError(e.message));
    invalidate();
    showContentError();
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

  effectEditor(renderer, { run: withStatus, changed: () => invalidate() });

  // Scene shader editor. It holds the WGSL of the scene last chosen.
  const dialog = $('shader-dialog');
  $('edit-shader').addEventListener('click', () => dialog.showModal());
  $('open-file').addEventListener('click', () => $('file').click());
  async function applyShader() {
    try {
      $('wgsl-status').textContent = 'Compiling…';
      const wgsl = $('wgsl').value;
      await withStatus('Compiling shader…', () => renderer.setSceneShader(wgsl));
      currentImage = null;
      split.setContent({ kind: 'shader', wgsl }).then(invalidate, (e) => showError(e.message));
      invalidate();
      $('wgsl-error').textContent = '';
      $('wgsl-error').title = '';
      showContentError();
    } catch (e) {
      $('wgsl-error').textContent = e.message;
      // The compiler's further lines (candidate overloads, notes) on hover.
      $('wgsl-error').title = e.details ?? '';
      if (e.line > 0 && e.line <= $('wgsl').value.split('\n').length) {
        const lines = $('wgsl').value.split('\n');
        const start = lines.slice(0, e.line - 1).join('\n').length + (e.line > 1 ? 1 : 0);
        $('wgsl').focus();
        $('wgsl').setSelectionRange(start, start + lines[e.line - 1].length);
      }
      showContentError(`The scene shader did not compile: ${e.message}`);
    }
  }
  async function showScene(wgsl) {
    $('wgsl').value = wgsl;
    await applyShader();
  }
  $('street').addEventListener('click', () => showScene(NIGHT_STREET));
  $('changing-light').addEventListener('click', async () => {
    try {
      panel.apply({ autoExposure: { enabled: true } });
    } catch (e) {
      showError(e.message);
    }
    await showScene(CHANGING_LIGHT);
  });
  $('apply-shader').addEventListener('click', () => applyShader().finally(() => {
    $('wgsl-status').textContent = '';
  }));
  $('wgsl').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      applyShader().finally(() => { $('wgsl-status').textContent = ''; });
    }
  });

  // Screenshot.
  $('screenshot').addEventListener('click', async () => {
    try {
      const blob = await withStatus('Saving screenshot…', () => renderer.screenshot());
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = 'afterglow.png';
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
      showError();
    } catch (e) {
      showError(e.message);
    }
  });

  // The first screen: the night street, compiled before the first frame
  // (the built-in scene would show until then).
  await showScene(NIGHT_STREET);
  requestAnimationFrame(frame);
}

main();
