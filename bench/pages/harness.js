// What every benchmark page shares: the canvas, and the measuring loops that
// the driver (bench/run.mjs) calls. A page calls `expose()` with
//   info                          { library, backend }
//   setup({ width, height, msaa }) builds its renderer for a canvas of that size
//   frame(t)                       records and submits one frame at time t (seconds)
//   sync()                         resolves when the GPU has finished all of it
// and gets the same window.setup / frame / sync / bench* functions as the others.

/** Sizes the page's canvas to width × height device pixels (the page runs at DPR 1). */
export function sizeCanvas(width, height) {
  const canvas = document.getElementById('view');
  canvas.width = width;
  canvas.height = height;
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  return canvas;
}

// Which GPU the page really ran on, seen from the page itself: every WebGPU
// adapter it was given and the renderer behind every WebGL context it
// waits on (`window.info.adapters`, read by the driver after setup).
export const adapters = [];

if (globalThis.GPU?.prototype.requestAdapter) {
  const request = GPU.prototype.requestAdapter;
  // The first request of a fresh Chromium on some Linux GPUs answers null
  // while its GPU process restarts once ("A valid external Instance
  // reference no longer exists"); a second one gets the GPU. Ask again for
  // up to 10 s rather than measure nothing.
  GPU.prototype.requestAdapter = async function requestAdapterAgain(...args) {
    for (let tries = 1; ; tries++) {
      const adapter = await request.apply(this, args);
      if (adapter || tries === 40) {
        if (adapter) {
          const i = adapter.info ?? {};
          adapters.push({
            api: 'WebGPU',
            name: [i.vendor, i.architecture, i.device, i.description].filter(Boolean).join(' / ') || 'unnamed',
            fallback: Boolean(i.isFallbackAdapter ?? adapter.isFallbackAdapter),
            tries,
          });
        }
        return adapter;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
}

/** The WebGL wait: finish, then read one pixel of the drawing buffer back. */
export function glSyncer(gl) {
  const debug = gl.getExtension('WEBGL_debug_renderer_info');
  adapters.push({
    api: 'WebGL',
    name: debug ? gl.getParameter(debug.UNMASKED_RENDERER_WEBGL) : `${gl.getParameter(gl.RENDERER)} (unmasked name hidden)`,
    fallback: false,
  });
  const pixel = new Uint8Array(4);
  return () => {
    gl.finish();
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// Frame times step by 1/60 s from `start`, the same sequence on every page.
const FRAME_DT = 1 / 60;

export function expose({ info, setup, frame, sync }) {
  info.adapters = adapters;
  Object.assign(window, {
    info,
    setup,
    frame,
    sync,
    /** Milliseconds of frame(t) + sync() for each of n frames. */
    async benchSynced(n, start = 0) {
      await sync();
      const ms = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        frame(start + i * FRAME_DT);
        await sync();
        ms.push(performance.now() - t0);
      }
      return ms;
    },
    /** n frames, one per requestAnimationFrame callback; milliseconds per frame
     * from the first callback until the GPU has finished the last frame. */
    async benchRaf(n, start = 0) {
      await sync();
      const t0 = await new Promise((resolve) => {
        let i = 0;
        let first;
        const tick = () => {
          if (i === 0) first = performance.now();
          if (i === n) {
            resolve(first);
            return;
          }
          frame(start + i * FRAME_DT);
          i += 1;
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
      await sync();
      return (performance.now() - t0) / n;
    },
    /** Milliseconds of the frame(t) call alone, one call per
     * requestAnimationFrame callback as a page renders, each followed by an
     * untimed sync() so that no call waits on a full queue. The first 30
     * calls are not timed: they warm up the JIT.
     *
     * One call per display frame matters: the canvas presents its texture
     * between frames, so every call here fetches a fresh one, as in a real
     * page. Calls back to back within one display frame get the same texture
     * again for almost nothing, and how many of them fit in a display frame
     * depends on how fast the page is, which made the cheapest page's median
     * swing more than tenfold between runs. */
    async benchCpu(n, start = 0) {
      const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      for (let i = 0; i < 30; i++) {
        await nextFrame();
        frame(start - (30 - i) * FRAME_DT);
        await sync();
      }
      const ms = [];
      for (let i = 0; i < n; i++) {
        await nextFrame();
        const t0 = performance.now();
        frame(start + i * FRAME_DT);
        ms.push(performance.now() - t0);
        await sync();
      }
      return { median: median(ms), samples: ms.length };
    },
  });
  window.benchReady = true;
}
