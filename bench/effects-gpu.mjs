// What anti-aliasing and depth of field cost in Chromium on a GPU, as
// afterglow's own timestamp queries measure it (`stats({ gpu: true })`):
//
// - the effects on the displayed picture: the benchmark's afterglow page
//   (the discs, mip bloom, msaa 1) with `antialias` 'none', 'fxaa' and
//   'smaa', sharpening at 0.5, and at renderScale 0.5 scaled up bilinearly
//   and edge-adaptively, at 1920×1080 and 3840×2160 (the output's size),
//   interleaved round by round;
// - depth of field: the demo's own-renderer page (its colour and depth
//   textures handed to afterglow), focused at the centre with `maxBlur` 16,
//   and the same frames with depth of field off, at 1920×1080.
//
// Each figure is the sum over afterglow's passes of each one's median
// over the frames (GPU time, not wall time: a synchronised frame's wall
// time there is mostly the wait for the queue, the same few milliseconds
// for every page), then the median over rounds; the ratios are to the
// same page without the effect, with their range over rounds (each
// round against its own). Where frames are read back by copying (the
// probe's choice), the canvases carry COPY_SRC in both. `cargo xtask bench --gpu-browser` runs it on the GPU
// machine after the side-by-side benchmark:
//
//   node bench/effects-gpu.mjs OUT          (BENCH_URL: the repository root,
//                                            AFTERGLOW_URL: www/, BENCH_GPU,
//                                            BENCH_TREE) → OUT/effects.json
//   node bench/effects-gpu.mjs --render OUT/effects.json   → bench/results/
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PAGES, adapterOf, baseUrl, label, launch, median, openPage, passTimes, software } from './browser.mjs';
import { command, header, machine, record } from './record.mjs';

const ROUNDS = 3;
const FRAMES = 30;
const SIZES = [{ width: 1920, height: 1080, msaa: 1 }, { width: 3840, height: 2160, msaa: 1 }];
// Each mode's page query, by its name in the report.
const QUERIES = {
  none: {},
  fxaa: { antialias: 'fxaa' },
  smaa: { antialias: 'smaa' },
  sharpen: { sharpen: 0.5 },
  'half, bilinear': { scale: 0.5, upscale: 'bilinear' },
  'half, edge': { scale: 0.5, upscale: 'edge' },
};
const MODES = Object.keys(QUERIES);
const sum = (per) => Object.values(per).reduce((a, b) => a + b, 0);
const medians = (per) => Object.fromEntries(Object.entries(per).map(([k, v]) => [k, median(v)]));

