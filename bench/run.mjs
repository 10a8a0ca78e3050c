// Side-by-side benchmark: afterglow, three.js WebGL + UnrealBloomPass,
// postprocessing, three.js WebGPU + TSL bloom, on the same HDR content in one
// headless Chromium. `cargo xtask bench` serves the repository root and runs
// this with BENCH_URL set; it can also be run by hand against any server
// that exposes bench/, www/pkg/ and node_modules/ at its root:
//
//   node bench/run.mjs [--quick] [--frames N] [--rounds N] [--cpu-calls N] [--cpu-rounds N] [--shots DIR]
//
// `--gpu` measures on a real GPU instead (`cargo xtask bench --gpu-browser`):
// Chromium with GPU_FLAGS (bench/browser.mjs), 1080p and 2160p, every page
// required to report a GPU adapter (not an emulation), and afterglow's GPU
// time per pass added. `--raw FILE` writes the figures as JSON instead of
// a report (on the machine with the GPU, which has no checkout), and
// `--render FILE` turns such a file into the report here, and into
// bench/results/<date>-<commit>-gpu-browser.json: for each configuration
// and library, frameMs (throughput), gpuMs and sceneGpuMs (null where
// there is no timer).
//
// Every configuration opens the four pages and two floors (plain WebGPU,
// no library: the scene straight into the canvas, and the scene into
// rgba16float then one load-and-clamp pass into the canvas; the CPU
// measurement adds a frame that only clears the canvas), checks that each
// library renders a bloomed frame (a bright disc centre, a halo above the
// background) and each floor the discs, then measures them round-robin, a
// different page first in every round, so that drift of the shared
// machine spreads over all of them. Each round measures three ways:
//
// - synchronised: each frame drawn, then waited for (the GPU idles between
//   frames, and the wait's own cost is in every frame);
// - rAF-driven: one frame per requestAnimationFrame callback, one wait at
//   the end;
// - throughput: N frames (--frames, at least 10) queued back to back in one
//   task, each the library's own render call, then one wait for the GPU
//   (onSubmittedWorkDone for WebGPU, gl.finish and a 1-pixel readPixels for
//   WebGL): total ÷ N is what a frame costs when the GPU is never idle,
//   which ranks the GPU work of the libraries.
//
// After the rounds, the GPU time of N frames, each drawn and timed alone,
// is read from the GPU's own clock where the page's browser has one:
// timestamp queries for WebGPU (afterglow's `stats({ gpu: true })`,
// three.js's `trackTimestamp`, the floors' own), and
// EXT_disjoint_timer_query_webgl2 for WebGL. So is the GPU time of each
// library's scene alone, drawn as its post chain receives it (into the
// chain's half-float input target, at the configuration's MSAA) with
// nothing after it; afterglow cannot draw its scene without its chain, so
// the floor's scene pass into rgba16float stands for it. Frame minus scene
// alone is what the post chain adds. Where a page has no timer the report
// says "no timer": a CPU time never stands in for one.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { DISCS } from './scene.js';
import { PAGES, baseUrl, canvasPng, label, launch, median, openPage as open, passTimes, pkgVersion as pkg, presents, readsBack, software } from './browser.mjs';
import { checkTree, command, header, machine, record, recordJson } from './record.mjs';

const REFERENCE = 'three-webgl';

// The fewest frames queued at once for throughput, and timed one by one
// on the GPU's clock: --frames where that is more.
const BATCH_MIN = 10;

// What is measured: the libraries, then the floors (bench/pages/floor.js).
// `--before URL` adds afterglow built from another commit (the package at
// URL), measured in the same rounds: `cargo xtask bench --before REV`.
let LIBRARIES = PAGES.map((p) => ({ ...p, key: p.id, query: {} }));
const FLOOR_CANVAS = { id: 'floor', key: 'floor-canvas', name: 'floor: scene → canvas', query: { floor: 'canvas' }, floor: true };
const FLOOR_HDR = { id: 'floor', key: 'floor-hdr', name: 'floor: scene → rgba16float → canvas', query: { floor: 'hdr' }, floor: true };
const FLOOR_CLEAR = { id: 'floor', key: 'floor-clear', name: 'floor: clear only', query: { floor: 'clear' }, floor: true };
let GPU_ENTRIES = [...LIBRARIES, FLOOR_CANVAS, FLOOR_HDR];
let CPU_ENTRIES = [...LIBRARIES, FLOOR_HDR, FLOOR_CLEAR];

