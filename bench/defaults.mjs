// The default glow, side by side: how much light each library's bloom puts
// around the same lights when nothing is set but the content. One headless
// Chromium, the four pages of bench/pages/ with `?bloom=own` (each
// library's own bloom defaults, bench/scene.js says which) and with
// `?bloom=off`, the six discs of bench/scene.js (linear radiance 3 to 100
// over a dim gradient) at 960×540, msaa 1, frame 0; once with no curve in
// any of them (the bloom alone) and once with each library's own curve
// (`tonemapper=own`: AgX for afterglow, none for the others). afterglow is
// also measured at other intensities, to see where its default sits.
// `cargo xtask bench --defaults` serves the repository root and runs this
// with BENCH_URL set:
//
//   node bench/defaults.mjs [--intensities 0.6,0.8,1@0.7] [--shots DIR] [--dirty]
//
// (`1@0.7`: intensity 1 with bloom.radius 0.7.)
//
// From screenshots decoded from sRGB to linear light (the mean of R, G and
// B), bloom on minus bloom off: the glow is the added light in the ring
// from 3 px to a tenth of the height beyond each disc's edge, averaged over
// the ring and then over the six discs; the veil is the added light
// farther than a quarter of the height from every disc (light spread over
// the whole frame, not around the lights).
//
// Then a photo's tones through afterglow at its defaults: the 8-bit sRGB
// levels 0 to 255 across a 512×64 frame, decoded and multiplied by a gain
// as setImage does, for each of GAINS: the level each of a few input
// levels comes out as, and the input level from which the light is above
// the bloom threshold (1), which is what blooms.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { DISCS } from './scene.js';
import { LINEAR, PAGES, baseUrl, launch, openPage, pkgVersion, toLinear } from './browser.mjs';
import { checkTree, header, record } from './record.mjs';

const usage = 'usage: node bench/defaults.mjs [--intensities X,Y@R,…] [--shots DIR] [--dirty]';
const SIZE = { width: 960, height: 540, msaa: 1 };
const CURVES = ['none', 'own'];
const GAINS = [1, 1.5, 2, 3, 4];
const RAMP = { width: 512, height: 64, msaa: 1 };
const LEVELS = [64, 128, 192, 230, 255];

