// The snippets of the README and the guides, run as written. The README's
// page of one's own (index.html and main.js) without a bundler, with the
// one change the getting-started guide's "Without a bundler" asks for,
// served next to the package folder; the error-handling snippet of the API
// guide and the effects guide's snippet, on a live renderer; the
// own-renderer guide's snippet, on a device and textures of the page's
// own; and the README's three.js snippet on a scene of the page's own,
// with the newest and the oldest three.js supported (the Rust snippet runs
// as a doc test).
// (package.test.mjs builds the same example with Vite against the tarball.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { url, launch, record, problems, serveOutsidePage } from './harness.mjs';
import { PNG } from 'pngjs';
import { page as doc, snippet } from './snippets.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test("the README's page of one's own runs without a bundler", async () => {
  const page = await browser.newPage({ viewport: { width: 640, height: 480 } });
  const messages = [];
  record(page, messages);
  // The page and its main.js in a folder beside the package (www/pkg is
  // served as afterglow-hdr/), as the README says.
  const html = snippet('README.md', '## Quick start: a page of your own', 'html');
  const guide = doc('docs/getting-started.md');
  const without = guide.slice(guide.indexOf('## Without a bundler'));
  assert.match(without, /import `\.\/afterglow-hdr\/index\.js`\s+instead of `'afterglow-hdr'`/);
  const js = snippet('README.md', '## Quick start: a page of your own', 'js').replace("from 'afterglow-hdr'", "from './afterglow-hdr/index.js'");
  const base = await serveOutsidePage(page, 'readme-example', {
    'index.html': ['text/html', `<!doctype html><link rel="icon" href="data:,">${html}`],
    'main.js': ['text/javascript', js],
  });
  await page.goto(`${base}index.html`);
  await page.waitForFunction(() => {
    const c = document.querySelector('canvas');
    return c && c.width === Math.round(c.clientWidth * devicePixelRatio) && c.width > 300;
  }, null, { timeout: 30000 });
  await page.waitForTimeout(500);
  const png = PNG.sync.read(await page.locator('canvas').screenshot());
  let lit = 0;
  for (let i = 0; i < png.data.length; i += 4) if (png.data[i] > 150) lit++;
  assert.ok(lit > 100, `bright pixels from the example's shader: ${lit}`);
  assert.deepEqual(problems(messages), []);
  await page.close();
});

test("the effects guide's snippet adds, changes, lists and removes an effect", async () => {
  const page = await browser.newPage({ viewport: { width: 320, height: 200 } });
  const messages = [];
  record(page, messages);
  await page.goto(url);
  await page.waitForFunction(() => window.afterglow !== undefined, null, { timeout: 30000 });
  const code = snippet('docs/effects.md', '# Your own effects', 'js');
  const expected = code.match(/console\.log\(.*\); \/\/ (.*)$/m)[1].trim();
  const logged = await page.evaluate(async (code) => {
    const renderer = window.afterglow;
    const lines = [];
    const console = { log: (v) => lines.push(`[${v.map((s) => `'${s}'`).join(', ')}]`) };
    const run = new Function('renderer', 'console', `return (async () => { ${code} })();`);
    await run(renderer, console);
    return [...lines, JSON.stringify(renderer.effects())];
  }, code);
  assert.deepEqual(logged, [expected, '[]']);
  const bad = messages.filter((m) => ['error', 'pageerror'].includes(m.type));
  assert.deepEqual(bad, []);
  await page.close();
});

// The performance guide's snippet on the demo's renderer: the options
// it sets are the renderer's, the frame draws on, and nothing is logged.
test("the performance guide's snippet renders fewer pixels", async () => {
  const page = await browser.newPage({ viewport: { width: 320, height: 200 } });
  const messages = [];
  record(page, messages);
  await page.goto(url);
  await page.waitForFunction(() => window.afterglow !== undefined, null, { timeout: 30000 });
  const code = snippet('docs/performance.md', '## Render fewer pixels', 'js');
  const options = await page.evaluate(async (code) => {
    const renderer = window.afterglow;
    new Function('renderer', code)(renderer);
    renderer.render(1);
    const o = renderer.options();
    return { renderScale: o.renderScale, upscale: o.upscale, sharpen: o.sharpen.amount };
  }, code);
  assert.deepEqual(options, { renderScale: 0.5, upscale: 'edge', sharpen: 0.3 });
  assert.deepEqual(problems(messages), []);
  await page.close();
});

