// Where one render() call's CPU time goes in headless Chromium: Chrome's
// sampling profiler around N calls on afterglow's bench page at 64×64,
// self time summed by function (wasm functions by index unless the build
// keeps names), the top rows printed.
//
//   node bench/cpu-profile.mjs [calls] [rows]
//
// Expects the repository root served at BENCH_URL (default
// http://127.0.0.1:8000/), as `cargo xtask bench` serves it.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [calls = '2000', rows = '25'] = process.argv.slice(2);
const base = process.env.BENCH_URL ?? 'http://127.0.0.1:8000/';
const flags = JSON.parse(readFileSync(new URL('../webdriver.json', import.meta.url)))
  ['goog:chromeOptions'].args.filter((a) => !a.startsWith('--headless'));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: flags, headless: true });
try {
  const page = await browser.newPage({ viewport: { width: 256, height: 256 } });
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  await page.goto(new URL('bench/pages/afterglow.html', base).href);
  await page.waitForFunction(() => window.benchReady === true, null, { timeout: 120_000 });
  await page.evaluate(async () => {
    await window.setup({ width: 64, height: 64, msaa: 1 });
    for (let i = 0; i < 30; i++) { window.frame(i / 60); await window.sync(); }
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
  await cdp.send('Profiler.start');
  const ms = await page.evaluate(async (n) => {
    let total = 0;
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      window.frame(i / 60);
      total += performance.now() - t0;
      await window.sync();
    }
    return total / n;
  }, Number(calls));
  const { profile } = await cdp.send('Profiler.stop');
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  profile.samples.forEach((id, i) => {
    const f = byId.get(id).callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url ? f.url.split('/').pop() : ''}`.trim();
    self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0));
  });
  const all = [...self.entries()].filter(([k]) => !/^\((idle|program|garbage collector)\)/.test(k));
  const sum = all.reduce((a, [, v]) => a + v, 0);
  console.log(`render() mean ${ms.toFixed(3)} ms over ${calls} calls; profiled time outside idle ${(sum / 1000).toFixed(0)} ms`);
  for (const [k, v] of all.sort((a, b) => b[1] - a[1]).slice(0, Number(rows))) {
    console.log(`${(100 * v / sum).toFixed(1).padStart(6)} %  ${k}`);
  }
} finally {
  await browser.close();
}
