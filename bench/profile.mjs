// Per-pass GPU time of afterglow's bench page in headless Chromium, from
// `stats({ gpu: true })`: where a frame's time goes on this browser.
//
//   node bench/profile.mjs [WIDTHxHEIGHT] [msaa] [frames] ['{"json": "options"}']
//
// PKGS=/a/afterglow.js,/b/afterglow.js compares builds of the package
// served at those paths (default: /www/pkg/afterglow.js), one tab each,
// measured in alternation (ROUNDS rounds, default 3) in one browser, so
// that the shared machine's drift falls on all of them. Expects the
// repository root served at BENCH_URL (default http://127.0.0.1:8000/), as
// `cargo xtask bench` serves it.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { passTimes } from './browser.mjs';

const [size = '1920x1080', msaa = '1', frames = '4', extra = '{}'] = process.argv.slice(2);
const [width, height] = size.split('x').map(Number);
const base = process.env.BENCH_URL ?? 'http://127.0.0.1:8000/';
// OPTS='{...};{...}' gives each tab its own options instead (same package
// unless PKGS lists one per tab). In the options, "$lut": "/www/looks/film.cube"
// sets that lookup table, "$dirt": true the demo's lens dirt, and
// "$effect": { wgsl, stage, uniforms } adds that effect (addEffect);
// "$effect": "tint" a one-line tint (OPTS splits on ';', which WGSL uses).
const optionSets = process.env.OPTS ? process.env.OPTS.split(';') : null;
let pkgs = (process.env.PKGS ?? '/www/pkg/afterglow.js').split(',');
if (optionSets && pkgs.length === 1) pkgs = optionSets.map(() => pkgs[0]);
const rounds = Number(process.env.ROUNDS ?? 3);
const flags = JSON.parse(readFileSync(new URL('../webdriver.json', import.meta.url)))
  ['goog:chromeOptions'].args.filter((a) => !a.startsWith('--headless'));
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: flags, headless: true });
try {
  const tabs = [];
  for (const [index, pkg] of pkgs.entries()) {
    const options = optionSets ? optionSets[index] : extra;
    const tab = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
    tab.on('console', (m) => { if (m.type() === 'error') console.error(`console (${pkg}): ${m.text()}`); });
    tab.on('pageerror', (e) => console.error(`page error (${pkg}): ${e.message}`));
    await tab.goto(new URL(`bench/pages/afterglow.html?pkg=${encodeURIComponent(pkg)}`, base).href);
    await tab.waitForFunction(() => window.benchReady === true, null, { timeout: 120_000 });
    await tab.evaluate(async ([w, h, m, options]) => {
      await window.setup({ width: w, height: h, msaa: m });
      // "$lut": a .cube file to setLut (served path); "$dirt": true sets
      // the demo's lens dirt; "$effect": an effect to add.
      const { $lut, $dirt, $effect, ...rest } = options;
      const tint = {
        wgsl: 'fn effect(color: vec4f, uv: vec2f) -> vec4f { return vec4f(color.rgb * uniforms.tint, color.a); }',
        uniforms: { tint: [1, 0.9, 0.8] },
      };
      if ($effect) await window.renderer().addEffect('bench', $effect === 'tint' ? tint : $effect);
      if ($lut) window.renderer().setLut(await (await fetch(new URL($lut, location.origin))).text());
      if ($dirt) await window.renderer().setLensDirt((await import(new URL('/www/looks/dirt.js', location.origin))).lensDirt());
      if (Object.keys(rest).length) window.renderer().setOptions(rest);
      window.frame(0);
      await window.sync();
    }, [width, height, Number(msaa), JSON.parse(options)]);
    tabs.push({ pkg, tab, per: {}, wall: [], name: optionSets ? `#${index + 1}` : pkg.split('/').slice(-2, -1)[0] });
  }
  for (let round = 0; round < rounds; round++) {
    for (const t of tabs) {
      await t.tab.bringToFront();
      const r = await passTimes(t.tab, Number(frames));
      for (const [k, v] of Object.entries(r.per)) (t.per[k] ??= []).push(...v);
      t.wall.push(...r.wall);
    }
  }
  const names = Object.keys(tabs[0].per);
  const col = (s) => String(s).padStart(14);
  console.log(`${'ms (median)'.padEnd(22)}${tabs.map((t) => col(t.name)).join('')}`);
  const sums = tabs.map(() => 0);
  for (const k of names) {
    console.log(`${k.padEnd(22)}${tabs.map((t, i) => { const m = median(t.per[k] ?? [0]); sums[i] += m; return col(m.toFixed(1)); }).join('')}`);
  }
  console.log(`${'sum of passes'.padEnd(22)}${sums.map((s) => col(s.toFixed(1))).join('')}`);
  if (optionSets) optionSets.forEach((o, i) => console.log(`#${i + 1}: ${o}`));
  console.log(`${'frame + sync (wall)'.padEnd(22)}${tabs.map((t) => col(median(t.wall).toFixed(1))).join('')}`);
} finally {
  await browser.close();
}
