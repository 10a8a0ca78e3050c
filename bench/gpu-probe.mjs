// Which Chromium flags reach this machine's GPU with canvases that show:
// each candidate set launches a browser on bench/pages/probe.html and
// records the adapters it reports, whether a WebGPU canvas cleared to red
// and a WebGL canvas cleared to green appear in a screenshot, and how
// many animation frames a second gets. The first set that passes all
// four is the one the GPU benchmark uses (`cargo xtask bench --gpu-browser`
// runs this first). With none, the record of what each set gave is the
// evidence that the GPU is out of reach.
//
//   node bench/gpu-probe.mjs OUT   (BENCH_URL: the repository root served;
//                                   BENCH_PROBE=first: stop at the first
//                                   set that passes, shown or not)
//
// Writes OUT/probe.json ({ chosen, sets: [{ name, flags, result }] }) and
// prints { flags, presents, readBack } as JSON on stdout (`presents`:
// whether WebGPU canvases reach the page with them; `readBack`, where not,
// how a frame is read: 'drawImage' or 'copy'); exits 1 when none passes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { GPU_FLAGS, baseUrl, launch, software } from './browser.mjs';

const without = (...drop) => GPU_FLAGS.filter((f) => !drop.includes(f));
// From most to least direct. Software compositing still draws WebGPU and
// WebGL on the GPU; only the page's final picture is put together on the
// CPU, which costs a copy per presented frame.
const SETS = [
  { name: 'ANGLE on EGL, Dawn on Vulkan', flags: GPU_FLAGS },
  { name: 'the same, software compositing', flags: [...GPU_FLAGS, '--disable-gpu-compositing'] },
  { name: 'without Chromium\'s own Vulkan', flags: without('--enable-features=Vulkan', '--disable-vulkan-surface', '--use-vulkan=native') },
  { name: 'without Chromium\'s own Vulkan, software compositing', flags: [...without('--enable-features=Vulkan', '--disable-vulkan-surface', '--use-vulkan=native'), '--disable-gpu-compositing'] },
  { name: 'with a Vulkan surface asked for', flags: without('--disable-vulkan-surface') },
  // The compositor on the GPU's Vulkan as well, so that Dawn's images are
  // shared within one API: through ANGLE on Vulkan, or through Skia's
  // Graphite on Dawn itself.
  { name: 'ANGLE on Vulkan', flags: [...without('--use-angle=gl-egl', '--enable-features=Vulkan'), '--use-angle=vulkan', '--enable-features=Vulkan,VulkanFromANGLE,DefaultANGLEVulkan'] },
  { name: 'Skia Graphite on Dawn\'s Vulkan', flags: [...without('--enable-features=Vulkan'), '--enable-features=Vulkan,SkiaGraphite', '--skia-graphite-backend=dawn-vulkan'] },
  { name: 'ANGLE on Vulkan and Skia Graphite', flags: [...without('--use-angle=gl-egl', '--enable-features=Vulkan'), '--use-angle=vulkan', '--enable-features=Vulkan,VulkanFromANGLE,DefaultANGLEVulkan,SkiaGraphite', '--skia-graphite-backend=dawn-vulkan'] },
];

/** The colour at the centre of an element's screenshot. */
async function centre(tab, selector) {
  const png = PNG.sync.read(await tab.locator(selector).screenshot());
  const i = ((png.height >> 1) * png.width + (png.width >> 1)) * 4;
  return [png.data[i], png.data[i + 1], png.data[i + 2]];
}

async function probe(set) {
  let browser = null;
  try {
    browser = await launch([], { flags: set.flags, copyHook: true });
    const tab = await browser.newPage();
    await tab.goto(new URL('bench/pages/probe.html', baseUrl()).href, { timeout: 20_000 });
    await tab.waitForFunction(() => window.probe !== undefined, null, { timeout: 20_000 });
    const result = await tab.evaluate(() => window.probe);
    result.webgpuCanvas = await centre(tab, '#webgpu');
    result.webglCanvas = await centre(tab, '#webgl');
    const red = (c) => Boolean(c) && c[0] > 200 && c[1] < 50;
    const g = result.webglCanvas;
    // A WebGPU canvas that is drawn and reads back but never reaches the
    // page (no interop between the GPU's Vulkan and the compositor) still
    // measures the GPU's work; the report then says its frames were read
    // back, not seen.
    result.presents = red(result.webgpuCanvas);
    // How a frame is read where it is not shown: drawn into a 2D canvas,
    // else copied on the GPU (a canvas whose texture holds the frame but
    // which nothing else can read: the work is done, only not shown).
    result.readBack = result.presents ? null : red(result.webgpuReadback) ? 'drawImage' : red(result.webgpuCopy) ? 'copy' : null;
    result.passes = result.adapters.length > 0 && !result.adapters.some(software)
      && result.adapters.some((a) => a.api === 'WebGPU') && result.adapters.some((a) => a.api === 'WebGL')
      && (result.presents || result.readBack !== null) && g[1] > 200 && g[0] < 50 && result.rafPerSecond >= 20;
    return result;
  } catch (e) {
    return { passes: false, error: e.message.split('\n')[0] };
  } finally {
    await Promise.race([browser?.close(), new Promise((resolve) => setTimeout(resolve, 10_000))]);
  }
}

const out = process.argv[2];
if (!out) throw new Error('usage: node bench/gpu-probe.mjs OUT');
const sets = [];
let chosen = null;
// The first set whose WebGPU canvas reaches the page, else the first that
// at least draws and reads back.
for (const set of SETS) {
  const result = await probe(set);
  sets.push({ ...set, result });
  process.stderr.write(`probe: ${set.name}: ${JSON.stringify(result)}\n`);
  if (result.passes && result.presents) {
    chosen = { ...set, presents: true };
    break;
  }
  if (result.passes && !chosen) chosen = { ...set, presents: false, readBack: result.readBack };
  // BENCH_PROBE=first: the first set that passes at all will do (a machine
  // already probed in full, where none presents).
  if (chosen && process.env.BENCH_PROBE === 'first') break;
}
writeFileSync(join(out, 'probe.json'), JSON.stringify({ chosen: chosen?.name ?? null, sets }, null, 1));
if (!chosen) {
  process.stderr.write('probe: no set of flags shows GPU-drawn canvases; see probe.json\n');
  process.exit(1);
}
console.log(JSON.stringify({ flags: chosen.flags, presents: chosen.presents, readBack: chosen.readBack ?? null }));