// The light-around-a-pixel snippet on a canvas of its own, a still scene:
// its shift moves the frame 8 pixels right exactly, its edge filter is
// gone after, and each anti-aliasing mode turns on and off around it.
test("the effects guide's light_at snippet moves the picture 8 pixels", async () => {
  const page = await browser.newPage({ viewport: { width: 320, height: 200 } });
  const messages = [];
  record(page, messages);
  await page.goto(url);
  await page.waitForFunction(() => window.afterglow !== undefined, null, { timeout: 30000 });
  const code = snippet('docs/effects.md', '## The light around a pixel', 'js');
  const frames = await page.evaluate(async (code) => {
    const { Renderer } = await import(new URL('pkg/afterglow.js', location.href).href);
    const canvas = document.createElement('canvas');
    [canvas.width, canvas.height] = [64, 32];
    document.body.append(canvas);
    const renderer = await Renderer.create(canvas, {
      canvas: { screenshots: true }, tonemapper: 'none', dither: false, bloom: { enabled: false },
    });
    await renderer.setSceneShader(`fn scene(uv: vec2f, time: f32) -> vec4f {
      let p = uv * vec2f(64.0, 32.0);
      let lit = (p.x - 12.0) * 0.5 > abs(p.y - 16.0) && p.x < 40.0;
      return vec4f(select(vec3f(0.05, 0.1, 0.2), vec3f(0.9, 0.8, 0.3), lit), 1.0);
    }`);
    const shot = async () => {
      renderer.render(0);
      const bitmap = await createImageBitmap(await renderer.screenshot());
      const c = new OffscreenCanvas(64, 32);
      const g = c.getContext('2d');
      g.drawImage(bitmap, 0, 0);
      return Array.from(g.getImageData(0, 0, 64, 32).data);
    };
    const before = await shot();
    const modes = [];
    for (const antialias of ['fxaa', 'smaa', 'none']) {
      renderer.setOptions({ antialias });
      modes.push(await shot());
    }
    await new Function('renderer', `return (async () => { ${code} })();`)(renderer);
    const after = await shot();
    const effects = renderer.effects();
    renderer.destroy();
    return { before, modes, after, effects };
  }, code);
  assert.deepEqual(frames.effects, ['shift']);
  const { before, after, modes } = frames;
  const at = (data, x, y, c) => data[(y * 64 + x) * 4 + c];
  let worst = 0;
  for (let y = 0; y < 32; y++) {
    for (let x = 8; x < 64; x++) {
      for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(at(after, x, y, c) - at(before, x - 8, y, c)));
    }
  }
  assert.ok(worst <= 2, `the picture moved by exactly 8 pixels: worst difference ${worst}/255`);
  const differs = (a, b) => a.some((v, i) => Math.abs(v - b[i]) > 8);
  assert.ok(differs(modes[0], before), 'FXAA smooths the wedge');
  assert.ok(differs(modes[1], before), 'SMAA smooths the wedge');
  assert.deepEqual(modes[2], before, "'none' gives the frame back");
  const bad = messages.filter((m) => ['error', 'pageerror'].includes(m.type));
  assert.deepEqual(bad, []);
  await page.close();
});

test("the API guide's error-handling snippet logs what it says", async () => {
  const page = await browser.newPage({ viewport: { width: 320, height: 200 } });
  await page.goto(url);
  await page.waitForFunction(() => window.afterglow !== undefined, null, { timeout: 30000 });
  const code = snippet('docs/api.md', '## Errors', 'js');
  const expected = code.match(/\/\/ (.*)$/m)[1].trim();
  const logged = await page.evaluate((code) => {
    const renderer = window.afterglow;
    const lines = [];
    const console = { log: (...a) => lines.push(a.map((v) => (Array.isArray(v)
      ? `[${v.map((s) => `'${s}'`).join(', ')}]` : String(v))).join(' ')) };
    new Function('renderer', 'console', code)(renderer, console);
    return lines;
  }, code);
  assert.deepEqual(logged, [expected]);
  await page.close();
});

