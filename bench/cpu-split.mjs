// How one frame() call's CPU time splits between the browser's WebGPU
// methods and everything else (the page's or library's own code: for
// afterglow its wasm and the JavaScript glue), in headless Chromium at
// 64×64: afterglow's bench page beside the two plain-WebGPU floors that
// draw into rgba16float and then the canvas, or only clear the canvas.
// Every method of the WebGPU classes is wrapped with a timer, so the
// totals are a little above those of `cargo xtask bench`, and more so
// for a page that makes more calls.
//
//   node bench/cpu-split.mjs [calls] [rounds]
//
// Expects the repository root served at BENCH_URL (default
// http://127.0.0.1:8000/), as `cargo xtask bench` serves it.
import { baseUrl, launch, median, openPage } from './browser.mjs';

const [calls = '400', rounds = '3'] = process.argv.slice(2);
const PAGES = [
  { id: 'afterglow', name: 'afterglow' },
  { id: 'floor', name: 'floor: scene → rgba16float → canvas', query: { floor: 'hdr' } },
  { id: 'floor', name: 'floor: clear only', query: { floor: 'clear' } },
];

/** Runs in the page: wraps the WebGPU methods, then times `n` frame()
 * calls, one per animation frame, each followed by the page's sync(). */
async function measure(n) {
  const byMethod = {};
  let inside = 0;
  let depth = 0;
  let count = 0;
  for (const name of Object.getOwnPropertyNames(window)) {
    const proto = name.startsWith('GPU') ? window[name]?.prototype : null;
    if (!proto) continue;
    for (const method of Object.getOwnPropertyNames(proto)) {
      const d = Object.getOwnPropertyDescriptor(proto, method);
      if (typeof d.value !== 'function' || method === 'constructor') continue;
      const f = d.value;
      proto[method] = function (...args) {
        if (depth) return f.apply(this, args);
        depth += 1;
        const t0 = performance.now();
        try {
          return f.apply(this, args);
        } finally {
          const dt = performance.now() - t0;
          inside += dt;
          count += 1;
          byMethod[method] = (byMethod[method] ?? 0) + dt;
          depth -= 1;
        }
      };
    }
  }
  const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  for (let i = 0; i < 30; i++) {
    await nextFrame();
    window.frame(i / 60);
    await window.sync();
  }
  let total = 0;
  for (const k of Object.keys(byMethod)) byMethod[k] = 0;
  inside = 0;
  count = 0;
  for (let i = 0; i < n; i++) {
    await nextFrame();
    const t0 = performance.now();
    window.frame(1 + i / 60);
    total += performance.now() - t0;
    await window.sync();
  }
  // sync() is outside the timed call: leave its one WebGPU call out.
  const synced = byMethod.onSubmittedWorkDone ?? 0;
  delete byMethod.onSubmittedWorkDone;
  return {
    total: total / n,
    webgpu: (inside - synced) / n,
    calls: (count - n) / n,
    top: Object.entries(byMethod).sort((a, b) => b[1] - a[1]).slice(0, 6)
      .map(([k, v]) => [k, v / n]),
  };
}

const browser = await launch();
try {
  const rows = Object.fromEntries(PAGES.map((p) => [p.name, []]));
  for (let round = 0; round < Number(rounds); round++) {
    for (const page of PAGES) {
      const opened = await openPage(browser, baseUrl(), page, { width: 64, height: 64, msaa: 1 }, page.query ?? {});
      const r = await opened.tab.evaluate(measure, Number(calls));
      if (opened.problems.length) throw opened.fail('errors while measuring');
      rows[page.name].push(r);
      await opened.tab.close();
    }
  }
  const ms = (x) => x.toFixed(3);
  console.log(`| ${calls} calls × ${rounds} rounds, medians of the rounds, ms | frame() | in WebGPU methods | the rest | WebGPU calls per frame | largest methods (µs) |`);
  console.log('|---|---:|---:|---:|---:|---|');
  for (const page of PAGES) {
    const r = rows[page.name];
    const pick = (f) => median(r.map(f));
    const top = r[r.length - 1].top.map(([k, v]) => `${k} ${(v * 1000).toFixed(0)}`).join(', ');
    console.log(`| ${page.name} | ${ms(pick((x) => x.total))} | ${ms(pick((x) => x.webgpu))} | ${ms(pick((x) => x.total - x.webgpu))} | ${pick((x) => x.calls).toFixed(0)} | ${top} |`);
  }
} finally {
  await browser.close();
}
