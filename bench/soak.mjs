// The soak: one renderer in headless Chromium through a long run of frames,
// two storms of resizes to pseudo-random sizes with an idle wait between
// them, a storm of option changes, device losses and create/destroy cycles
// (bench/pages/soak.js). Before and after each phase it prints the
// textures created, destroyed and alive, stats().gpuBytes, the wasm
// memory, the JS heap after a forced GC, and the resident memory of the
// browser's GPU process (from /proc; "before" is read after a forced GC,
// "after" without one, so a phase's difference is what it left behind
// unaided). Then, in a fresh browser, the control: the same resize storms
// on a canvas driven by plain WebGPU (bench/pages/soak-raw.js), so that
// the browser's own growth can be told from afterglow's. `--quick` runs
// each phase a twentieth as long (the idle waits stay 5 s).
import { readFileSync, readdirSync } from 'node:fs';
import { baseUrl, launch, median } from './browser.mjs';

const quick = process.argv.includes('--quick');
const scale = quick ? 20 : 1;
const IDLE_S = 5;
const PHASES = [
  ['frames', 20_000 / scale],
  ['resizes', 1_000 / scale],
  ['idle', IDLE_S],
  ['resizes', 1_000 / scale],
  ['options', 1_000 / scale],
  ['losses', 100 / scale],
  ['cycles', Math.max(4, 80 / scale)],
];
const CONTROL = [
  ['resizes', 1_000 / scale, {}, 'resizes, configure() each'],
  ['idle', IDLE_S, undefined, 's idle'],
  ['resizes', 1_000 / scale, {}, 'resizes, configure() each'],
  ['resizes', 1_000 / scale, { reconfigure: false }, 'resizes, size only'],
  ['resizes', 1_000 / scale, { withTargets: true }, 'resizes, configure() and 4 targets each'],
  ['idle', IDLE_S, undefined, 's idle'],
];

/** Resident memory in MiB of the GPU process of the Chromium this process
 * started (the descendant with --type=gpu-process). */
