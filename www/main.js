// afterglow demo: a full-window canvas, a panel with every option, a stats
// overlay, drag and drop of images and videos, a WGSL editor, screenshots.
// Plain ES modules: no bundler. ./pkg is the npm package (cargo xtask pack).
import init, { Renderer } from './pkg/index.js';
import { buildOptionsPanel, libraryDefaults, merged } from './panel.js';
import { NIGHT_STREET, CHANGING_LIGHT, HARD_EDGES } from './scenes.js';
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

// The demo's parts, in the order a visitor meets them. Each `setUp…`
// function wires one part of the page to the renderer; `demo` is what
// they share.
async function main() {
  const renderer = await startRenderer();
  if (!renderer) {
    // The counter says so too, rather than "starting…" for good.
    $('stats-toggle').textContent = 'not running';
    return;
  }
  const demo = sharedState(renderer);
  setUpOptionsPanel(demo);
  setUpLooks(demo);
  setUpSplit(demo);
  const clock = animate(demo);
  setUpStats(demo, clock);
  setUpContent(demo);
  effectEditor(renderer, { run: withStatus, changed: () => demo.invalidate() });
  setUpSceneShaders(demo);
  setUpScreenshot(demo);
  // The first screen: the night street, compiled before the first frame
  // (the built-in scene would show until then).
  await demo.showScene(NIGHT_STREET);
  clock.start();
}

// WebGPU, the module and a renderer on the page's canvas, or a message
// that says why not.
async function startRenderer() {
  if (!navigator.gpu) {
    showMessage('This page needs WebGPU, which this browser does not offer (or only on https). ' +
                'Try a current Chrome, Edge or Safari, or Firefox with WebGPU enabled.');
    return null;
  }
  await init();
  try {
    const renderer = await Renderer.create(canvas, DEMO_PRESET);
    window.afterglow = renderer; // for the console and the end-to-end test
    return renderer;
  } catch (e) {
    showMessage(`WebGPU could not start: ${e.message}`);
    return null;
  }
}

// What the parts share: the renderer, the before/after split (a second
// renderer given the same content, options and time), the content shown,
// and how to ask for a frame.
function sharedState(renderer) {
  const split = new Split(renderer, canvas);
  window.afterglowSplit = split; // for the end-to-end test and the pictures
  const demo = {
    renderer,
    split,
    panel: null,
    // The image or video shown, if any (a video needs a frame while it plays).
    image: null,
    // Set by `animate`: asks for a frame while paused.
    invalidate: () => {},
    // After any change of the options: a frame, and the split's copy.
    changed() {
      demo.invalidate();
      try {
        split.syncOptions();
      } catch (e) {
        showError(e.message);
      }
    },
    // Content given to the split too; its errors are the page's.
    showInSplit(content) {
      split.setContent(content).then(demo.invalidate, (e) => showError(e.message));
      demo.invalidate();
    },
    // Set by `setUpSceneShaders`: resolves to whether the scene compiled.
    showScene: async () => false,
    // Set by `setUpSceneShaders`: the hard-edged scene's pixel view.
    pixels: { enter() {}, leave() {} },
  };
  return demo;
}

// The panel of every option, the two preset buttons and the screenshot
// button's state (it needs canvas.screenshots).
function setUpOptionsPanel(demo) {
  const { renderer } = demo;
  const syncScreenshotButton = () => {
    const on = renderer.options().canvas.screenshots;
    $('screenshot').disabled = !on;
    $('screenshot').title = on ? 'Save the current frame as a PNG' : 'Needs canvas.screenshots';
  };
  demo.panel = buildOptionsPanel($('options'), renderer, () => {
    showError();
    demo.changed();
    syncScreenshotButton();
  });
  // Library defaults: what Renderer.create gives a renderer with no
  // options (the canvas then keeps its size and screenshots are off).
  // Demo preset: what this page started with.
  const presets = { 'library-defaults': libraryDefaults(), 'demo-preset': merged(libraryDefaults(), DEMO_PRESET) };
  for (const [id, options] of Object.entries(presets)) {
    $(id).addEventListener('click', () => {
      try {
        demo.panel.apply(options);
      } catch (e) {
        showError(e.message);
      }
    });
  }
  syncScreenshotButton();
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

function setUpLooks(demo) {
  const { renderer } = demo;
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
    demo.panel.sync();
    showError();
    demo.changed();
  }
  for (const button of document.querySelectorAll('#looks [data-look]')) {
    button.addEventListener('click', () => {
      applyLook(button.dataset.look).catch((e) => showError(e.message));
    });
  }
}

// The before/after split: the frame without the look left of a divider.
function setUpSplit(demo) {
  $('compare').addEventListener('change', async () => {
    const box = $('compare');
    try {
      if (box.checked) await withStatus('Starting the split…', () => demo.split.enable());
      else demo.split.disable();
      demo.invalidate();
      showError();
    } catch (e) {
      box.checked = false;
      showError(`The before/after split could not start: ${e.message}`);
    }
  });
}

