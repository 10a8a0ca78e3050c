// Side-by-side benchmark: afterglow, three.js WebGL + UnrealBloomPass,
// postprocessing, three.js WebGPU + TSL bloom, on the same HDR content in one
// headless Chromium. `cargo xtask bench` serves the repository root and runs
// this with BENCH_URL set; it can also be run by hand against any server
// that exposes bench/, www/pkg/ and node_modules/ at its root:
//
//   node bench/run.mjs [--quick] [--frames N] [--rounds N] [--cpu-calls N] [--shots DIR]
//
// Every configuration opens the four pages, checks that each renders a
// bloomed frame (a bright disc centre, a halo above the background), then
// measures them round-robin, a different page first in every round, so
// that drift of the shared machine spreads over all of them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { DISCS } from './scene.js';
import { PAGES, baseUrl, label, launch, median, openPage as open, pkgVersion as pkg } from './browser.mjs';

const REFERENCE = 'three-webgl';

const usage = 'usage: node bench/run.mjs [--quick] [--frames N] [--rounds N] [--cpu-calls N] [--shots DIR]';

function parseArgs(argv) {
  const quick = argv.includes('--quick');
  const opts = {
    quick,
    frames: quick ? 2 : 3,
    rounds: quick ? 1 : 5,
    cpuCalls: quick ? 60 : 300,
    shots: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') continue;
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
    else if (a === '--shots' && value) { opts.shots = value; i += 1; }
    else throw new Error(`unknown argument '${a}'\n${usage}`);
  }
  return opts;
}

const CONFIGS = [
  { width: 1920, height: 1080, msaa: 1 },
  { width: 1280, height: 720, msaa: 1 },
  { width: 1920, height: 1080, msaa: 4 },
  { width: 1280, height: 720, msaa: 4 },
];
const CPU_CONFIG = { width: 64, height: 64, msaa: 1 };

/** Opens one page at `config`; timers must be fine-grained for timing. */
async function openPage(browser, base, page, config) {
  const opened = await open(browser, base, page, config);
  // Without cross-origin isolation performance.now() is coarsened to 100 µs.
  if (!opened.info.isolated) opened.problems.push('the page is not cross-origin isolated: timers are coarse');
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
  await opened.tab.evaluate(async () => { window.frame(0); await window.sync(); });
  const shot = await opened.tab.locator('#view').screenshot();
  if (shots) writeFileSync(join(shots, `${page.id}-${config.width}x${config.height}-msaa${config.msaa}.png`), shot);
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
  if (halo < background + 8) throw opened.fail(`no bloom halo around the disc (${JSON.stringify(values)})`);
  if (background > 100) throw opened.fail(`the background is not dim (${JSON.stringify(values)})`);
  if (opened.problems.length) throw opened.fail('errors while rendering');
  return values;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const base = baseUrl();
  if (opts.shots) mkdirSync(opts.shots, { recursive: true });

  const started = Date.now();
  const browser = await launch();
  const log = (s) => process.stderr.write(`${s}\n`);
  log(`Chromium ${browser.version()}, three ${pkg('three')}, postprocessing ${pkg('postprocessing')}; `
    + `${opts.rounds} round(s) of ${opts.frames} frame(s), ${opts.cpuCalls} calls for CPU time`);

  // results[label][pageId] = { synced: [[ms per frame] per round], raf: [[ms] per round] }
  const results = {};
  const infos = {};
  try {
    for (const config of CONFIGS) {
      const key = label(config);
      results[key] = {};
      const opened = {};
      for (const page of PAGES) {
        opened[page.id] = await openPage(browser, base, page, config);
        infos[page.id] = opened[page.id].info;
        const values = await checkFrame(opened[page.id], config, page, opts.shots);
        const { backend, readyMs } = opened[page.id].info;
        log(`${key}: ${page.name} (${backend}, ready in ${(readyMs / 1000).toFixed(1)} s) renders a bloomed frame ${JSON.stringify(values)}`);
        results[key][page.id] = { synced: [], raf: [] };
      }
      for (let round = 0; round < opts.rounds; round++) {
        for (let k = 0; k < PAGES.length; k++) {
          const page = PAGES[(round + k) % PAGES.length];
          const { tab, fail, problems } = opened[page.id];
          await tab.bringToFront();
          const start = round * opts.frames * 2 / 60;
          const synced = await tab.evaluate(([n, s]) => window.benchSynced(n, s), [opts.frames, start]);
          const raf = await tab.evaluate(([n, s]) => window.benchRaf(n, s), [opts.frames, start + opts.frames / 60]);
          if (problems.length) throw fail('errors while measuring');
          results[key][page.id].synced.push(synced);
          results[key][page.id].raf.push([raf]);
          log(`${key} round ${round + 1}: ${page.name} synced ${median(synced).toFixed(1)} ms, rAF ${raf.toFixed(1)} ms`);
        }
      }
      for (const page of PAGES) await opened[page.id].tab.close();
    }

    const cpu = {};
    const opened = {};
    for (const page of PAGES) {
      opened[page.id] = await openPage(browser, base, page, CPU_CONFIG);
      cpu[page.id] = [];
    }
    for (let round = 0; round < opts.rounds; round++) {
      for (let k = 0; k < PAGES.length; k++) {
        const page = PAGES[(round + k) % PAGES.length];
        const { tab, fail, problems } = opened[page.id];
        await tab.bringToFront();
        const r = await tab.evaluate((n) => window.benchCpu(n), opts.cpuCalls);
        if (problems.length) throw fail('errors while measuring');
        cpu[page.id].push([r.median]);
        log(`CPU round ${round + 1}: ${page.name} ${r.median.toFixed(3)} ms per frame() call`);
      }
    }
    for (const page of PAGES) await opened[page.id].tab.close();

    const minutes = ((Date.now() - started) / 60000).toFixed(1);
    console.log(report({ opts, results, cpu, infos, chromium: browser.version(), three: pkg('three'), postprocessing: pkg('postprocessing'), minutes }));
  } finally {
    await browser.close();
  }
}