function parseArgs(argv) {
  const opts = { intensities: [0.6, 0.8, 1.0].map((x) => ({ intensity: x, radius: null, label: String(x) })), shots: null, dirty: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = argv[i + 1];
    if (a === '--dirty') {
      opts.dirty = true;
    } else if (a === '--intensities' && value) {
      // X, or X@R: intensity X with bloom.radius R.
      opts.intensities = value.split(',').map((v) => {
        const [x, r] = v.split('@').map(Number);
        return { intensity: x, radius: v.includes('@') ? r : null, label: v };
      });
      if (opts.intensities.some(({ intensity: x, radius: r }) => !(x >= 0 && x <= 100) || (r !== null && !(r > 0 && r <= 8)))) {
        throw new Error(`--intensities expects numbers from 0 to 100, each with @R for a radius above 0 and at most 8, got '${value}'\n${usage}`);
      }
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


/** Glow (mean added light in the rings around the discs, per disc then
 * averaged) and veil (mean added light far from every disc), `on` − `off`. */
function measure(on, off) {
  const { width, height } = on;
  const discs = DISCS.map((d) => ({
    x: d.centre[0] * width, y: d.centre[1] * height, r: d.radius * height, sum: 0, n: 0,
  }));
  let veil = 0;
  let veilN = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const lin = (png) => (LINEAR[png.data[i]] + LINEAR[png.data[i + 1]] + LINEAR[png.data[i + 2]]) / 3;
      const added = lin(on) - lin(off);
      let far = true;
      for (const d of discs) {
        const beyond = Math.hypot(x + 0.5 - d.x, y + 0.5 - d.y) - d.r;
        if (beyond >= 3 && beyond <= 0.1 * height) {
          d.sum += added;
          d.n += 1;
        }
        if (beyond < 0.25 * height) far = false;
      }
      if (far) {
        veil += added;
        veilN += 1;
      }
    }
  }
  const perDisc = discs.map((d) => d.sum / d.n);
  return { glow: perDisc.reduce((a, b) => a + b, 0) / perDisc.length, perDisc, veil: veil / Math.max(veilN, 1) };
}

async function shoot(browser, base, page, query, opts, name, size = SIZE) {
  const { tab, problems, fail } = await openPage(browser, base, page, size, query);
  await tab.evaluate(async () => {
    for (let k = 0; k < 2; k++) await new Promise((r) => requestAnimationFrame(r));
  });
  const shot = await tab.locator('#view').screenshot();
  if (problems.length) throw fail('errors while rendering');
  await tab.close();
  if (opts.shots) writeFileSync(join(opts.shots, `defaults-${name}.png`), shot);
  const png = PNG.sync.read(shot);
  if (png.width !== size.width || png.height !== size.height) {
    throw fail(`the screenshot is ${png.width}×${png.height}, not ${size.width}×${size.height}`);
  }
  return png;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const tree = checkTree(opts.dirty);
  if (opts.shots) mkdirSync(opts.shots, { recursive: true });
  // Each column: a page at its defaults, then afterglow at other intensities.
  const columns = [
    ...PAGES.map((p) => ({ ...p, key: p.id, extra: {} })),
    ...opts.intensities.map(({ intensity, radius, label }) => ({
      ...PAGES[0],
      key: `afterglow-${label}`,
      name: `afterglow, intensity ${intensity}${radius === null ? '' : `, radius ${radius}`}`,
      extra: { intensity, ...(radius === null ? {} : { radius }) },
    })),
  ];
  const base = baseUrl();
  const started = Date.now();
  const browser = await launch();
  const log = (s) => process.stderr.write(`${s}\n`);
  const results = {};
  try {
    for (const curve of CURVES) {
      results[curve] = {};
      const offs = {};
      for (const column of columns) {
        if (!offs[column.id]) {
          offs[column.id] = await shoot(browser, base, column, { tonemapper: curve, bloom: 'off' }, opts, `${column.id}-${curve}-off`);
        }
        const on = await shoot(browser, base, column, { tonemapper: curve, bloom: 'own', ...column.extra }, opts, `${column.key}-${curve}`);
        const m = measure(on, offs[column.id]);
        results[curve][column.key] = m;
        log(`${curve === 'own' ? 'own curve' : 'no curve'}: ${column.name} glow ${m.glow.toFixed(4)}, veil ${m.veil.toFixed(4)}`);
      }
    }
    const ramps = {};
    for (const gain of GAINS) {
      const png = await shoot(browser, base, PAGES[0], { scene: 'ramp', gain, tonemapper: 'own', bloom: 'own' }, opts, `ramp-${gain}`, RAMP);
      // The middle row, the middle of each level's two columns.
      const at = (level) => png.data[((RAMP.height >> 1) * RAMP.width + level * 2 + 1) * 4];
      ramps[gain] = LEVELS.map(at);
      log(`ramp, gain ${gain}: ${LEVELS.map((l, i) => `${l}→${ramps[gain][i]}`).join(' ')}`);
    }
    const minutes = ((Date.now() - started) / 60000).toFixed(1);
    const text = `${header({ title: 'The default glow side by side', tree, browser: `Chromium ${browser.version()} (SwiftShader)` })}\n`
      + report(results, columns, browser.version(), minutes) + rampReport(ramps);
    console.log(text);
    log(`written to ${record('defaults', tree, text)}`);
  } finally {
    await browser.close();
  }
}

function report(results, columns, version, minutes) {
  const lines = [];
  lines.push(`| curve | measure | ${columns.map((c) => c.name).join(' | ')} |`);
  lines.push(`|---|---|${columns.map(() => '---:').join('|')}|`);
  for (const curve of CURVES) {
    const name = curve === 'own' ? "each library's own" : 'none';
    lines.push(`| ${name} | **glow** around the lights | ${columns.map((c) => `**${results[curve][c.key].glow.toFixed(4)}**`).join(' | ')} |`);
    DISCS.forEach((d, k) => {
      lines.push(`| ${name} | around the disc of radiance ${d.radiance.join(', ')} | ${columns.map((c) => results[curve][c.key].perDisc[k].toFixed(4)).join(' | ')} |`);
    });
    lines.push(`| ${name} | veil far from them | ${columns.map((c) => results[curve][c.key].veil.toFixed(4)).join(' | ')} |`);
  }
  lines.push('');
  lines.push(`Chromium ${version} (SwiftShader), three ${pkgVersion('three')}, postprocessing ${pkgVersion('postprocessing')}; `
    + `${SIZE.width}×${SIZE.height}, msaa 1, frame 0; added light (bloom on − off), linear, mean of R, G and B, `
    + `from 8-bit sRGB screenshots; ${minutes} min in all.`);
  return lines.join('\n');
}

/** The lowest 8-bit sRGB level whose light, times `gain`, is above 1. */
function bloomsFrom(gain) {
  for (let level = 0; level < 256; level++) if (toLinear(level) * gain > 1) return level;
  return null;
}

function rampReport(ramps) {
  const lines = ['', '', `| gain | ${LEVELS.map((l) => `input ${l}`).join(' | ')} | blooms from input |`];
  lines.push(`|---:|${LEVELS.map(() => '---:').join('|')}|---:|`);
  for (const gain of GAINS) {
    const from = bloomsFrom(gain);
    lines.push(`| ${gain} | ${ramps[gain].join(' | ')} | ${from === null ? 'none' : `${from} (${((1 - from / 255) * 100).toFixed(0)} % of the levels above it)`} |`);
  }
  lines.push('');
  lines.push(`8-bit sRGB levels across a ${RAMP.width}×${RAMP.height} frame, decoded and multiplied by the gain, through afterglow at its `
    + 'defaults (AgX, bloom threshold 1): the level each input comes out as (middle row, no dither).');
  return lines.join('\n');
}

main().catch((e) => {
  console.error(`bench: ${e.message}`);
  process.exit(1);
});