/** Puts `afterglow (before)` first among the libraries. */
function addBefore(url) {
  LIBRARIES = [{ ...PAGES[0], key: 'before', name: 'afterglow (before)', query: { pkg: url } }, ...LIBRARIES];
  GPU_ENTRIES = [...LIBRARIES, FLOOR_CANVAS, FLOOR_HDR];
  CPU_ENTRIES = [...LIBRARIES, FLOOR_HDR, FLOOR_CLEAR];
}

const usage = 'usage: node bench/run.mjs [--quick] [--gpu] [--frames N] [--rounds N] [--cpu-calls N] [--cpu-rounds N] [--shots DIR] [--before URL] [--dirty] [--raw FILE | --render FILE]';

function parseArgs(argv) {
  const quick = argv.includes('--quick');
  const opts = {
    quick,
    frames: quick ? 2 : 3,
    rounds: quick ? 1 : 5,
    cpuCalls: quick ? 30 : 120,
    // The CPU time of one call varies more between rounds than the GPU
    // time of a frame, so it gets more (and shorter) rounds.
    cpuRounds: quick ? 1 : 15,
    shots: null,
    before: null,
    dirty: argv.includes('--dirty'),
    gpu: argv.includes('--gpu'),
    raw: null,
    render: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick' || a === '--dirty' || a === '--gpu') continue;
    const value = argv[i + 1];
    const number = () => {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1) throw new Error(`${a} expects a whole number ≥ 1, got '${value}'\n${usage}`);
      i += 1;
      return n;
    };
    if (a === '--frames') opts.frames = number();
    else if (a === '--rounds') opts.rounds = number();
    else if (a === '--cpu-calls') opts.cpuCalls = number();
    else if (a === '--cpu-rounds') opts.cpuRounds = number();
    else if (a === '--shots' && value) { opts.shots = value; i += 1; }
    else if (a === '--before' && value) { opts.before = value; i += 1; }
    else if (a === '--raw' && value) { opts.raw = value; i += 1; }
    else if (a === '--render' && value) { opts.render = value; i += 1; }
    else throw new Error(`unknown argument '${a}'\n${usage}`);
  }
  opts.batch = Math.max(BATCH_MIN, opts.frames);
  return opts;
}

const CONFIGS = [
  { width: 1920, height: 1080, msaa: 1 },
  { width: 1280, height: 720, msaa: 1 },
  { width: 1920, height: 1080, msaa: 4 },
  { width: 1280, height: 720, msaa: 4 },
];
// On a GPU 720p is too little work to tell the libraries apart; 2160p is
// where a pass's bandwidth shows.
const GPU_CONFIGS = [
  { width: 1920, height: 1080, msaa: 1 },
  { width: 3840, height: 2160, msaa: 1 },
  { width: 1920, height: 1080, msaa: 4 },
  { width: 3840, height: 2160, msaa: 4 },
];
const CPU_CONFIG = { width: 64, height: 64, msaa: 1 };

/** Opens one page at `config`; timers must be fine-grained for timing. */
async function openPage(browser, base, page, config, gpu) {
  const opened = await open(browser, base, page, config, page.query);
  // Without cross-origin isolation performance.now() is coarsened to 100 µs.
  if (!opened.info.isolated) opened.problems.push('the page is not cross-origin isolated: timers are coarse');
  // A GPU figure is only one if the page itself saw the GPU.
  const seen = opened.info.adapters.map((a) => `${a.api}: ${a.name}${a.fallback ? ' (fallback)' : ''}`);
  if (gpu && (!opened.info.adapters.length || opened.info.adapters.some(software))) {
    throw opened.fail(`not on a GPU: the page saw ${seen.length ? seen.join('; ') : 'no adapter'}`);
  }
  return opened;
}

/** The mean of the largest channel over a 5×5 box around (u, v). */
function probe(png, u, v) {
  const cx = Math.round(u * png.width);
  const cy = Math.round(v * png.height);
  let sum = 0;
  let n = 0;
  for (let y = cy - 2; y <= cy + 2; y++) {
    for (let x = cx - 2; x <= cx + 2; x++) {
      if (x < 0 || y < 0 || x >= png.width || y >= png.height) continue;
      const i = (y * png.width + x) * 4;
      sum += Math.max(png.data[i], png.data[i + 1], png.data[i + 2]);
      n += 1;
    }
  }
  return sum / n;
}

