// The demo's before/after split: a second renderer on a canvas laid over
// the left part of the page's, drawing the same content with the same
// options and time but without the look (no grading, vignette, fringes,
// grain, lookup table or lens dirt). The divider is dragged, or moved with the arrow keys.
import { Renderer } from './pkg/index.js';

/** `options` with every control of the look at its identity. */
function withoutLook(options) {
  return {
    ...options,
    // Screenshots are the page's renderer's business.
    canvas: { ...options.canvas, screenshots: false },
    grading: { ...options.grading, temperature: 0, tint: 0, saturation: 1, contrast: 1 },
    vignette: { ...options.vignette, intensity: 0 },
    lens: { ...options.lens, chromaticAberration: 0 },
    grain: { ...options.grain, intensity: 0 },
  };
}

export class Split {
  /** `main`: the page's renderer; `view`: its canvas. */
  constructor(main, view) {
    this.main = main;
    this.view = view;
    this.renderer = null;
    this.canvas = null;
    this.divider = null;
    this.content = { kind: 'demo' };
    this.at = 0.5;
    // Bumped by every enable() and disable(): an enable() that finds it
    // changed after a wait was overtaken, and undoes what it made.
    this.generation = 0;
  }

  get on() {
    return this.renderer !== null;
  }

  /** What the page shows: `{ kind: 'shader', wgsl }`, `{ kind: 'image', source, gain }` or `{ kind: 'demo' }`. */
  async setContent(content) {
    this.content = content;
    if (this.renderer) await show(this.renderer, content);
  }

  /** Starts the split; resolves once it draws (or, overtaken by a later
   * enable() or disable(), once what it made is undone). */
  async enable() {
    if (this.renderer) return;
    const generation = ++this.generation;
    const canvas = document.createElement('canvas');
    canvas.className = 'before';
    canvas.setAttribute('aria-hidden', 'true');
    this.view.after(canvas);
    let renderer;
    let content;
    try {
      renderer = await Renderer.create(canvas, this.options());
      // Content set while it was being shown is shown again.
      do {
        content = this.content;
        if (generation === this.generation) await show(renderer, content);
      } while (content !== this.content && generation === this.generation);
    } catch (e) {
      renderer?.destroy();
      canvas.remove();
      if (generation === this.generation) throw e;
      return;
    }
    if (generation !== this.generation) {
      renderer.destroy();
      canvas.remove();
      return;
    }
    // Options changed while it started.
    renderer.setOptions(this.options());
    this.canvas = canvas;
    this.renderer = renderer;
    this.divider = divider((at) => this.move(at));
    canvas.after(this.divider);
    this.move(this.at);
  }

  disable() {
    this.generation++;
    this.renderer?.destroy();
    this.canvas?.remove();
    this.divider?.remove();
    this.renderer = this.canvas = this.divider = null;
  }

  /** The split's position, 0 (all after) to 1 (all before). */
  move(at) {
    this.at = Math.min(1, Math.max(0, at));
    if (!this.canvas) return;
    const percent = (this.at * 100).toFixed(2);
    this.canvas.style.clipPath = `inset(0 ${(100 - this.at * 100).toFixed(2)}% 0 0)`;
    this.divider.style.left = `${percent}%`;
    const value = Math.round(this.at * 100);
    this.divider.setAttribute('aria-valuenow', String(value));
    this.divider.setAttribute('aria-valuetext', `${value} % of the width without the look`);
  }

  /** The page's options without the look; the canvas follows its box (the page's may not). */
  options() {
    return { ...withoutLook(this.main.options()), autoResize: true };
  }

  /** The page's options changed: the same ones, without the look. */
  syncOptions() {
    this.renderer?.setOptions(this.options());
  }

  render(time) {
    this.renderer?.render(time);
  }

  resetExposure() {
    this.renderer?.resetExposure();
  }
}

function show(renderer, content) {
  if (content.kind === 'shader') return renderer.setSceneShader(content.wgsl);
  if (content.kind === 'image') return renderer.setImage(content.source, { gain: content.gain });
  return renderer.useDemoScene();
}

/** The divider: a 44 px wide handle around a line, with the two names. */
function divider(onMove) {
  const handle = document.createElement('div');
  handle.id = 'split';
  handle.tabIndex = 0;
  handle.setAttribute('role', 'slider');
  handle.setAttribute('aria-label', 'Before/after split: left of it, the picture without the look');
  handle.setAttribute('aria-valuemin', '0');
  handle.setAttribute('aria-valuemax', '100');
  handle.title = 'Drag: left of the line, the picture without the look';
  handle.innerHTML = '<span class="before">before</span><span class="after">after</span>';
  const at = (e) => onMove(e.clientX / innerWidth);
  handle.addEventListener('pointerdown', (e) => {
    handle.setPointerCapture(e.pointerId);
    at(e);
  });
  handle.addEventListener('pointermove', (e) => {
    if (handle.hasPointerCapture(e.pointerId)) at(e);
  });
  handle.addEventListener('keydown', (e) => {
    const now = Number(handle.getAttribute('aria-valuenow')) / 100;
    const to = {
      ArrowLeft: now - 0.05, ArrowDown: now - 0.05, PageDown: now - 0.25,
      ArrowRight: now + 0.05, ArrowUp: now + 0.05, PageUp: now + 0.25,
      Home: 0, End: 1,
    }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    onMove(to);
  });
  return handle;
}
