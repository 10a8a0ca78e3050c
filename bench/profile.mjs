// Per-pass GPU time of afterglow's bench page in headless Chromium, from
// `stats({ gpu: true })`: where a frame's time goes on this browser.
//
//   node bench/profile.mjs [WIDTHxHEIGHT] [msaa] [frames] ['{"json": "options"}']
//
// Expects the repository root served at BENCH_URL (default
// http://127.0.0.1:8000/), as `cargo xtask bench` serves it.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [size = '1920x1080', msaa = '1', frames = '6', extra = '{}'] = process.argv.slice(2);
const [width, height] = size.split('x').map(Number);
const base = process.env.BENCH_URL ?? 'http://127.0.0.1:8000/';
const flags = JSON.parse(readFileSync(new URL('../webdriver.json', import.meta.url)))
  ['goog:chromeOptions'].args.filter((a) => !a.startsWith('--headless'));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: flags, headless: true });
try {
  const tab = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
  tab.on('console', (m) => { if (m.type() === 'error') console.error(`console: ${m.text()}`); });
  await tab.goto(new URL('bench/pages/afterglow.html', base).href);
  await tab.waitForFunction(() => window.benchReady === true, null, { timeout: 120_000 });
  const result = await tab.evaluate(async ([w, h, m, n, options]) => {
    await window.setup({ width: w, height: h, msaa: m });
    if (Object.keys(options).length) window.renderer().setOptions(options);
    window.renderer().stats({ gpu: true });
    const per = {};
    const wall = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      window.frame(i / 60);
      await window.sync();
      wall.push(performance.now() - t0);
      // Timestamps arrive a frame or two later.
      await new Promise((r) => setTimeout(r, 50));
      const gpu = window.renderer().stats().gpuMs;
      if (gpu) for (const [k, v] of Object.entries(gpu)) (per[k] ??= []).push(v);
    }
    return { per, wall };
  }, [width, height, Number(msaa), Number(frames), JSON.parse(extra)]);
  const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
  let total = 0;
  for (const [k, v] of Object.entries(result.per)) {
    total += median(v);
    console.log(`${k.padEnd(24)} ${median(v).toFixed(1).padStart(8)} ms`);
  }
  console.log(`${'sum of passes'.padEnd(24)} ${total.toFixed(1).padStart(8)} ms`);
  console.log(`${'frame + sync (wall)'.padEnd(24)} ${median(result.wall).toFixed(1).padStart(8)} ms`);
} finally {
  await browser.close();
}