function gpuProcessMiB() {
  const procs = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      return { pid, ppid, cmd };
    } catch { return null; }
  }).filter(Boolean);
  // Descendants of this process (the browser may sit behind a launcher).
  const mine = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of procs) {
      if (mine.has(p.ppid) && !mine.has(Number(p.pid))) { mine.add(Number(p.pid)); grew = true; }
    }
  }
  const gpu = procs.find((p) => mine.has(Number(p.pid)) && p.cmd.includes('--type=gpu-process'));
  if (!gpu) return null;
  const rss = readFileSync(`/proc/${gpu.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return rss ? Number(rss[1]) / 1024 : null;
}

const mib = (b) => (b == null ? 'n/a' : (b / 1048576).toFixed(1));
const gpuMib = (g) => (g == null ? 'n/a' : g.toFixed(1));
const signed = (d) => `${d >= 0 ? '+' : '−'}${Math.abs(d).toFixed(1)}`;
const pair = (a, b, f = String) => (f(a) === f(b) ? `${f(a)} → same` : `${f(a)} → ${f(b)}`);
const gpuPair = (a, b) =>
  (a == null || b == null ? 'n/a' : `${gpuMib(a)} → ${gpuMib(b)} (${signed(b - a)})`);

/** Opens `page` in a fresh browser; returns { browser, tab, problems }. */
async function open(page) {
  const browser = await launch(['--js-flags=--expose-gc']);
  const problems = [];
  const tab = await browser.newPage({ viewport: { width: 600, height: 600 } });
  tab.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  const lossesLogged = [];
  tab.on('console', (m) => {
    if (m.type() !== 'error' && m.type() !== 'warning') return;
    // The one message a loss caused on purpose is expected to give.
    if (/^afterglow: GPU device lost \(Destroyed\)/.test(m.text())) lossesLogged.push(m.text());
    else problems.push(`console: ${m.text()}`);
  });
  tab.on('crash', () => problems.push('the page crashed'));
  await tab.goto(new URL(`bench/pages/${page}.html`, baseUrl()).href, { waitUntil: 'domcontentloaded' });
  await tab.waitForFunction(() => window.soakReady === true, null, { timeout: 120_000 });
  return { browser, tab, problems, lossesLogged };
}

/** Runs a phase and reads the GPU process before (after a GC) and after
 * (before any GC); returns { before, after, gpu: [before, after], seconds, result }. */
async function phase(tab, name, n, arg) {
  const before = await tab.evaluate(() => window.soak.measure());
  await tab.evaluate(() => window.soak.settle());
  const gpu0 = gpuProcessMiB();
  const t0 = Date.now();
  const result = await tab.evaluate(([p, k, a]) => window.soak[p](k, a), [name, n, arg]);
  if (name !== 'idle') await tab.evaluate(() => window.soak.frames(10));
  // The GPU process works behind the page: read it once it has done all.
  await tab.evaluate(() => window.soak.settle());
  const gpu1 = gpuProcessMiB();
  const after = await tab.evaluate(() => window.soak.measure());
  return { before, after, gpu: [gpu0, gpu1], seconds: (Date.now() - t0) / 1000, result };
}

const failures = [];
const label = (name, n) => (name === 'idle' ? `${n} s idle` : `${n} ${name}`);

// afterglow
{
  const { browser, tab, problems, lossesLogged } = await open('soak');
  try {
    console.log(`soak${quick ? ' --quick' : ''}: ${PHASES.map(([p, n]) => label(p, n)).join(', ')}\n`);
    console.log('| phase | textures created, destroyed (in the phase, with their device or alone); alive | gpuBytes | wasm MiB | JS heap MiB (after GC) | GPU process MiB |');
    console.log('|---|---|---|---|---|---|');
    await tab.evaluate(() => window.soak.frames(60));
    let first = null;
    let firstStorm = null;
    let last = null;
    const losses = [];
    for (const [name, n] of PHASES) {
      const r = await phase(tab, name, n);
      first ??= r.gpu[0];
      last = r.gpu[1];
      if (name === 'resizes' && !firstStorm) firstStorm = r.gpu;
      if (name === 'losses') {
        losses.push(...r.result);
        if (lossesLogged.length !== n) failures.push(`${n} losses logged ${lossesLogged.length} times`);
      }
      const { before: b, after: a } = r;
      console.log(`| ${label(name, n)} (${r.seconds.toFixed(0)} s) | ${a.created - b.created}, ${a.destroyed - b.destroyed}; ${pair(b.live, a.live)} | ${pair(b.gpuBytes, a.gpuBytes)} | ${pair(b.wasmBytes, a.wasmBytes, mib)} | ${pair(b.jsHeap, a.jsHeap, mib)} | ${gpuPair(...r.gpu)} |`);
      if (a.live !== b.live) failures.push(`${label(name, n)}: textures alive went from ${b.live} to ${a.live}`);
      if (a.gpuBytes !== b.gpuBytes) failures.push(`${label(name, n)}: gpuBytes went from ${b.gpuBytes} to ${a.gpuBytes}`);
      if (problems.length) break;
    }
    console.log('');
    if (losses.length) {
      console.log(`device losses: ${losses.length} of ${PHASES.find(([p]) => p === 'losses')[1]} recovered, each frame equal to the one before the loss; render() calls to recover: median ${median(losses)}, at most ${Math.max(...losses)}`);
    }
    if (firstStorm && !firstStorm.includes(null)) {
      const grew = firstStorm[1] - first;
      console.log(`GPU process after the first resize storm, no GC: ${signed(grew)} MiB from the start (${signed(firstStorm[1] - firstStorm[0])} in the storm): the 20 MiB target ${grew <= 20 ? 'holds' : 'is not met'}`);
    }
    if (first != null && last != null) {
      console.log(`GPU process: ${gpuMib(first)} MiB at the start, ${gpuMib(last)} MiB at the end (${signed(last - first)} MiB)`);
    }
  } finally {
    failures.push(...problems);
    await browser.close();
  }
}

// The control: plain WebGPU in a fresh browser.
if (!failures.length && !process.argv.includes('--no-control')) {
  const { browser, tab, problems } = await open('soak-raw');
  try {
    console.log('\ncontrol, plain WebGPU on a canvas (no afterglow), fresh browser:\n');
    console.log('| phase | JS heap MiB (after GC) | GPU process MiB |');
    console.log('|---|---|---|');
    await tab.evaluate(() => window.soak.frames(60));
    for (const [name, n, arg, what] of CONTROL) {
      const r = await phase(tab, name, n, arg);
      console.log(`| ${n} ${what} (${r.seconds.toFixed(0)} s) | ${pair(r.before.jsHeap, r.after.jsHeap, mib)} | ${gpuPair(...r.gpu)} |`);
      if (problems.length) break;
    }
  } finally {
    failures.push(...problems);
    await browser.close();
  }
}

if (failures.length) {
  console.error(`\nproblems:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