async function measure(out) {
  const tree = JSON.parse(process.env.BENCH_TREE ?? 'null');
  if (!tree) throw new Error('BENCH_TREE ({ commit, changes }) names the tree the figures belong to');
  const browser = await launch([], { gpu: true });
  const log = (s) => process.stderr.write(`effects: ${s}\n`);
  const adapters = new Set();
  const antialias = [];
  for (const config of SIZES) {
    const rounds = Object.fromEntries(MODES.map((m) => [m, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of MODES) {
        const opened = await openPage(browser, baseUrl(), PAGES[0], config, QUERIES[mode]);
        for (const a of opened.info.adapters ?? []) adapters.add(JSON.stringify(a));
        const { per } = await passTimes(opened.tab, FRAMES);
        if (opened.problems.length) throw opened.fail('errors while rendering');
        if (!Object.keys(per).length) throw opened.fail('no GPU times (stats().gpuMs)');
        rounds[mode].push(medians(per));
        log(`${label(config)} ${mode} round ${round + 1}: ${sum(medians(per)).toFixed(3)} ms of passes`);
        await opened.tab.close();
      }
    }
    antialias.push({ config, rounds });
  }
  const depthOfField = await ownRenderer(browser, adapters, log);
  const version = browser.version();
  await browser.close();
  const seen = [...adapters].map((a) => JSON.parse(a));
  if (!seen.length || seen.some(software)) throw new Error(`not on a GPU: ${JSON.stringify(seen)}`);
  const data = { tree, chromium: version, adapters: seen, antialias, depthOfField,
    at: { machine: machine(), date: new Date().toISOString(), command: command() } };
  writeFileSync(join(out, 'effects.json'), JSON.stringify(data));
}

/** The own-renderer page at 1920×1080, its clock frozen: GPU time per
 * pass with depth of field off and on (focused at the centre). */
async function ownRenderer(browser, adapters, log) {
  const url = process.env.AFTERGLOW_URL;
  if (!url) throw new Error('AFTERGLOW_URL: where www/ is served');
  const tab = await browser.newPage({ viewport: { width: 1920, height: 1080 }, deviceScaleFactor: 1 });
  const problems = [];
  tab.on('pageerror', (e) => problems.push(String(e)));
  tab.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  // The page asks for a device of its own with no features; timestamp
  // queries are asked for too, where the adapter has them, to time it.
  await tab.addInitScript(() => {
    const requestDevice = GPUAdapter.prototype.requestDevice;
    GPUAdapter.prototype.requestDevice = function timed(desc = {}) {
      const features = [...(desc.requiredFeatures ?? [])];
      if (this.features.has('timestamp-query') && !features.includes('timestamp-query')) features.push('timestamp-query');
      return requestDevice.call(this, { ...desc, requiredFeatures: features });
    };
  });
  await tab.goto(new URL('own-renderer.html', url).href);
  await tab.waitForFunction(() => (window.ownRenderer?.frames ?? 0) > 3 || window.ownRenderer?.failed, null, { timeout: 120_000 });
  // The page catches its own errors into #error and stops its loop.
  const failed = () => tab.evaluate(() => (window.ownRenderer.failed ? document.getElementById('error')?.textContent || 'failed' : null));
  const check = async () => {
    const why = await failed();
    if (why) throw new Error(`the own-renderer page stopped: ${why}`);
  };
  await check();
  adapters.add(JSON.stringify(await adapterOf(tab)));
  // GPU time per pass over `n` animation frames of the page's own loop.
  const sample = (n) => tab.evaluate(async (count) => {
    const { renderer } = window.ownRenderer;
    renderer.stats({ gpu: true });
    const per = {};
    for (let i = 0; i < count; i++) {
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 30)));
      const gpu = renderer.stats().gpuMs;
      if (gpu) for (const [k, v] of Object.entries(gpu)) (per[k] ??= []).push(v);
    }
    return per;
  }, n).then((per) => {
    if (!Object.keys(per).length) throw new Error('the own-renderer page gave no GPU times (stats().gpuMs)');
    return per;
  });
  await tab.evaluate(() => window.ownRenderer.setTime(2));
  const rounds = { off: [], on: [] };
  const size = await tab.evaluate(() => [document.querySelector('canvas').width, document.querySelector('canvas').height]);
  for (let round = 0; round < ROUNDS; round++) {
    await tab.evaluate(() => window.ownRenderer.renderer.setOptions({ depthOfField: { enabled: false } }));
    rounds.off.push(medians(await sample(FRAMES)));
    await check();
    const focused = await tab.evaluate(() => {
      const d = window.ownRenderer.focusAt(0.5, 0.5);
      window.ownRenderer.renderer.setOptions({ depthOfField: { maxBlur: 16 } });
      return d;
    });
    const stats = await tab.evaluate(() => window.ownRenderer.renderer.stats().depthOfField);
    rounds.on.push(medians(await sample(FRAMES)));
    await check();
    log(`depth of field round ${round + 1}: focused at ${focused}, ${stats}: `
      + `${sum(rounds.off.at(-1)).toFixed(3)} → ${sum(rounds.on.at(-1)).toFixed(3)} ms of passes`);
    if (stats !== 'on') throw new Error(`depth of field is '${stats}' on the own-renderer page, not 'on'`);
  }
  if (problems.length) throw new Error(`the own-renderer page reported:\n  ${problems.join('\n  ')}`);
  await tab.close();
  return { size, rounds };
}

