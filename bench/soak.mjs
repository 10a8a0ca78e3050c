// The soak: one renderer in headless Chromium through a long run of frames,
// a storm of resizes to pseudo-random sizes, a storm of option changes and
// create/destroy cycles (bench/pages/soak.js). Before and after each phase
// it prints the textures created and destroyed (and alive), stats().gpuBytes,
// the wasm memory, the JS heap after a forced GC, and the resident memory of
// the browser's GPU process (from /proc, without a GC). `--quick` runs
// each phase a twentieth as long.
import { readFileSync, readdirSync } from 'node:fs';
import { baseUrl, launch } from './browser.mjs';

const quick = process.argv.includes('--quick');
const scale = quick ? 20 : 1;
const PHASES = [
  ['frames', 20_000 / scale],
  ['resizes', 1_000 / scale],
  ['options', 1_000 / scale],
  ['cycles', Math.max(4, 80 / scale)],
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
const row = (what, m, gpu) =>
  `| ${what} | ${m.created} | ${m.destroyed} | ${m.live} | ${m.gpuBytes} | ${mib(m.wasmBytes)} | ${mib(m.jsHeap)} | ${gpu == null ? 'n/a' : gpu.toFixed(1)} |`;

const browser = await launch(['--js-flags=--expose-gc']);
const problems = [];
try {
  const tab = await browser.newPage({ viewport: { width: 600, height: 600 } });
  tab.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  tab.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console: ${m.text()}`); });
  tab.on('crash', () => problems.push('the page crashed'));
  await tab.goto(new URL('bench/pages/soak.html', baseUrl()).href, { waitUntil: 'domcontentloaded' });
  await tab.waitForFunction(() => window.soakReady === true, null, { timeout: 120_000 });
  console.log(`soak${quick ? ' --quick' : ''}: ${PHASES.map(([p, n]) => `${n} ${p}`).join(', ')}\n`);
  console.log('| after | textures created | destroyed | alive | gpuBytes | wasm MiB | JS heap MiB (after GC) | GPU process MiB |');
  console.log('|---|---|---|---|---|---|---|---|');
  await tab.evaluate(() => window.soak.frames(60));
  const start = gpuProcessMiB();
  console.log(row('start (60 frames)', await tab.evaluate(() => window.soak.measure()), start));
  let last = start;
  for (const [phase, n] of PHASES) {
    const t0 = Date.now();
    await tab.evaluate(([p, k]) => window.soak[p](k), [phase, n]);
    await tab.evaluate(() => window.soak.frames(10));
    last = gpuProcessMiB();
    const m = await tab.evaluate(() => window.soak.measure());
    console.log(row(`${n} ${phase} (${((Date.now() - t0) / 1000).toFixed(0)} s)`, m, last));
    if (problems.length) break;
  }
  if (start != null && last != null) {
    console.log(`\nGPU process: ${start.toFixed(1)} MiB at the start, ${last.toFixed(1)} MiB at the end (${(last - start >= 0 ? '+' : '')}${(last - start).toFixed(1)} MiB)`);
  }
} finally {
  await browser.close();
}
if (problems.length) {
  console.error(`problems:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