/** Renders frame 0 and checks it is a bloomed picture of the discs. */
async function checkFrame(opened, config, page, shots) {
  // Where WebGPU canvases never reach the page, read the frame back from
  // the canvas in the task that drew it.
  const readBack = !presents() && opened.info.backend === 'WebGPU';
  const shot = readBack ? await canvasPng(opened.tab, () => window.frame(0))
    : (await opened.tab.evaluate(async () => { window.frame(0); await window.sync(); }), await opened.tab.locator('#view').screenshot());
  if (shots) writeFileSync(join(shots, `${page.key}-${config.width}x${config.height}-msaa${config.msaa}.png`), shot);
  const png = PNG.sync.read(shot);
  const aspect = config.width / config.height;
  const d = DISCS[0];
  const centre = probe(png, d.centre[0], d.centre[1]);
  // Left of the disc at 1.8 radii, clear of its edge: only bloom lights it.
  const halo = probe(png, d.centre[0] - (1.8 * d.radius) / aspect, d.centre[1]);
  // Bottom middle, far from every disc: the gradient and the faintest bloom.
  const background = probe(png, 0.5, 0.97);
  const values = { centre: +centre.toFixed(1), halo: +halo.toFixed(1), background: +background.toFixed(1) };
  if (centre < 180) throw opened.fail(`the disc centre is not bright (${JSON.stringify(values)}): a black or broken frame`);
  if (!page.floor && halo < background + 8) throw opened.fail(`no bloom halo around the disc (${JSON.stringify(values)})`);
  if (background > 100) throw opened.fail(`the background is not dim (${JSON.stringify(values)})`);
  if (opened.problems.length) throw opened.fail('errors while rendering');
  return values;
}

/** Measures every configuration and the CPU time; returns the figures as
 * plain data (what `--raw` writes and `--render` reads). */