// What the "own renderer" snippet takes from the app: a device, a canvas,
// an rgba16float scene texture with two bright texels and an emissive
// texture holding only the right one, written by `drawMyScene` every frame.
const OWN_APP = `
const adapter = await navigator.gpu.requestAdapter();
export const device = await adapter.requestDevice();
export const canvas = document.querySelector('canvas');
const [W, H] = [canvas.width, canvas.height];
const usage = GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST;
export const sceneTexture = device.createTexture({ size: [W, H], format: 'rgba16float', usage });
export const emissiveTexture = device.createTexture({ size: [W, H], format: 'rgba16float', usage });
// Half floats: opaque black, and 3×3 texels of 32.0 around each spot.
function texels(spots) {
  const t = new Uint16Array(W * H * 4);
  for (let i = 3; i < t.length; i += 4) t[i] = 0x3c00;
  for (const [x, y] of spots) {
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      t.set([0x5000, 0x5000, 0x5000], ((y + dy) * W + x + dx) * 4);
    }
  }
  return t;
}
const scene = texels([[64, 80], [192, 80]]);
const emissive = texels([[192, 80]]);
window.drawn = 0;
export function drawMyScene(device, sceneTexture, emissiveTexture) {
  device.queue.writeTexture({ texture: sceneTexture }, scene, { bytesPerRow: W * 8 }, [W, H]);
  device.queue.writeTexture({ texture: emissiveTexture }, emissive, { bytesPerRow: W * 8 }, [W, H]);
  window.drawn++;
}
`;

test("the own-renderer guide's snippet blooms only the app's emissive texture", async (t) => {
  const page = await browser.newPage({ viewport: { width: 320, height: 200 } });
  const messages = [];
  record(page, messages);
  // The snippet as written, with one import line in front that gives it
  // the app's names, and the package imported as the guide says for a
  // page without a bundler.
  const code = snippet('docs/own-renderer.md', '## Your device, your textures', 'js');
  assert.match(code, /from 'afterglow-hdr'/);
  const js = "import { canvas, device, sceneTexture, emissiveTexture, drawMyScene } from './app.js';\n"
    + code.replace("from 'afterglow-hdr'", "from './afterglow-hdr/index.js'");
    const files = {
    'index.html': ['text/html', '<!doctype html><link rel="icon" href="data:,">'
      + '<canvas width="256" height="160" style="width: 256px; height: 160px"></canvas>'
      + '<script type="module" src="./main.js"></script>'],
    'app.js': ['text/javascript', OWN_APP],
    'main.js': ['text/javascript', js],
  };
  const base = await serveOutsidePage(page, 'readme-own-renderer', files);
  await page.goto(`${base}index.html`);
  await page.waitForFunction(() => window.drawn > 5, null, { timeout: 30000 });
  await page.waitForTimeout(300);
  const png = PNG.sync.read(await page.locator('canvas').screenshot());
  assert.equal(png.width, 256);
  const at = (x, y) => {
    const i = (y * png.width + x) * 4;
    return Math.max(png.data[i], png.data[i + 1], png.data[i + 2]);
  };
  // Six pixels out from each spot (the spot itself is three wide), and a
  // corner far from both.
  const glow = at(198, 80);
  const none = at(58, 80);
  const corner = at(8, 8);
  t.diagnostic(`beside the emissive spot ${glow}, beside the scene-only spot ${none}, corner ${corner}`);
  assert.ok(at(64, 80) > 200 && at(192, 80) > 200, `spots: ${at(64, 80)}, ${at(192, 80)}`);
  assert.ok(glow > corner + 20, `halo beside the emissive spot: ${glow} (corner ${corner})`);
  assert.ok(none <= corner + 3, `glow beside the scene-only spot: ${none} (corner ${corner})`);
  assert.deepEqual(problems(messages), []);
  await page.close();
});

// What the three.js snippet takes from the app: a canvas, a scene and a
// camera. On the left a white box lit by a strong sun (brighter than the
// bloom threshold, but not emissive), on the right an emissive sphere.
const THREE_APP = `
import * as THREE from 'three/webgpu';
export const canvas = document.querySelector('canvas');
export const scene = new THREE.Scene();
scene.background = new THREE.Color(0, 0, 0);
const sun = new THREE.DirectionalLight(0xffffff, 12);
sun.position.set(0, 0, 5);
const box = new THREE.Mesh(new THREE.BoxGeometry(0.8, 0.8, 0.8), new THREE.MeshStandardMaterial({ color: 0xffffff }));
box.position.set(-1.2, 0, 0);
const sphere = new THREE.Mesh(new THREE.SphereGeometry(0.3, 32, 16),
  new THREE.MeshStandardMaterial({ color: 0x000000, emissive: 0xffffff, emissiveIntensity: 8 }));
sphere.position.set(1.2, 0, 0);
sphere.onBeforeRender = () => { window.drawn = (window.drawn ?? 0) + 1; };
scene.add(sun, box, sphere);
export const camera = new THREE.PerspectiveCamera(40, canvas.width / canvas.height, 0.1, 20);
camera.position.set(0, 0, 5);
window.project = (x) => {
  const v = new THREE.Vector3(x, 0, 0).project(camera);
  return [Math.round((v.x * 0.5 + 0.5) * canvas.width), Math.round((0.5 - v.y * 0.5) * canvas.height)];
};
`;