/** The report of OUT/effects.json. */
function render(file) {
  const data = JSON.parse(readFileSync(file, 'utf8'));
  const roundSums = (rounds) => rounds.map(sum);
  const cell = (rounds, ref) => {
    const s = median(roundSums(rounds));
    const r = s / median(roundSums(ref));
    const spread = roundSums(rounds).map((x, i) => x / roundSums(ref)[i]);
    return `${s.toFixed(3)} ms · ${r.toFixed(2)}× (${Math.min(...spread).toFixed(2)}–${Math.max(...spread).toFixed(2)})`;
  };
  const gpu = data.adapters.map((a) => a.name).filter((n, i, all) => all.indexOf(n) === i).join('; ');
  const lines = [
    '**Effects on the displayed picture**: the benchmark\'s afterglow page (the discs, mip bloom, no MSAA), GPU time of all of afterglow\'s passes per frame: '
      + `median of ${FRAMES} frames, then of ${ROUNDS} interleaved rounds; the ratio is to 'none' (its range over rounds). `
      + "'half' is renderScale 0.5: the upscaler's cost is 'half, edge' less 'half, bilinear' (the composite, which scales up).",
    '',
    `| msaa 1 | ${MODES.join(' | ')} |`,
    `|---|${MODES.map(() => '---:').join('|')}|`,
  ];
  for (const { config, rounds } of data.antialias) {
    lines.push(`| ${config.width}×${config.height} | ${MODES.map((m) => cell(rounds[m], rounds.none)).join(' | ')} |`);
  }
  for (const { config, rounds } of data.antialias) {
    lines.push('', `Passes at ${config.width}×${config.height}, median ms:`, '', `| pass | ${MODES.join(' | ')} |`, `|---|${MODES.map(() => '---:').join('|')}|`);
    const names = [...new Set(MODES.flatMap((m) => rounds[m].flatMap(Object.keys)))];
    for (const n of names) {
      lines.push(`| ${n} | ${MODES.map((m) => (rounds[m][0][n] === undefined ? '—' : median(rounds[m].map((r) => r[n])).toFixed(3))).join(' | ')} |`);
    }
  }
  const { size, rounds } = data.depthOfField;
  lines.push('', `**Depth of field**: the demo's own-renderer page at ${size[0]}×${size[1]} (its own colour and depth textures, drawn with 4× MSAA), `
    + `its clock frozen, focused at the centre with maxBlur 16, against the same frames with depth of field off; GPU time of afterglow's passes, `
    + `median of ${FRAMES} animation frames, then of ${ROUNDS} interleaved rounds.`, '',
  '| | off | on |', '|---|---:|---:|', `| all passes | ${cell(rounds.off, rounds.off)} | ${cell(rounds.on, rounds.off)} |`);
  const names = [...new Set([...rounds.off, ...rounds.on].flatMap(Object.keys))];
  for (const n of names) {
    const m = (rs) => (rs[0][n] === undefined ? '—' : median(rs.map((r) => r[n])).toFixed(3));
    lines.push(`| ${n} | ${m(rounds.off)} | ${m(rounds.on)} |`);
  }
  const text = `${header({ title: 'Effects on the displayed picture and depth of field in the browser, on a GPU', tree: data.tree, browser: `Chromium ${data.chromium} on ${gpu}`, at: data.at })}\n${lines.join('\n')}`;
  console.log(text);
  console.error(`written to ${record('gpu-effects', data.tree, text)}`);
}

const [first, second] = process.argv.slice(2);
if (first === '--render' && second) render(second);
else if (first && !first.startsWith('--')) await measure(first);
else throw new Error('usage: node bench/effects-gpu.mjs OUT | --render OUT/effects.json');