async function measure(opts) {
  const base = baseUrl();
  if (opts.shots) mkdirSync(opts.shots, { recursive: true });
  const started = Date.now();
  const browser = await launch([], { gpu: opts.gpu });
  const log = (s) => process.stderr.write(`${s}\n`);
  log(`Chromium ${browser.version()}${opts.gpu ? ' on the GPU' : ''}, three ${pkg('three')}, postprocessing ${pkg('postprocessing')}; `
    + `${opts.rounds} round(s) of ${opts.frames} frame(s) and ${opts.batch} queued, ${opts.batch} frames timed by the GPU, `
    + `${opts.cpuRounds} round(s) of ${opts.cpuCalls} calls for CPU time`);

  // results[label][pageKey] = { synced: [[ms per frame] per round], raf: [[ms] per round],
  //   throughput: [[ms per frame] per round] }
  const results = {};
  // gpu[label][pageKey] = what benchGpu (bench/pages/harness.js) returned:
  // { timer, frame: { ms, lost }, scene } or { timer, missing }.
  const gpu = {};
  // passes[label][pass] = [ms samples]: afterglow's GPU time per pass.
  const passes = {};
  const infos = {};
  try {
    for (const config of opts.gpu ? GPU_CONFIGS : CONFIGS) {
      const key = label(config);
      results[key] = {};
      const opened = {};
      for (const page of GPU_ENTRIES) {
        opened[page.key] = await openPage(browser, base, page, config, opts.gpu);
        infos[page.key] = opened[page.key].info;
        const values = await checkFrame(opened[page.key], config, page, opts.shots);
        const { backend, readyMs } = opened[page.key].info;
        log(`${key}: ${page.name} (${backend}, ready in ${(readyMs / 1000).toFixed(1)} s) renders ${page.floor ? 'the discs' : 'a bloomed frame'} ${JSON.stringify(values)}`);
        results[key][page.key] = { synced: [], raf: [], throughput: [] };
      }
      for (let round = 0; round < opts.rounds; round++) {
        for (let k = 0; k < GPU_ENTRIES.length; k++) {
          const page = GPU_ENTRIES[(round + k) % GPU_ENTRIES.length];
          const { tab, fail, problems } = opened[page.key];
          await tab.bringToFront();
          const start = round * opts.frames * 2 / 60;
          const synced = await tab.evaluate(([n, s]) => window.benchSynced(n, s), [opts.frames, start]);
          const raf = await tab.evaluate(([n, s]) => window.benchRaf(n, s), [opts.frames, start + opts.frames / 60]);
          const throughput = await tab.evaluate(([n, s]) => window.benchThroughput(n, s), [opts.batch, start + 2 * opts.frames / 60]);
          if (problems.length) throw fail('errors while measuring');
          results[key][page.key].synced.push(synced);
          results[key][page.key].raf.push([raf]);
          results[key][page.key].throughput.push([throughput]);
          log(`${key} round ${round + 1}: ${page.name} synced ${median(synced).toFixed(1)} ms, rAF ${raf.toFixed(1)} ms, `
            + `throughput ${throughput.toFixed(1)} ms`);
        }
      }
      // Last on each page: turning a timer on may change how it draws
      // (three.js's is chosen when its renderer is made, and the page is
      // built again for it).
      gpu[key] = {};
      for (const page of GPU_ENTRIES) {
        const { tab, fail, problems } = opened[page.key];
        await tab.bringToFront();
        gpu[key][page.key] = await tab.evaluate(([n, s]) => window.benchGpu(n, s), [opts.batch, 0]);
        if (problems.length) throw fail('errors while timing on the GPU');
        log(`${key}: ${page.name} on the GPU's clock: ${gpuSummary(gpu[key][page.key])}`);
      }
      if (opts.gpu) {
        const { tab } = opened.afterglow;
        await tab.bringToFront();
        passes[key] = (await passTimes(tab, Math.max(opts.frames, 10))).per;
      }
      for (const page of GPU_ENTRIES) await opened[page.key].tab.close();
    }

    const cpu = {};
    const opened = {};
    for (const page of CPU_ENTRIES) {
      opened[page.key] = await openPage(browser, base, page, CPU_CONFIG, opts.gpu);
      cpu[page.key] = [];
    }
    for (let round = 0; round < opts.cpuRounds; round++) {
      for (let k = 0; k < CPU_ENTRIES.length; k++) {
        const page = CPU_ENTRIES[(round + k) % CPU_ENTRIES.length];
        const { tab, fail, problems } = opened[page.key];
        await tab.bringToFront();
        const r = await tab.evaluate((n) => window.benchCpu(n), opts.cpuCalls);
        if (problems.length) throw fail('errors while measuring');
        cpu[page.key].push([r.median]);
        log(`CPU round ${round + 1}: ${page.name} ${r.median.toFixed(3)} ms per frame() call`);
      }
    }
    for (const page of CPU_ENTRIES) await opened[page.key].tab.close();
    return {
      opts, results, gpu, passes, cpu, infos, presents: presents(), readBack: presents() ? null : readsBack(),
      chromium: browser.version(), three: pkg('three'), postprocessing: pkg('postprocessing'),
      minutes: ((Date.now() - started) / 60000).toFixed(1),
      at: { machine: machine(), date: new Date().toISOString(), command: command() },
    };
  } finally {
    // A browser whose GPU process died can take for ever to close.
    await Promise.race([browser.close(), new Promise((resolve) => setTimeout(resolve, 10_000))]);
  }
}

/** One page's GPU-timer result in a log line. */
function gpuSummary(g) {
  if (g.missing) return `no timer (${g.missing})`;
  const series = (x) => (x.ms.length ? `${median(x.ms).toFixed(3)} ms` : 'no result')
    + (x.lost ? `, ${x.lost} lost` : '');
  return `${g.timer}: frame ${series(g.frame)}${g.scene ? `, scene alone ${series(g.scene)}` : ''}`;
}

