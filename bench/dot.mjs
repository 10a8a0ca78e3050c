// Small lights, side by side: does a tiny bright light bloom steadily as it
// moves, and in proportion to its energy? One headless Chromium, the four
// pages of bench/pages/ with `?scene=dot`: black, and one dot of radius
// 0.8 px moving by sub-pixel steps (bench/scene.js, the same dot as the
// tests'), 320×180, msaa 1, bloom threshold 1, at radiances 15 and 30,
// with no tonemapper and with ACES. `cargo xtask bench --dot` serves the
// repository root and runs this with BENCH_URL set:
//
//   node bench/dot.mjs [--frames N] [--shots DIR] [--before URL]
//
// `--before /path/to/afterglow.js` adds a column for another build of the
// package served at that path (an earlier one, for a before/after
// comparison in the same run).
//
// Per frame: a screenshot of the canvas; the halo is the sum over the
// annulus 3–30 px around the dot's centre of the mean of R, G and B, once
// decoded from sRGB to linear light and once as the 8-bit encoded values,
// divided by the number of pixels whose centre the dot covers (1 to 4);
// the halo's centre is the mean position of the light beyond 3 px from
// the dot (linear, the whole frame), and its distance from the dot's
// centre says whether the glow sits on its light. A
// bloom that is shift-invariant and energy-conserving gives the same halo
// per lit pixel in every frame (variation 0), and twice the halo for twice
// the radiance (ratio 2), in linear light and without a tonemapper. A
// tonemapper's curve bends both: the same bloom then varies with the
// number of lit pixels, because four lit pixels put the halo higher on the
// curve than one does. So the halo's variation is also given among the
// frames that light the same number of pixels, which a tonemapper does
// not move: what is left there is the bloom changing as the light moves.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { DOT, dotCentre } from './scene.js';
import { LINEAR, PAGES, baseUrl, launch, openPage, pkgVersion } from './browser.mjs';
import { checkTree, header, record } from './record.mjs';

const usage = 'usage: node bench/dot.mjs [--frames N] [--shots DIR] [--before URL] [--dirty]';
const RADIANCES = [15, 30];
const TONEMAPPERS = ['none', 'aces'];
const ANNULUS = [3, 30];

function parseArgs(argv) {
  const opts = { frames: 24, shots: null, before: null, dirty: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = argv[i + 1];
    if (a === '--dirty') {
      opts.dirty = true;
    } else if (a === '--frames') {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 2 || n > 200) throw new Error(`--frames expects a whole number from 2 to 200, got '${value}'\n${usage}`);
      opts.frames = n;
      i += 1;
    } else if (a === '--shots' && value) {
      opts.shots = value;
      i += 1;
    } else if (a === '--before' && value) {
      opts.before = value;
      i += 1;
    } else {
      throw new Error(`unknown argument '${a}'\n${usage}`);
    }
  }
  return opts;
}

/** Pixels whose centre the dot covers at time t. */
function litPixels(t) {
  const [cx, cy] = dotCentre(t);
  let n = 0;
  for (let y = Math.floor(cy) - 2; y <= Math.floor(cy) + 2; y++) {
    for (let x = Math.floor(cx) - 2; x <= Math.floor(cx) + 2; x++) {
      if (Math.hypot(x + 0.5 - cx, y + 0.5 - cy) <= DOT.radius) n += 1;
    }
  }
  return n;
}


/** Halo light in the annulus around the dot at time t; how far the
 * halo's light-weighted centre (in linear light, over every pixel at least
 * the annulus's inner radius from the dot) is from the dot's; the brightest value of the picture, and the value of the
 * pixel under the dot's centre (always lit: no point of a pixel is farther
 * than 0.71 px from its centre). */
function measure(png, t) {
  const [cx, cy] = dotCentre(t);
  let halo = 0;
  let encoded = 0;
  let spread = 0;
  let sx = 0;
  let sy = 0;
  let peak = -1;
  let centre = -1;
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      const i = (y * png.width + x) * 4;
      const v = (LINEAR[png.data[i]] + LINEAR[png.data[i + 1]] + LINEAR[png.data[i + 2]]) / 3;
      peak = Math.max(peak, v);
      if (x === Math.floor(cx) && y === Math.floor(cy)) centre = v;
      const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
      // The centre over all the light beyond the annulus's inner radius:
      // a window centred on the dot would pull a shifted halo's centre
      // back towards it.
      if (d >= ANNULUS[0]) {
        spread += v;
        sx += v * (x + 0.5);
        sy += v * (y + 0.5);
      }
      if (d >= ANNULUS[0] && d <= ANNULUS[1]) {
        halo += v;
        encoded += (png.data[i] + png.data[i + 1] + png.data[i + 2]) / 3;
      }
    }
  }
  const offset = spread > 0 ? Math.hypot(sx / spread - cx, sy / spread - cy) : NaN;
  return { halo, encoded, offset, peak, centre };
}

