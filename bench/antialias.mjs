// Anti-aliasing side by side: afterglow's FXAA and SMAA against pmndrs
// postprocessing's FXAAEffect and SMAAEffect (preset HIGH, luma edges), on
// the scene of src/tests/antialias.rs (bench/scene.js AA: squares turned
// by 2° to 81° and one-pixel lines at the same angles, lit 0.9 over 0.02
// linear), in one headless Chromium. No curve, bloom, dither or MSAA in
// either page, so without anti-aliasing both show the same display values
// (checked). `cargo xtask bench --antialias` serves the repository root
// and runs this with BENCH_URL set:
//
//   node bench/antialias.mjs [--rounds N] [--frames N] [--shots DIR] [--dirty]
//
// Quality, as the native test measures it: the reference is afterglow
// without anti-aliasing at 1024×1024, box-filtered 4×4 in linear light
// (decode sRGB, average, encode) to 256×256 8-bit. Edge pixels are those
// whose 16 samples differ by more than 2 in green; the error is the mean
// absolute difference there in 8-bit steps (R, G and B); a line's
// contrast is its brightest green across it less the background's,
// averaged along the eight lines, as a share of the reference's; flat
// pixels (2 px or more from any change of the reference) must not move
// against the same library without anti-aliasing, and the table says by
// how much they did.
//
// Cost: each library with none, FXAA and SMAA at 1920×1080, the same
// scene stretched, timed as bench/run.mjs times frames (the harness's
// synchronised frames and rAF-driven ones), pages interleaved round by
// round, each mode as a ratio to the same library without.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { AA } from './scene.js';
import { LINEAR, PAGES, baseUrl, launch, median, openPage, pkgVersion, toSrgb } from './browser.mjs';
import { checkTree, header, record } from './record.mjs';

const usage = 'usage: node bench/antialias.mjs [--rounds N] [--frames N] [--shots DIR] [--dirty]';
const SIDE = AA.side;
const SUPER = 4;
const MODES = ['none', 'fxaa', 'smaa'];
const MODE_NAME = { none: 'none', fxaa: 'FXAA', smaa: 'SMAA' };
const LIBRARIES = ['afterglow', 'postprocessing'].map((id) => PAGES.find((p) => p.id === id));
const SCENE = { scene: 'aa', tonemapper: 'none', bloom: 'off' };
const COST = { width: 1920, height: 1080, msaa: 1 };

function parseArgs(argv) {
  const opts = { rounds: 5, frames: 3, shots: null, dirty: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = argv[i + 1];
    if (a === '--dirty') {
      opts.dirty = true;
    } else if ((a === '--rounds' || a === '--frames') && value) {
      const n = Number(value);
      // Interleaving needs rounds to compare; fewer than 3 says little.
      const least = a === '--rounds' ? 3 : 1;
      if (!Number.isInteger(n) || n < least) throw new Error(`${a} expects a whole number ≥ ${least}, got '${value}'\n${usage}`);
      opts[a.slice(2)] = n;
      i += 1;
    } else if (a === '--shots' && value) {
      opts.shots = value;
      i += 1;
    } else {
      throw new Error(`unknown argument '${a}'\n${usage}`);
    }
  }
  return opts;
}


/** Opens `page` with `query` at `size`, renders frame 0 and returns the
 * canvas as a PNG (RGBA), checking its size and that nothing failed. */
async function shoot(browser, base, page, query, size, opts, name) {
  const { tab, problems, fail } = await openPage(browser, base, page, { ...size, msaa: 1 }, query);
  await tab.evaluate(async () => {
    for (let k = 0; k < 2; k++) await new Promise((r) => requestAnimationFrame(r));
  });
  const shot = await tab.locator('#view').screenshot();
  if (problems.length) throw fail('errors while rendering');
  await tab.close();
  if (opts.shots) writeFileSync(join(opts.shots, `antialias-${name}.png`), shot);
  const png = PNG.sync.read(shot);
  if (png.width !== size.width || png.height !== size.height) {
    throw fail(`the screenshot is ${png.width}×${png.height}, not ${size.width}×${size.height}`);
  }
  return png;
}

/** A SIDE×SIDE PNG as 8-bit R, G, B per pixel. */
function rgb(png) {
  const out = new Float64Array(SIDE * SIDE * 3);
  for (let i = 0; i < SIDE * SIDE; i++) {
    for (let c = 0; c < 3; c++) out[i * 3 + c] = png.data[i * 4 + c];
  }
  return out;
}

/** The reference: `big` box-filtered SUPER×SUPER in linear light and
 * encoded again to 8 bits; and which pixels are on an edge (their
 * samples' greens differ by more than 2). */