/** Where the figures ran, for the header: the browser and what drew. */
function where(data) {
  if (!data.opts.gpu) return `Chromium ${data.chromium} (SwiftShader)`;
  const names = [...new Set(Object.values(data.infos).flatMap((i) => i.adapters.map((a) => `${a.api}: ${a.name}`)))];
  return `Chromium ${data.chromium} on the GPU (${names.join('; ')})`;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.render) {
    // Figures measured elsewhere: the commit and command come with them
    // (the manifest `cargo xtask bench --gpu-browser` packed), not from here.
    const data = JSON.parse(readFileSync(opts.render, 'utf8'));
    if (data.before) addBefore(data.before);
    const text = `${header({ title: 'Side by side in one browser, on a GPU', tree: data.tree, browser: where(data), at: data.at })}\n${report(data)}`;
    console.log(text);
    process.stderr.write(`written to ${record('gpu-browser', data.tree, text)}\n`);
    process.stderr.write(`and to ${recordJson('gpu-browser', data.tree, summary(data))}\n`);
    return;
  }
  // On the GPU machine there is no checkout: the tree is the one packed
  // (BENCH_TREE, from `cargo xtask bench --gpu-browser --build-only`).
  const tree = opts.raw ? JSON.parse(process.env.BENCH_TREE ?? 'null') : checkTree(opts.dirty);
  if (!tree) throw new Error('--raw needs BENCH_TREE ({ commit, changes }): the tree the figures belong to');
  if (opts.before) addBefore(opts.before);
  const data = await measure(opts);
  if (opts.raw) {
    writeFileSync(opts.raw, JSON.stringify({ ...data, tree, before: opts.before }));
    process.stderr.write(`figures written to ${opts.raw}\n`);
    return;
  }
  const text = `${header({ title: 'Side by side in one browser', tree, browser: where(data) })}\n${report(data)}`;
  console.log(text);
  process.stderr.write(`written to ${record('side-by-side', tree, text)}\n`);
}

/** "median ms · ratio× (lowest–highest ratio of one round)": the ratio is of
 * the medians over all rounds to those of `refRounds`; the range compares
 * each round's median with the reference's in the same round, to show how
 * steady the ratio is. */
function cell(rounds, refRounds, digits) {
  const value = median(rounds.flat());
  return `${value.toFixed(digits)} ms · ${ratio(rounds, refRounds)}`;
}

/** "ratio× (lowest–highest)" of `rounds` to `refRounds`, as in `cell`. */
function ratio(rounds, refRounds) {
  const r = median(rounds.flat()) / median(refRounds.flat());
  const perRound = rounds.map((x, i) => median(x) / median(refRounds[i]));
  const range = perRound.length > 1 && rounds !== refRounds
    ? ` (${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)})` : '';
  return `${r.toFixed(2)}×${range}`;
}

