// What every benchmark page shares: the canvas, and the measuring loops that
// the driver (bench/run.mjs) calls. A page calls `expose()` with
//   info                          { library, backend }
//   setup({ width, height, msaa }) builds its renderer for a canvas of that size
//   frame(t)                       records and submits one frame at time t (seconds)
//   sync()                         resolves when the GPU has finished all of it
//   scene(t)                       optional: the scene alone, drawn as the
//                                  library draws it into its post chain's
//                                  input target, with nothing after it
//   timer                          optional: the GPU's own clock, as
//                                  { name, enable(), measure(draw) } (below)
// and gets the same window.setup / frame / sync / bench* functions as the others.
//
// A timer's `enable()` resolves to null once timing is on, or to why this
// browser has no such timer; it is called once, after every other
// measurement of the page, since timing may change how the page draws.
// `measure(draw)` calls `draw()` (which records and submits work) and
// resolves to the GPU milliseconds of that work, or to null where that one
// result was lost (a disjoint WebGL query, a result that never arrived).

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

/** A GPU timer for the WebGL 2 context `context()` returns (the page's,
 * once set up): a TIME_ELAPSED_EXT query (EXT_disjoint_timer_query_webgl2)
 * around everything `draw` issues. A result made while the GPU was
 * disjoint (GPU_DISJOINT_EXT: its clock changed, another context took it)
 * is not a time, and is dropped. */
export function glTimer(context) {
  let gl = null;
  let ext = null;
  return {
    name: 'EXT_disjoint_timer_query_webgl2',
    async enable() {
      gl = context();
      ext = gl.getExtension('EXT_disjoint_timer_query_webgl2');
      return ext ? null : 'the WebGL 2 context has no EXT_disjoint_timer_query_webgl2';
    },
    async measure(draw) {
      gl.getParameter(ext.GPU_DISJOINT_EXT); // reading the flag clears it
      const query = gl.createQuery();
      gl.beginQuery(ext.TIME_ELAPSED_EXT, query);
      draw();
      gl.endQuery(ext.TIME_ELAPSED_EXT);
      // WebGL never makes a result available in the task that asked for
      // it: poll from later tasks.
      const deadline = performance.now() + 10_000;
      while (!gl.getQueryParameter(query, gl.QUERY_RESULT_AVAILABLE)) {
        if (performance.now() > deadline) {
          gl.deleteQuery(query);
          return null;
        }
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      const ns = gl.getQueryParameter(query, gl.QUERY_RESULT);
      const disjoint = gl.getParameter(ext.GPU_DISJOINT_EXT);
      gl.deleteQuery(query);
      return disjoint ? null : ns / 1e6;
    },
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// Frame times step by 1/60 s from `start`, the same sequence on every page.
const FRAME_DT = 1 / 60;

export function expose({ info, setup, frame, sync, scene = null, timer = null }) {
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
    /** n frames queued back to back in one task, with no wait between
     * them, then one wait for the GPU to finish them all: milliseconds per
     * frame of the whole, the rate at which the GPU gets through frames
     * when it is never left idle. */
    async benchThroughput(n, start = 0) {
      await sync();
      const t0 = performance.now();
      for (let i = 0; i < n; i++) frame(start + i * FRAME_DT);
      await sync();
      return (performance.now() - t0) / n;
    },
    /** GPU milliseconds, read from the GPU's own timer, of n frames and of
     * n draws of the scene alone (where the page has `scene`), each drawn
     * and timed on its own: { timer, frame: { ms, lost }, scene }, or
     * { timer, missing } where this browser has no timer for the page. */
    async benchGpu(n, start = 0) {
      if (!timer) return { timer: null, missing: 'the page has no GPU timer' };
      const missing = await timer.enable();
      if (missing) return { timer: timer.name, missing };
      const series = async (draw) => {
        // Untimed first: timing may have rebuilt what draws, and the first
        // use of a path may compile.
        draw(start - FRAME_DT);
        await sync();
        const ms = [];
        let lost = 0;
        for (let i = 0; i < n; i++) {
          const x = await timer.measure(() => draw(start + i * FRAME_DT));
          await sync();
          if (x === null) lost += 1;
          else ms.push(x);
        }
        return { ms, lost };
      };
      return { timer: timer.name, frame: await series(frame), scene: scene ? await series(scene) : null };
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