/** Mean and worst distance of the halo's centre from the dot, in px. */
function offsets(frames) {
  const d = frames.map((f) => f.offset);
  return { mean: mean(d), worst: Math.max(...d) };
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** (mean, coefficient of variation) of the halo per lit pixel, in linear
 * light or (`key` 'encoded') in 8-bit values. */
function steadiness(frames, key = 'halo') {
  const v = frames.map((f) => f[key] / Math.max(f.lit, 1));
  const m = mean(v);
  const sd = Math.sqrt(mean(v.map((x) => (x - m) ** 2)));
  return { mean: m, cv: sd / Math.max(m, 1e-12) };
}

/** Variation of the halo among frames in which the dot lights the same
 * number of pixels: each frame's deviation from the mean of its group,
 * relative to that mean, as a root mean square over the frames of every
 * group of two or more. A tonemapper's curve gives four lit pixels more
 * halo per pixel than one, which the variation per lit pixel counts; here
 * only what changes as the same light moves over the pixel grid counts. */
function steadyAsItMoves(frames, key = 'halo') {
  const groups = new Map();
  for (const f of frames) groups.set(f.lit, [...(groups.get(f.lit) ?? []), f[key]]);
  const squares = [];
  for (const values of groups.values()) {
    if (values.length < 2) continue;
    const m = mean(values);
    for (const v of values) squares.push(((v - m) / Math.max(m, 1e-12)) ** 2);
  }
  return squares.length ? Math.sqrt(mean(squares)) : NaN;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const tree = checkTree(opts.dirty);
  // Each column: a page, its name, and what it adds to the URL.
  const columns = PAGES.map((p) => ({ ...p, key: p.id, extra: {} }));
  if (opts.before) {
    columns.unshift({ ...PAGES[0], key: 'before', name: 'afterglow (before)', extra: { pkg: opts.before } });
  }
  if (opts.shots) mkdirSync(opts.shots, { recursive: true });
  const base = baseUrl();
  const config = { width: DOT.width, height: DOT.height, msaa: 1 };
  const started = Date.now();
  const browser = await launch();
  const log = (s) => process.stderr.write(`${s}\n`);
  log(`Chromium ${browser.version()}, three ${pkgVersion('three')}, postprocessing ${pkgVersion('postprocessing')}; `
    + `${opts.frames} frames per page, radiance and tonemapper`);
  // results[tonemapper][radiance][pageId] = [{ halo, lit }]
  const results = {};
  try {
    for (const tonemapper of TONEMAPPERS) {
      results[tonemapper] = {};
      for (const radiance of RADIANCES) {
        results[tonemapper][radiance] = {};
        for (const page of columns) {
          const query = { scene: 'dot', radiance, tonemapper, ...page.extra };
          const { tab, problems, fail } = await openPage(browser, base, page, config, query);
          const frames = [];
          for (let i = 0; i < opts.frames; i++) {
            // Render, wait for the GPU, then let two animation frames pass so
            // that the compositor shows this frame when the screenshot is taken.
            await tab.evaluate(async (t) => {
              window.frame(t);
              await window.sync();
              for (let k = 0; k < 2; k++) await new Promise((r) => requestAnimationFrame(r));
            }, i);
            const shot = await tab.locator('#view').screenshot();
            if (problems.length) throw fail(`errors in frame ${i}`);
            const png = PNG.sync.read(shot);
            if (png.width !== DOT.width || png.height !== DOT.height) {
              throw fail(`the screenshot is ${png.width}×${png.height}, not ${DOT.width}×${DOT.height}`);
            }
            if (opts.shots && (i === 0 || i === opts.frames - 1)) {
              writeFileSync(join(opts.shots, `dot-${page.key}-${tonemapper}-${radiance}-${i}.png`), shot);
            }
            const { halo, encoded, offset, peak, centre } = measure(png, i);
            // The screenshot shows this frame: the pixel under the dot's
            // centre is as bright as the brightest (a stale or flipped
            // picture has its dot elsewhere).
            if (centre < peak) {
              const [cx, cy] = dotCentre(i).map((v) => v.toFixed(2));
              throw fail(`frame ${i}: the pixel under the dot (${cx}, ${cy}) is ${centre.toFixed(3)}, the brightest ${peak.toFixed(3)}: not this frame's picture`);
            }
            frames.push({ halo, encoded, offset, lit: litPixels(i) });
          }
          await tab.close();
          results[tonemapper][radiance][page.key] = frames;
          const s = steadiness(frames);
          const e = steadiness(frames, 'encoded');
          const o = offsets(frames);
          log(`${tonemapper}, radiance ${radiance}: ${page.name} halo per lit pixel ${s.mean.toFixed(3)}, variation ${s.cv.toFixed(3)}; `
            + `8-bit ${e.mean.toFixed(1)}, variation ${e.cv.toFixed(3)}; as it moves ${steadyAsItMoves(frames).toFixed(3)} linear, `
            + `${steadyAsItMoves(frames, 'encoded').toFixed(3)} 8-bit; halo centre ${o.mean.toFixed(2)} px off (worst ${o.worst.toFixed(2)})`);
        }
      }
    }
    const minutes = ((Date.now() - started) / 60000).toFixed(1);
    const text = `${header({ title: 'Small lights side by side', tree, browser: `Chromium ${browser.version()} (SwiftShader)` })}\n`
      + report(results, columns, opts, browser.version(), minutes);
    console.log(text);
    log(`written to ${record('dot', tree, text)}`);
  } finally {
    await browser.close();
  }
}

function report(results, columns, opts, version, minutes) {
  const lines = [];
  const [low, high] = RADIANCES;
  lines.push(`| tonemapper, halo in | measure | ${columns.map((p) => p.name).join(' | ')} |`);
  lines.push(`|---|---|${columns.map(() => '---:').join('|')}|`);
  for (const tonemapper of TONEMAPPERS) {
    for (const [key, unit, digits] of [['halo', 'linear light', 3], ['encoded', '8-bit values', 1]]) {
      for (const radiance of RADIANCES) {
        const cells = columns.map((p) => {
          const s = steadiness(results[tonemapper][radiance][p.key], key);
          return `${s.mean.toFixed(digits)}, **${s.cv.toFixed(3)}**`;
        });
        lines.push(`| ${tonemapper}, ${unit} | radiance ${radiance}: halo per lit pixel, **variation** | ${cells.join(' | ')} |`);
      }
      for (const radiance of RADIANCES) {
        const cells = columns.map((p) => `**${steadyAsItMoves(results[tonemapper][radiance][p.key], key).toFixed(3)}**`);
        lines.push(`| ${tonemapper}, ${unit} | radiance ${radiance}: **variation among frames that light as many pixels** | ${cells.join(' | ')} |`);
      }
      const ratios = columns.map((p) => {
        const total = (r) => results[tonemapper][r][p.key].reduce((a, f) => a + f[key], 0);
        return `**${(total(high) / total(low)).toFixed(2)}**`;
      });
      lines.push(`| ${tonemapper}, ${unit} | halo at ${high} ÷ at ${low} | ${ratios.join(' | ')} |`);
    }
    for (const radiance of RADIANCES) {
      const cells = columns.map((p) => {
        const o = offsets(results[tonemapper][radiance][p.key]);
        return `${o.mean.toFixed(2)}, **${o.worst.toFixed(2)}**`;
      });
      lines.push(`| ${tonemapper}, linear light | radiance ${radiance}: halo centre's distance from the dot, px: mean, **worst** | ${cells.join(' | ')} |`);
    }
  }
  lines.push('');
  lines.push(`Chromium ${version} (SwiftShader), three ${pkgVersion('three')}, postprocessing ${pkgVersion('postprocessing')}; `
    + `${DOT.width}×${DOT.height}, msaa 1, bloom threshold 1, ${opts.frames} frames per page, radiance and tonemapper; `
    + `halo = light in the annulus ${ANNULUS[0]}–${ANNULUS[1]} px around the dot in 8-bit sRGB screenshots, decoded to linear or as encoded; `
    + 'variation among frames that light as many pixels = root mean square of each frame\'s halo relative to the mean of the frames lighting as many pixels (groups of two or more); '
    + `${minutes} min in all.`);
  return lines.join('\n');
}

main().catch((e) => {
  console.error(`bench: ${e.message}`);
  process.exit(1);
});