function report(data) {
  const { opts, results, cpu, infos, three, postprocessing, minutes } = data;
  // A GPU frame takes a few milliseconds, an emulated one tens or hundreds.
  const digits = opts.gpu ? 2 : 0;
  const lines = [];
  const name = (p) => (p.key === 'three-webgpu' && infos[p.key]?.backend !== 'WebGPU'
    ? `${p.name} (ran on ${infos[p.key]?.backend})` : p.name);
  const modes = [['synchronised', 'synced'], ['rAF-driven', 'raf']];
  // Figures measured before the throughput row existed have none.
  const throughput = Object.values(results).every((byPage) => Object.values(byPage).every((r) => r.throughput?.length));
  if (throughput) modes.push([`throughput (${opts.batch} queued, one wait)`, 'throughput']);
  lines.push(`| per frame: median · ratio to three.js WebGL (range over rounds) | ${GPU_ENTRIES.map(name).join(' | ')} |`);
  lines.push(`|---|${GPU_ENTRIES.map(() => '---:').join('|')}|`);
  for (const [key, byPage] of Object.entries(results)) {
    for (const [what, field] of modes) {
      const ref = byPage[REFERENCE][field];
      lines.push(`| ${key}, ${what} | ${GPU_ENTRIES.map((p) => cell(byPage[p.key][field], ref, digits)).join(' | ')} |`);
    }
  }
  lines.push('');
  lines.push(`| CPU per frame() call, ${label(CPU_CONFIG)}: median · ratio to three.js WebGL | ${CPU_ENTRIES.map(name).join(' | ')} |`);
  lines.push(`|---|${CPU_ENTRIES.map(() => '---:').join('|')}|`);
  lines.push(`| all rounds | ${CPU_ENTRIES.map((p) => cell(cpu[p.key], cpu[REFERENCE], 3)).join(' | ')} |`);
  lines.push('');
  lines.push(`| ratio to the floors (range over rounds) | ${LIBRARIES.map(name).join(' | ')} |`);
  lines.push(`|---|${LIBRARIES.map(() => '---:').join('|')}|`);
  for (const [key, byPage] of Object.entries(results)) {
    for (const [what, field] of modes) {
      for (const floor of [FLOOR_HDR, FLOOR_CANVAS]) {
        const ref = byPage[floor.key][field];
        lines.push(`| ${key}, ${what}, ÷ ${floor.name} | ${LIBRARIES.map((p) => ratio(byPage[p.key][field], ref)).join(' | ')} |`);
      }
    }
  }
  for (const floor of [FLOOR_HDR, FLOOR_CLEAR]) {
    lines.push(`| CPU per frame() call, ${label(CPU_CONFIG)}, ÷ ${floor.name} | ${LIBRARIES.map((p) => ratio(cpu[p.key], cpu[floor.key])).join(' | ')} |`);
  }
  if (data.gpu) lines.push('', ...gpuTable(data, name));
  if (Object.keys(data.passes ?? {}).length) {
    // Each pass's median over the frames sampled, and their sum.
    const configs = Object.keys(data.passes);
    const names = [...new Set(configs.flatMap((c) => Object.keys(data.passes[c])))];
    lines.push('');
    lines.push(`| afterglow GPU time per pass, median ms (timestamp queries, \`stats({ gpu: true })\`) | ${configs.join(' | ')} |`);
    lines.push(`|---|${configs.map(() => '---:').join('|')}|`);
    const sums = configs.map(() => 0);
    for (const n of names) {
      lines.push(`| ${n} | ${configs.map((c, i) => {
        const xs = data.passes[c][n];
        if (!xs?.length) return '–';
        sums[i] += median(xs);
        return median(xs).toFixed(3);
      }).join(' | ')} |`);
    }
    lines.push(`| sum of passes | ${sums.map((x) => x.toFixed(3)).join(' | ')} |`);
  }
  lines.push('');
  lines.push('| what each page drew on (seen by the page: `GPUAdapterInfo`, `WEBGL_debug_renderer_info`) | adapters |');
  lines.push('|---|---|');
  for (const [key, info] of Object.entries(infos)) {
    const seen = [...new Set(info.adapters.map((a) => `${a.api}: ${a.name}${a.fallback ? ' (fallback)' : ''}${a.tries > 1 ? ` (after ${a.tries} requests)` : ''}`))];
    lines.push(`| ${key} (${info.library}, ${info.backend}) | ${seen.join('; ') || 'none reported'} |`);
  }
  if (data.presents === false) {
    lines.push('');
    lines.push('WebGPU canvases did not reach the page with any set of flags tried (bench/gpu-probe.mjs, probe.json): '
      + `the WebGPU pages drew on the GPU and each first frame was checked by reading the canvas back${data.readBack === 'copy' ? ' (its texture copied into a buffer on the GPU: the canvas could not even be drawn from)' : ''}, `
      + 'but no frame of theirs was composited, so their times leave out the present that the WebGL pages include.');
  }
  lines.push('');
  lines.push(`${where(data)}, three ${three}, postprocessing ${postprocessing}; `
    + `${opts.rounds} round(s) × ${opts.frames} synchronised + ${opts.frames} rAF-driven frames${throughput ? ` + ${opts.batch} queued` : ''} per configuration and page, `
    + `${data.gpu ? `${opts.batch} frames (and scenes alone) timed by the GPU, ` : ''}`
    + `${opts.cpuRounds} round(s) × ${opts.cpuCalls} frame() calls for CPU time, one per animation frame; ${minutes} min in all.`);
  return lines.join('\n');
}

/** A page's GPU-timer figures at one configuration (`byPage`: gpu[label]):
 * medians in ms, null where there are none, each with why not (`…Why`)
 * and how many results were lost. afterglow draws no scene alone: the
 * floor's scene pass into rgba16float stands for it (`sceneFrom`). */
function gpuFigures(byPage, page) {
  const g = byPage[page.key];
  const series = (source, x) => {
    if (!source || source.missing) return { ms: null, why: 'no timer', lost: 0 };
    if (!x) return { ms: null, why: '–', lost: 0 };
    return { ms: x.ms.length ? median(x.ms) : null, why: `no result (${x.lost} lost)`, lost: x.lost };
  };
  const frame = series(g, g?.frame);
  const sceneFrom = !page.floor && page.id === 'afterglow' ? FLOOR_HDR : page;
  const source = byPage[sceneFrom.key];
  const scene = series(source, source?.scene);
  return { frame, scene, sceneFrom: sceneFrom === page ? null : sceneFrom };
}