// Animation, with a pause that freezes the time. While paused, a frame is
// drawn only when something changed (an option, the content, the window
// size) or a video plays: a still image costs no GPU time. Returns the
// clock: `start()`, and the smoothed frame time for the stats, null until
// two frames were drawn (the stats run from before the first frame, while
// the first scene compiles).
function animate(demo) {
  let dirty = true;
  demo.invalidate = () => { dirty = true; };
  addEventListener('resize', demo.invalidate);
  $('pause').addEventListener('change', demo.invalidate);
  const clock = { frameMs: null, start: () => requestAnimationFrame(frame) };
  let time = 0;
  // The previous frame's time. The first frame has none: the time since
  // the page set up (the first compile, seconds of it) is no frame time,
  // nor time the scene should jump by.
  let last = null;
  function frame(now) {
    const dt = last === null ? 0 : Math.max(0, now - last);
    if (last !== null && dt > 0) clock.frameMs = clock.frameMs === null ? dt : clock.frameMs * 0.9 + dt * 0.1;
    last = now;
    const paused = $('pause').checked;
    if (!paused) time += dt / 1000;
    try {
      if (!paused || dirty || demo.image instanceof HTMLVideoElement) {
        demo.renderer.render(time);
        demo.split.render(time);
      }
      dirty = false;
    } catch (e) {
      showError(e.message);
    }
    requestAnimationFrame(frame);
  }
  return clock;
}

// The stats overlay, four times a second. What the display gets: on an
// HDR display with the extended canvas, highlights above SDR white up to
// canvas.headroom. GPU timing costs a query per pass: asked for once the
// overlay opens.
function setUpStats(demo, clock) {
  const { renderer } = demo;
  const hdrDisplay = matchMedia('(dynamic-range: high)');
  const displayLine = (config) => {
    const display = hdrDisplay.matches ? 'HDR display' : 'SDR display';
    if (config?.toneMapping?.mode === 'extended') {
      return `${display}, extended: highlights up to ${renderer.options().canvas.headroom}× SDR white`;
    }
    // An HDR display the engine cannot drive (no rgba16float canvas, say).
    const held = hdrDisplay.matches && config?.dynamicRange?.hdr === false ? ` (${config.dynamicRange.why})` : '';
    return `${display}, standard: SDR white is the peak${held}`;
  };
  setInterval(() => {
    const open = !$('stats').hidden;
    const s = renderer.stats(open ? { gpu: true } : undefined);
    // No rate until two frames were drawn (see `animate`).
    const started = clock.frameMs !== null;
    const fps = started ? `${(1000 / clock.frameMs).toFixed(0)} fps` : 'starting…';
    const ev = s.exposureEv !== null ? ` · ${s.exposureEv >= 0 ? '+' : '−'}${Math.abs(s.exposureEv).toFixed(1)} EV` : '';
    $('stats-toggle').textContent = `${fps}${ev} ${open ? '▾' : '▸'}`;
    // Beside the resolution's controls, what they cost.
    const gpu = s.gpuMs ? ` · GPU ${Object.values(s.gpuMs).reduce((a, b) => a + b, 0).toFixed(2)} ms` : '';
    $('resolution-frame').textContent = started
      ? `frame ${clock.frameMs.toFixed(2)} ms (${fps})${gpu}` : 'frame: starting…';
    if (!open) return;
    const lines = [
      started ? `frame ${clock.frameMs.toFixed(2)} ms (${fps})` : 'frame (starting…: none drawn yet)',
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
}

// Content: an image or a video opened or dropped on the page (its light
// multiplied by the gain), or the built-in cubes.
function setUpContent(demo) {
  const { renderer } = demo;
  const gain = () => Number($('gain').value);
  function showImage(source) {
    try {
      renderer.setImage(source, { gain: gain() });
      demo.pixels.leave();
      demo.image = source;
      demo.showInSplit({ kind: 'image', source, gain: gain() });
      showContentError();
    } catch (e) {
      showContentError(e.message);
    }
  }
  $('gain').addEventListener('input', () => {
    $('gain').nextElementSibling.value = Number($('gain').value).toFixed(1);
    if (demo.image) showImage(demo.image);
  });
  const open = (file) => openFile(file, showImage);
  $('file').addEventListener('change', (e) => open(e.target.files[0]));
  $('open-file').addEventListener('click', () => $('file').click());
  $('demo').addEventListener('click', () => {
    demo.image = null;
    demo.pixels.leave();
    renderer.useDemoScene();
    demo.showInSplit({ kind: 'demo' });
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
    open(e.dataTransfer.files[0]);
  });
}

// A dropped or chosen file, decoded as a video (played, muted, looping) or
// an image, and handed to `show`; what cannot be decoded is said under the
// content's controls.
async function openFile(file, show) {
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
      if (video.readyState >= 2) show(video);
      else video.addEventListener('loadeddata', () => show(video), { once: true });
    } else {
      show(await createImageBitmap(file));
    }
  } catch (e) {
    showContentError(`Could not open ${name} (${file.type || 'unknown type'}): ` +
      'it is not an image or video this browser can decode.');
  }
}

// The scenes (the night street, the changing light, the hard edges) and
// the scene shader editor, which holds the WGSL of the scene last chosen.
// The hard edges are shown in the pixel view until other content is
// chosen by its button; applying from the editor keeps the view as it is.
function setUpSceneShaders(demo) {
  const dialog = $('shader-dialog');
  $('edit-shader').addEventListener('click', () => dialog.showModal());
  const apply = () => applyShader(demo).finally(() => { $('wgsl-status').textContent = ''; });
  demo.showScene = async (wgsl) => {
    $('wgsl').value = wgsl;
    return applyShader(demo);
  };
  demo.pixels = pixelView(demo);
  $('street').addEventListener('click', () => {
    demo.pixels.leave();
    demo.showScene(NIGHT_STREET);
  });
  $('changing-light').addEventListener('click', async () => {
    demo.pixels.leave();
    try {
      demo.panel.apply({ autoExposure: { enabled: true } });
    } catch (e) {
      showError(e.message);
    }
    await demo.showScene(CHANGING_LIGHT);
  });
  $('hard-edges').addEventListener('click', async () => {
    if (await demo.showScene(HARD_EDGES)) demo.pixels.enter();
  });
  $('apply-shader').addEventListener('click', apply);
  $('wgsl').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) apply();
  });
}