/** "median ms · ratio× (lowest–highest ratio of one round)": the ratio is of
 * the medians over all rounds; the range compares each round's median with
 * three.js WebGL's in the same round, to show how steady the ratio is. */
function cell(rounds, refRounds, digits) {
  const value = median(rounds.flat());
  const ratio = value / median(refRounds.flat());
  const perRound = rounds.map((r, i) => median(r) / median(refRounds[i]));
  const range = perRound.length > 1 && rounds !== refRounds
    ? ` (${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)})` : '';
  return `${value.toFixed(digits)} ms · ${ratio.toFixed(2)}×${range}`;
}

function report({ opts, results, cpu, infos, chromium: version, three, postprocessing, minutes }) {
  const lines = [];
  const names = PAGES.map((p) => (p.id === 'three-webgpu' && infos[p.id]?.backend !== 'WebGPU'
    ? `${p.name} (ran on ${infos[p.id]?.backend})` : p.name));
  lines.push(`| per frame: median · ratio to three.js WebGL (range over rounds) | ${names.join(' | ')} |`);
  lines.push(`|---|${PAGES.map(() => '---:').join('|')}|`);
  for (const [key, byPage] of Object.entries(results)) {
    for (const [what, field] of [['synchronised', 'synced'], ['rAF-driven', 'raf']]) {
      const ref = byPage[REFERENCE][field];
      lines.push(`| ${key}, ${what} | ${PAGES.map((p) => cell(byPage[p.id][field], ref, 0)).join(' | ')} |`);
    }
  }
  lines.push(`| CPU per frame() call, ${label(CPU_CONFIG)} | ${PAGES.map((p) => cell(cpu[p.id], cpu[REFERENCE], 3)).join(' | ')} |`);
  lines.push('');
  lines.push(`Chromium ${version} (SwiftShader), three ${three}, postprocessing ${postprocessing}; `
    + `${opts.rounds} round(s) × ${opts.frames} synchronised + ${opts.frames} rAF-driven frames per configuration and page, `
    + `${opts.cpuCalls} frame() calls per round for CPU time; ${minutes} min in all.`);
  return lines.join('\n');
}

main().catch((e) => {
  console.error(`bench: ${e.message}`);
  process.exit(1);
});