/** The table of GPU time per frame, read from the GPU's own clock. */
function gpuTable(data, name) {
  const digits = data.opts.gpu ? 3 : 1;
  const shown = (x) => (x.ms === null ? x.why : `${x.ms.toFixed(digits)}${x.lost ? ` (${x.lost} lost)` : ''}`);
  const lines = [
    `| GPU time, median ms of ${data.opts.batch} frames each drawn and timed alone (the GPU's own timer) | ${GPU_ENTRIES.map(name).join(' | ')} |`,
    `|---|${GPU_ENTRIES.map(() => '---:').join('|')}|`,
  ];
  for (const [key, byPage] of Object.entries(data.gpu)) {
    const figures = GPU_ENTRIES.map((p) => gpuFigures(byPage, p));
    lines.push(`| ${key}, whole frame | ${figures.map((f) => shown(f.frame)).join(' | ')} |`);
    lines.push(`| ${key}, scene alone | ${figures.map((f) => `${shown(f.scene)}${f.sceneFrom && f.scene.ms !== null ? ' (floor)' : ''}`).join(' | ')} |`);
    lines.push(`| ${key}, post chain: whole frame − scene alone | ${figures.map((f) => {
      if (f.frame.ms === null) return f.frame.why;
      if (f.scene.ms === null) return f.scene.why;
      return (f.frame.ms - f.scene.ms).toFixed(digits);
    }).join(' | ')} |`);
  }
  // Which timer each page had: the same at every configuration.
  const timers = GPU_ENTRIES.map((p) => [...new Set(Object.values(data.gpu).map((byPage) => timerOf(byPage[p.key])))].join('; '));
  lines.push(`| timer | ${timers.join(' | ')} |`);
  lines.push('');
  lines.push('Scene alone: each library\'s own render call for its scene, into its post chain\'s input target (half-float, '
    + 'the configuration\'s MSAA, resolved) with nothing after it: three.js WebGL and postprocessing '
    + '`renderer.render(scene, camera)` into the composer\'s target, three.js WebGPU into a half-float `RenderTarget` '
    + 'like its `pass()`\'s. afterglow has no call that draws its scene without its chain, so its scene alone '
    + `(marked "floor") is the scene pass of ${FLOOR_HDR.name}. A WebGPU time is the sum of the frame's passes (a pair `
    + 'of timestamps around each), a WebGL time one TIME_ELAPSED_EXT query around the frame; "no timer" means the '
    + 'page\'s browser offers none, "–" a page with nothing to draw alone.');
  return lines;
}

/** Which timer a page's GPU figures came from, or why it has none. */
const timerOf = (g) => (!g ? 'not measured' : g.missing ? `no timer: ${g.missing}` : g.timer);

/** The figures of `data` as the JSON record of a GPU run: for each
 * configuration and library, the throughput per frame (frameMs) and the
 * GPU time of a frame and of its scene alone, null where there is no
 * timer; with what drew, which timer and what stood for the scene alone. */
function summary(data) {
  const libraries = LIBRARIES.filter((p) => p.key === p.id);
  const round = (x) => (x === null ? null : Number(x.toFixed(4)));
  const configs = [...GPU_CONFIGS, ...CONFIGS];
  const rows = Object.entries(data.results).map(([key, byPage]) => {
    const { width, height, msaa } = configs.find((c) => label(c) === key);
    const row = { width, height, msaa, libraries: {} };
    for (const p of libraries) {
      const figures = data.gpu?.[key] ? gpuFigures(data.gpu[key], p) : null;
      row.libraries[p.id] = {
        frameMs: byPage[p.key].throughput?.length ? round(median(byPage[p.key].throughput.flat())) : null,
        gpuMs: round(figures?.frame.ms ?? null),
        sceneGpuMs: round(figures?.scene.ms ?? null),
      };
    }
    return row;
  });
  const each = (f) => Object.fromEntries(libraries.map((p) => [p.id, f(p)]));
  const first = data.gpu ? Object.values(data.gpu)[0] : null;
  return {
    commit: data.tree.commit,
    // Uncommitted changes measured with it (`--dirty`), if any.
    changes: data.tree.changes,
    browser: where(data),
    adapters: each((p) => [...new Set((data.infos[p.key]?.adapters ?? []).map((a) => `${a.api}: ${a.name}${a.fallback ? ' (fallback)' : ''}`))]),
    rows,
    timers: each((p) => timerOf(first?.[p.key])),
    sceneAlone: each((p) => (p.id === 'afterglow' ? `the scene pass of ${FLOOR_HDR.name} (afterglow cannot draw its scene alone)`
      : 'its own render call for the scene into its post chain\'s input target')),
  };
}

main().catch((e) => {
  console.error(`bench: ${e.message}`);
  process.exit(1);
});