function reference(big) {
  const want = new Float64Array(SIDE * SIDE * 3);
  const edge = new Array(SIDE * SIDE).fill(false);
  const bigSide = SIDE * SUPER;
  for (let y = 0; y < SIDE; y++) {
    for (let x = 0; x < SIDE; x++) {
      const sum = [0, 0, 0];
      let low = 255;
      let high = 0;
      for (let s = 0; s < SUPER * SUPER; s++) {
        const j = ((y * SUPER + ((s / SUPER) | 0)) * bigSide + x * SUPER + (s % SUPER)) * 4;
        low = Math.min(low, big.data[j + 1]);
        high = Math.max(high, big.data[j + 1]);
        for (let c = 0; c < 3; c++) sum[c] += LINEAR[big.data[j + c]];
      }
      const i = y * SIDE + x;
      for (let c = 0; c < 3; c++) want[i * 3 + c] = Math.round(toSrgb(sum[c] / (SUPER * SUPER)) * 255);
      edge[i] = high - low > 2;
    }
  }
  return { want, edge };
}

/** Mean absolute difference over the pixels `which` picks, per channel. */
function meanError(a, b, which) {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < SIDE * SIDE; i++) {
    if (!which(i)) continue;
    for (let c = 0; c < 3; c++) sum += Math.abs(a[i * 3 + c] - b[i * 3 + c]);
    n += 3;
  }
  return sum / Math.max(n, 1);
}

/** Where the reference changes: pixels on an edge, and those beside one
 * that lies on a pixel's border (its samples agree, a neighbour differs). */
function changes(want, edge) {
  const g = (i) => want[i * 3 + 1];
  return edge.map((onEdge, i) => {
    const x = i % SIDE;
    const y = (i / SIDE) | 0;
    const differs = (j) => Math.abs(g(i) - g(j)) > 2;
    return onEdge || (x > 0 && differs(i - 1)) || (x + 1 < SIDE && differs(i + 1))
      || (y > 0 && differs(i - SIDE)) || (y + 1 < SIDE && differs(i + SIDE));
  });
}

/** Whether no pixel within 2 of `i` is where the reference changes. */
function flat(changing, i) {
  const x = i % SIDE;
  const y = (i / SIDE) | 0;
  for (let v = Math.max(y - 2, 0); v <= Math.min(y + 2, SIDE - 1); v++) {
    for (let u = Math.max(x - 2, 0); u <= Math.min(x + 2, SIDE - 1); u++) {
      if (changing[v * SIDE + u]) return false;
    }
  }
  return true;
}

/** The most any flat pixel's R, G or B differs between `a` and `b`. */
function flatMoved(a, b, changing) {
  let most = 0;
  for (let i = 0; i < SIDE * SIDE; i++) {
    if (!flat(changing, i)) continue;
    for (let c = 0; c < 3; c++) most = Math.max(most, Math.abs(a[i * 3 + c] - b[i * 3 + c]));
  }
  return most;
}

/** The mean contrast of the one-pixel lines over the background: for each
 * row (steep lines) or column (flat ones) of a line's cell, the brightest
 * green within 4 px of the line's centre less the background's. */
function lineContrast(img) {
  const g = (x, y) => img[(y * SIDE + x) * 3 + 1];
  let sum = 0;
  let n = 0;
  AA.angles.forEach((angle, k) => {
    const cx = AA.cell * (k % 4) + AA.cell / 2;
    const cy = AA.cell * (2 + ((k / 4) | 0)) + AA.cell / 2;
    const tan = Math.tan((angle * Math.PI) / 180);
    const steep = angle > 45;
    const background = g(cx - 30, cy - 30);
    for (let t = -16; t <= 16; t++) {
      // The line's centre at this row (steep) or column.
      const x = Math.floor(steep ? cx + t / tan : cx + t);
      const y = Math.floor(steep ? cy + t : cy + t * tan);
      let brightest = 0;
      for (let d = -4; d <= 4; d++) brightest = Math.max(brightest, steep ? g(x + d, y) : g(x, y + d));
      sum += brightest - background;
      n += 1;
    }
  });
  return sum / n;
}

/** Whether pixel `i` is in a cell of squares (the top two rows of cells),
 * not of lines. */
const isSquare = (i) => i < SIDE * 2 * AA.cell;

/** Renders the reference and every library and mode at SIDE×SIDE, and
 * measures each against the reference and its library's own none. */
