// What the benchmark drivers (bench/run.mjs, bench/dot.mjs, …) share: the
// four pages, one headless Chromium with the WebGPU flags of webdriver.json,
// opening a page until it has rendered its first frame, and reading its
// 8-bit sRGB screenshots as light.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const PAGES = [
  { id: 'afterglow', name: 'afterglow' },
  { id: 'three-webgl', name: 'three.js WebGL' },
  { id: 'postprocessing', name: 'postprocessing' },
  { id: 'three-webgpu', name: 'three.js WebGPU' },
];

/** An 8-bit sRGB level as linear light, and the table of all 256. */
export const toLinear = (v) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
export const LINEAR = Array.from({ length: 256 }, (_, v) => toLinear(v));
/** Linear light in [0, 1] as sRGB-encoded, in [0, 1]. */
export const toSrgb = (l) => (l <= 0.0031308 ? l * 12.92 : 1.055 * l ** (1 / 2.4) - 0.055);

export const label = (c) => `${c.width}×${c.height} msaa ${c.msaa}`;

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Version of an installed npm package. */
export const pkgVersion = (name) =>
  JSON.parse(readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url))).version;

/** One headless Chromium (CHROMIUM, default /usr/bin/chromium) with the
 * flags the browser tests use, and `extra` flags. */
export async function launch(extra = []) {
  const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
  const flags = JSON.parse(readFileSync(new URL('../webdriver.json', import.meta.url)))
    ['goog:chromeOptions'].args.filter((a) => !a.startsWith('--headless'));
  return chromium.launch({ executablePath, args: [...flags, ...extra], headless: true });
}

/** The server the pages come from: BENCH_URL, as `cargo xtask bench` sets it. */
export const baseUrl = () => process.env.BENCH_URL ?? 'http://127.0.0.1:8000/';

/** Opens one page at `config` ({ width, height, msaa }) with `query` (a
 * URLSearchParams-able object: what the page draws), waits for its module,
 * sets it up and renders frame 0. Returns the tab, the problems it reported
 * so far (errors, crashes: the caller checks them after each step), a
 * `fail(what)` that builds an error naming the page, and its info. */
export async function openPage(browser, base, page, config, query = {}) {
  const tab = await browser.newPage({
    viewport: { width: Math.max(config.width, 200), height: Math.max(config.height, 200) },
    deviceScaleFactor: 1,
  });
  const problems = [];
  tab.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  tab.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  tab.on('crash', () => problems.push('the page crashed'));
  const loadStart = Date.now();
  const what = Object.keys(query).length ? ` ${new URLSearchParams(query)}` : '';
  const fail = (why) => new Error(`${page.name} (${label(config)}${what}): ${why}${problems.length ? `\n  ${problems.join('\n  ')}` : ''}`);
  const url = new URL(`bench/pages/${page.id}.html`, base);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  await tab.goto(url.href, { waitUntil: 'domcontentloaded', timeout: 120_000 });
  const deadline = Date.now() + 120_000;
  while (!(await tab.evaluate(() => window.benchReady === true))) {
    if (problems.length) throw fail('the page failed to load');
    if (Date.now() > deadline) throw fail('the page did not become ready in 120 s');
    await tab.waitForTimeout(100);
  }
  try {
    await tab.evaluate(async (c) => { await window.setup(c); window.frame(0); await window.sync(); }, config);
  } catch (e) {
    throw fail(`setup or first frame threw: ${e.message}`);
  }
  if (problems.length) throw fail('errors during setup');
  const info = await tab.evaluate(() => ({ ...window.info, isolated: window.crossOriginIsolated }));
  info.readyMs = Date.now() - loadStart;
  return { tab, problems, fail, info };
}