for (const [name, dir, tsl] of [['newest', 'three', 'three.tsl.js'], ['lowest', 'three-lowest', 'three.webgpu.js']]) {
  test(`the three.js snippet, as written, blooms the emissive sphere and not the lit box (three.js ${name})`, async (t) => {
    const page = await browser.newPage({ viewport: { width: 320, height: 200 } });
    const messages = [];
    record(page, messages);
    // The snippet as written, with one import line in front that gives it
    // the app's names; an import map resolves its imports (three.js as
    // served under vendor/, the package folder as afterglow-hdr/).
    const code = snippet('README.md', '## Quick start: three.js in five lines', 'js');
    assert.match(code, /from 'afterglow-hdr\/three'/);
    const js = "import { canvas, scene, camera } from './app.js';\n" + code;
    const imports = {
      'three/webgpu': `/vendor/${dir}/three.webgpu.js`,
      'three/tsl': `/vendor/${dir}/${tsl}`,
      'afterglow-hdr': './afterglow-hdr/index.js',
      'afterglow-hdr/three': './afterglow-hdr/three.js',
    };
        const files = {
      'index.html': ['text/html', '<!doctype html><link rel="icon" href="data:,">'
        + `<script type="importmap">${JSON.stringify({ imports })}</script>`
        + '<canvas width="320" height="200" style="width: 320px; height: 200px; display: block"></canvas>'
        + '<script type="module" src="./main.js"></script>'],
      'app.js': ['text/javascript', THREE_APP],
      'main.js': ['text/javascript', js],
    };
    const base = await serveOutsidePage(page, `readme-three-${name}`, files);
    await page.goto(`${base}index.html`);
    await page.waitForFunction(() => window.drawn > 5, null, { timeout: 60000 });
    await page.waitForTimeout(300);
    const png = PNG.sync.read(await page.locator('canvas').screenshot());
    const at = (x, y) => {
      const i = (y * png.width + x) * 4;
      return Math.max(png.data[i], png.data[i + 1], png.data[i + 2]);
    };
    const [[bx, by], [sx, sy]] = await page.evaluate(() => [window.project(-1.2), window.project(1.2)]);
    // Below each object, about 9 px outside its edge (the sphere is about
    // 19 px in radius, the box about 26 px in half-side). With the whole
    // scene feeding the bloom the box's reads about 135 here; with only the
    // sphere's emissive light, what reaches it is the far edge of the
    // sphere's own halo (about 12 at the default intensity).
    const glow = at(sx, sy + 28);
    const none = at(bx, by + 35);
    const corner = at(4, 4);
    t.diagnostic(`sphere ${at(sx, sy)}, box ${at(bx, by)}; below the sphere ${glow}, below the box ${none}, corner ${corner}`);
    assert.ok(at(sx, sy) > 200 && at(bx, by) > 200, `cores: sphere ${at(sx, sy)}, box ${at(bx, by)}`);
    assert.ok(glow > corner + 20, `halo below the emissive sphere: ${glow} (corner ${corner})`);
    assert.ok(none <= corner + 20 && none < 0.1 * (glow - corner),
      `glow below the lit box: ${none} (corner ${corner}, below the sphere ${glow})`);
    // three.js r167 configures its canvas as bgra8unorm wherever it is
    // made; Chromium warns of the copy where rgba8unorm is preferred.
    const bad = messages.filter((m) => ['error', 'warning', 'pageerror'].includes(m.type)
      && !(name === 'lowest' && /^WebGPU canvas configured with a different format/.test(m.text)));
    assert.deepEqual(bad, []);
    await page.close();
  });
}