async function measureQuality(browser, base, opts, log) {
  const size = { width: SIDE, height: SIDE };
  const big = await shoot(browser, base, LIBRARIES[0], { ...SCENE, antialias: 'none' }, { width: SIDE * SUPER, height: SIDE * SUPER }, opts, 'reference-1024');
  const { want, edge } = reference(big);
  const edges = edge.filter(Boolean).length;
  if (edges < 1000) throw new Error(`the reference has ${edges} edge pixels: not the AA scene`);
  const changing = changes(want, edge);
  const wantContrast = lineContrast(want);
  const images = {};
  const rows = [];
  for (const page of LIBRARIES) {
    images[page.id] = {};
    for (const mode of MODES) {
      const img = rgb(await shoot(browser, base, page, { ...SCENE, antialias: mode }, size, opts, `${page.id}-${mode}`));
      images[page.id][mode] = img;
      // MODES starts with none: each mode's library has its none by now.
      const none = images[page.id].none;
      const error = meanError(img, want, (i) => edge[i]);
      const noneError = mode === 'none' ? error : rows.find((r) => r.page === page && r.mode === 'none').error;
      const row = {
        page,
        mode,
        error,
        ratio: error / noneError,
        squares: meanError(img, want, (i) => edge[i] && isSquare(i)),
        lines: meanError(img, want, (i) => edge[i] && !isSquare(i)),
        kept: lineContrast(img) / wantContrast,
        flatMoved: flatMoved(img, none, changing),
        edgesMoved: meanError(img, none, (i) => edge[i]),
      };
      rows.push(row);
      log(`${page.name} ${MODE_NAME[mode]}: edge error ${row.error.toFixed(2)}, line contrast ${(100 * row.kept).toFixed(0)} %, flat pixels moved ≤ ${row.flatMoved}`);
    }
  }
  return { rows, edges, same: compareNone(images), wantContrast };
}

/** How far the two libraries' frames without anti-aliasing are apart; they
 * draw the same scene with the same values, so any difference is a page
 * drawing something else. */
function compareNone(images) {
  const [a, b] = LIBRARIES.map((p) => images[p.id].none);
  let most = 0;
  let pixels = 0;
  for (let i = 0; i < SIDE * SIDE; i++) {
    let d = 0;
    for (let c = 0; c < 3; c++) d = Math.max(d, Math.abs(a[i * 3 + c] - b[i * 3 + c]));
    most = Math.max(most, d);
    if (d > 1) pixels += 1;
  }
  return { most, pixels };
}

/** Checks what the quality run says about the pages themselves. */
function checkQuality({ rows, same }) {
  if (same.pixels > 0) {
    throw new Error(`without anti-aliasing the two pages differ by more than 1 on ${same.pixels} pixel(s) (at most ${same.most}): they do not draw the same scene`);
  }
  for (const r of rows) {
    // A mode that changes no edge is not running (postprocessing's SMAA
    // renders its input unchanged until its images have loaded).
    if (r.mode !== 'none' && r.edgesMoved < 1) {
      throw new Error(`${r.page.name} ${MODE_NAME[r.mode]} changes edge pixels by ${r.edgesMoved.toFixed(2)} on average: it did not run`);
    }
  }
}

/** Opens every library and mode at COST, checks each frame shows the
 * scene, then times them round-robin, a different page first each round. */
async function measureCost(browser, base, opts, log) {
  const entries = LIBRARIES.flatMap((page) => MODES.map((mode) => ({ page, mode, key: `${page.id}-${mode}` })));
  const opened = {};
  const times = {};
  for (const e of entries) {
    opened[e.key] = await openPage(browser, base, e.page, COST, { ...SCENE, antialias: e.mode });
    if (!opened[e.key].info.isolated) throw opened[e.key].fail('the page is not cross-origin isolated: timers are coarse');
    await checkCostFrame(opened[e.key], opts, e.key);
    times[e.key] = { synced: [], raf: [] };
  }
  for (let round = 0; round < opts.rounds; round++) {
    for (let k = 0; k < entries.length; k++) {
      const e = entries[(round + k) % entries.length];
      const { tab, fail, problems } = opened[e.key];
      await tab.bringToFront();
      const start = (round * opts.frames * 2) / 60;
      const synced = await tab.evaluate(([n, s]) => window.benchSynced(n, s), [opts.frames, start]);
      const raf = await tab.evaluate(([n, s]) => window.benchRaf(n, s), [opts.frames, start + opts.frames / 60]);
      if (problems.length) throw fail('errors while measuring');
      times[e.key].synced.push(synced);
      times[e.key].raf.push([raf]);
      log(`round ${round + 1}: ${e.page.name} ${MODE_NAME[e.mode]} synced ${median(synced).toFixed(1)} ms, rAF ${raf.toFixed(1)} ms`);
    }
  }
  for (const e of entries) await opened[e.key].tab.close();
  return { entries, times };
}