// The pixel view of the hard-edged scene: one canvas pixel per CSS pixel,
// magnified by the browser without smoothing (image-rendering: pixelated).
// On a screen of two or three device pixels per CSS pixel the stair steps
// the scene is about would be too small to see at the canvas's usual
// device-pixel size, and a smoothed magnification would blur them away;
// at one device pixel per CSS pixel nothing changes but the panel. While
// it is on, the demo sizes the canvas itself (autoResize off, a resize()
// on every window resize) and holds the exposure (auto exposure off: it
// would meter the dark ground up to grey). `leave()` puts both back as
// they were, each unless it was changed meanwhile; `autoResize` turned on
// again meanwhile simply takes the canvas back to device pixels.
function pixelView(demo) {
  const { renderer } = demo;
  let saved = null;
  const fit = () => {
    if (renderer.options().autoResize) return;
    try {
      renderer.resize(Math.max(1, Math.round(canvas.clientWidth)), Math.max(1, Math.round(canvas.clientHeight)));
    } catch (e) {
      showError(e.message);
    }
    demo.invalidate();
  };
  const held = { autoResize: false, autoExposure: { enabled: false } };
  const set = (options) => {
    try {
      demo.panel.apply(options);
    } catch (e) {
      showError(e.message);
    }
  };
  return {
    enter() {
      if (saved) return;
      const o = renderer.options();
      saved = { autoResize: o.autoResize, autoExposure: { enabled: o.autoExposure.enabled } };
      set(held);
      fit();
      addEventListener('resize', fit);
      canvas.classList.add('pixelated');
      $('hard-edges-hint').hidden = false;
    },
    leave() {
      if (!saved) return;
      removeEventListener('resize', fit);
      canvas.classList.remove('pixelated');
      $('hard-edges-hint').hidden = true;
      const o = renderer.options();
      const back = {};
      if (o.autoResize === held.autoResize) back.autoResize = saved.autoResize;
      if (o.autoExposure.enabled === held.autoExposure.enabled) back.autoExposure = saved.autoExposure;
      if (back.autoResize) {
        // Device pixels first, as the observer would size it: a canvas
        // whose attributes equal its CSS size when autoResize starts would
        // have that CSS size pinned (the library's guard for an unstyled
        // canvas), and then stop following the window.
        const ratio = devicePixelRatio;
        try {
          renderer.resize(Math.round(canvas.clientWidth * ratio), Math.round(canvas.clientHeight * ratio));
        } catch (e) {
          showError(e.message);
        }
      }
      saved = null;
      set(back);
    },
  };
}

// Compiles the editor's WGSL as the scene; resolves to whether it
// compiled. A compile error is shown under the editor, with the
// compiler's further lines on hover and the line it names selected.
async function applyShader(demo) {
  try {
    $('wgsl-status').textContent = 'Compiling…';
    const wgsl = $('wgsl').value;
    await withStatus('Compiling shader…', () => demo.renderer.setSceneShader(wgsl));
    demo.image = null;
    demo.showInSplit({ kind: 'shader', wgsl });
    $('wgsl-error').textContent = '';
    $('wgsl-error').title = '';
    showContentError();
    return true;
  } catch (e) {
    $('wgsl-error').textContent = e.message;
    $('wgsl-error').title = e.details ?? '';
    if (e.line > 0 && e.line <= $('wgsl').value.split('\n').length) {
      const lines = $('wgsl').value.split('\n');
      const start = lines.slice(0, e.line - 1).join('\n').length + (e.line > 1 ? 1 : 0);
      $('wgsl').focus();
      $('wgsl').setSelectionRange(start, start + lines[e.line - 1].length);
    }
    showContentError(`The scene shader did not compile: ${e.message}`);
    return false;
  }
}

// The screenshot button: the current frame as a PNG download.
function setUpScreenshot(demo) {
  $('screenshot').addEventListener('click', async () => {
    try {
      const blob = await withStatus('Saving screenshot…', () => demo.renderer.screenshot());
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
}

main();