/** The first square's centre is lit and the corner of its cell is not. */
async function checkCostFrame(opened, opts, key) {
  await opened.tab.evaluate(async () => { window.frame(0); await window.sync(); });
  const shot = await opened.tab.locator('#view').screenshot();
  if (opts.shots) writeFileSync(join(opts.shots, `antialias-cost-${key}.png`), shot);
  const png = PNG.sync.read(shot);
  const green = (u, v) => png.data[(Math.floor(v * png.height) * png.width + Math.floor(u * png.width)) * 4 + 1];
  const centre = green(32 / SIDE, 32 / SIDE);
  const corner = green(2 / SIDE, 2 / SIDE);
  if (centre < 200 || corner > 60) throw opened.fail(`not the AA scene: square centre ${centre}, background ${corner}`);
  if (opened.problems.length) throw opened.fail('errors while rendering');
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const tree = checkTree(opts.dirty);
  if (opts.shots) mkdirSync(opts.shots, { recursive: true });
  const base = baseUrl();
  const started = Date.now();
  const browser = await launch();
  const log = (s) => process.stderr.write(`${s}\n`);
  try {
    const quality = await measureQuality(browser, base, opts, log);
    checkQuality(quality);
    const cost = await measureCost(browser, base, opts, log);
    const minutes = ((Date.now() - started) / 60000).toFixed(1);
    const text = `${header({ title: 'Anti-aliasing side by side', tree, browser: `Chromium ${browser.version()} (SwiftShader)` })}\n`
      + qualityReport(quality) + costReport(cost, opts)
      + `\n\nChromium ${browser.version()} on SwiftShader (WebGPU and WebGL emulated on the CPU: costs are CPU time, not a GPU's), `
      + `three ${pkgVersion('three')}, postprocessing ${pkgVersion('postprocessing')}; ${minutes} min in all.`;
    console.log(text);
    log(`written to ${record('antialias', tree, text)}`);
  } finally {
    await browser.close();
  }
}

function qualityReport({ rows, edges, same }) {
  const lines = ['| library | mode | edge error (8-bit) | against its none | on the squares | on the lines | line contrast kept | flat pixels: most moved against its none |'];
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    lines.push(`| ${r.page.name} | ${MODE_NAME[r.mode]} | ${r.error.toFixed(2)} | ${r.ratio.toFixed(2)}× | ${r.squares.toFixed(2)} | ${r.lines.toFixed(2)} | `
      + `${(100 * r.kept).toFixed(0)} % | ${r.flatMoved} |`);
  }
  const smaa = LIBRARIES.map((p) => rows.find((r) => r.page === p && r.mode === 'smaa').error);
  lines.push('');
  lines.push(`${SIDE}×${SIDE}, against afterglow without anti-aliasing at ${SIDE * SUPER}×${SIDE * SUPER} box-filtered ${SUPER}×${SUPER} in linear light; `
    + `${edges} edge pixels; no curve, bloom, dither or MSAA; without anti-aliasing the two libraries' frames differ by at most ${same.most}. `
    + `afterglow's SMAA error is ${(smaa[0] / smaa[1]).toFixed(2)}× postprocessing's `
    + `(${smaa[0] <= smaa[1] ? 'no larger: the target is met' : 'larger: the target is not met'}).`);
  return lines.join('\n');
}

function costReport({ entries, times }, opts) {
  const lines = ['', '', `| library | mode | ${COST.width}×${COST.height}, synchronised: median · ratio to its none (range over rounds) | rAF-driven |`];
  lines.push('|---|---|---:|---:|');
  for (const e of entries) {
    const none = times[`${e.page.id}-none`];
    const cell = (field) => `${median(times[e.key][field].flat()).toFixed(0)} ms · ${ratio(times[e.key][field], none[field])}`;
    lines.push(`| ${e.page.name} | ${MODE_NAME[e.mode]} | ${cell('synced')} | ${cell('raf')} |`);
  }
  lines.push('');
  lines.push(`${opts.rounds} interleaved round(s) × ${opts.frames} synchronised + ${opts.frames} rAF-driven frames per page, msaa 1, the same scene stretched.`);
  return lines.join('\n');
}

/** "ratio× (lowest–highest ratio of one round)", as bench/run.mjs gives it. */
function ratio(rounds, refRounds) {
  const r = median(rounds.flat()) / median(refRounds.flat());
  const perRound = rounds.map((x, i) => median(x) / median(refRounds[i]));
  const range = rounds !== refRounds ? ` (${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)})` : '';
  return `${r.toFixed(2)}×${range}`;
}

main().catch((e) => {
  console.error(`bench: ${e.message}`);
  process.exit(1);
});
