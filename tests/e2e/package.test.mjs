// End-to-end: the packed npm package as a new user meets it. The tarball
// that `cargo xtask pack` wrote is installed into a scratch project, which
// is then built with Vite (its defaults, no plugin) from the README's
// quick start (index.html and main.js), verbatim, and served with `vite preview`; the
// page must draw a round bloomed spot on a wide canvas and keep the console
// clean. Without WebGPU, or without an adapter, the same page must say so
// in plain words. Node imports the package too, and calling
// Renderer.create before init() must say what to do; it imports
// afterglow-hdr/three (three.js, an optional peer, found in the
// repository's node_modules), whose peer range is the one tested.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { launch, record, problems } from './harness.mjs';
import { PNG } from 'pngjs';
import { snippet } from './snippets.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tarball = process.env.AFTERGLOW_TARBALL
  ?? join(root, 'target/npm', readdirSync(join(root, 'target/npm')).find((f) => f.endsWith('.tgz')));

const quickStart = '## Quick start: a page of your own';
const html = snippet('README.md', quickStart, 'html');
const js = snippet('README.md', quickStart, 'js');

// Inside target/, so that Node finds Vite in the repository's node_modules.
const scratch = join(root, 'target/e2e-package');
let preview;
let previewUrl;
let browser;

function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

before(async () => {
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: scratch, stdio: 'inherit' });
  writeFileSync(join(scratch, 'index.html'), html);
  writeFileSync(join(scratch, 'main.js'), js);
  const vite = join(root, 'node_modules/vite/bin/vite.js');
  execFileSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: scratch, stdio: 'inherit' });
  const port = await freePort();
  preview = spawn(process.execPath, [vite, 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    { cwd: scratch, stdio: ['ignore', 'ignore', 'inherit'] });
  // Ready when it answers on the port it was given (its banner is not
  // parsed: with CI set in the environment it is coloured, the port in
  // bold). A preview that exits or never answers fails the suite.
  let exited = null;
  preview.on('exit', (code) => { exited = code; });
  previewUrl = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited !== null) throw new Error(`vite preview exited (${exited})`);
    if (Date.now() > deadline) throw new Error(`vite preview did not answer on ${previewUrl} within 60 s`);
    try {
      if ((await fetch(previewUrl)).ok) break;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  browser = await launch();
});

after(async () => {
  await browser?.close();
  preview?.kill();
});

test('the package has what a package needs', () => {
  const dir = join(scratch, 'node_modules/afterglow-hdr');
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const cargo = readFileSync(join(root, 'Cargo.toml'), 'utf8').match(/^version = "(.*)"/m)[1];
  assert.equal(pkg.name, 'afterglow-hdr');
  assert.equal(pkg.version, cargo);
  assert.equal(pkg.type, 'module');
  assert.equal(pkg.exports['.'].types, './index.d.ts');
  assert.ok(Array.isArray(pkg.sideEffects));
  for (const f of ['index.js', 'index.d.ts', 'afterglow.js', 'afterglow_bg.wasm', 'README.md', 'LICENSE-MIT', 'LICENSE-APACHE']) {
    assert.ok(existsSync(join(dir, f)), `${f} is missing from the installed package`);
  }
  assert.ok(!existsSync(join(dir, '.gitignore')), 'a .gitignore would hide a copied package');
  // afterglow-hdr/three, and three.js as an optional peer over the
  // releases the end-to-end test runs (package.json's three-lowest and three).
  assert.deepEqual(pkg.exports['./three'],
    { 'types@<6.0': './ts5/three.d.ts', types: './three.d.ts', default: './three.js' });
  for (const f of ['three.js', 'three.d.ts', 'ts5/three.d.ts']) {
    assert.ok(existsSync(join(dir, f)), `${f} is missing from the installed package`);
  }
  const tested = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies;
  const lowest = tested['three-lowest'].replace('npm:three@', '');
  const next = Number(tested.three.split('.')[1]) + 1;
  assert.equal(pkg.peerDependencies?.three, `>=${lowest} <0.${next}.0`);
  assert.deepEqual(pkg.peerDependenciesMeta?.three, { optional: true });
  assert.ok(!pkg.dependencies?.three, 'three.js is a peer, not a dependency');
  const installed = readFileSync(join(dir, 'README.md'), 'utf8');
  assert.match(installed, /\| `bloom.radius` \|/, 'the options table is in the package README');
  assert.match(installed, /\| `setSceneShader\(wgsl\)`/, 'the API table is in the package README');
  // The package README shows the same example as the project's.
  assert.equal(snippet('npm/README.md', '## Example', 'html'), html);
  assert.equal(snippet('npm/README.md', '## Example', 'js'), js);
  assert.equal(snippet('npm/README.md', '## three.js', 'js'),
    snippet('README.md', '## Quick start: three.js in five lines', 'js'),
    "the package README's three.js lines are the project README's");
  assert.match(installed, /import \{ ThreePost \} from 'afterglow-hdr\/three';/);
});

test('Node imports afterglow-hdr/three, which refuses what is not a WebGPURenderer', () => {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', `
    const { ThreePost } = await import('afterglow-hdr/three');
    const e = await ThreePost.create({ isWebGLRenderer: true }).then(() => null, (e) => e);
    console.log(JSON.stringify({ create: typeof ThreePost.create, name: e?.name, argument: e?.argument, message: e?.message }));
  `], { cwd: scratch, encoding: 'utf8' });
  const r = JSON.parse(out);
  assert.equal(r.create, 'function');
  assert.deepEqual([r.name, r.argument], ['ArgumentError', 'renderer']);
  assert.match(r.message, /WebGPURenderer \(from 'three\/webgpu'\), got a WebGLRenderer/);
});

test('Node imports it, and Renderer.create before init() says what to do', () => {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', `
    const m = await import('afterglow-hdr');
    const e = await m.Renderer.create({}).then(() => null, (e) => e);
    console.log(JSON.stringify({ init: typeof m.default, initSync: typeof m.initSync, message: e?.message,
      name: e?.name, method: e?.method, state: e?.state }));
  `], { cwd: scratch, encoding: 'utf8' });
  const r = JSON.parse(out);
  assert.equal(r.init, 'function');
  assert.equal(r.initSync, 'function');
  assert.match(r.message, /before init\(\).*await init\(\)/);
  assert.deepEqual([r.name, r.method, r.state], ['StateError', 'create', 'not-initialized']);
});

async function open(initScript) {
  const page = await browser.newPage({ viewport: { width: 1000, height: 500 } });
  const messages = [];
  record(page, messages);
  // The README's page has no icon; the browser's request for one is not the example's.
  await page.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
  if (initScript) await page.addInitScript(initScript);
  await page.goto(previewUrl);
  return { page, messages };
}

test("the README's example, built by Vite, draws a round bloomed spot", async () => {
  const { page, messages } = await open();
  await page.waitForFunction(() => {
    const c = document.querySelector('canvas');
    return c && c.width === Math.round(c.clientWidth * devicePixelRatio) && c.width > 500;
  }, null, { timeout: 30000 });
  await page.waitForTimeout(500);
  const png = PNG.sync.read(await page.locator('canvas').screenshot());
  assert.ok(png.width > 2 * png.height, `a wide canvas: ${png.width}×${png.height}`);
  // The core of the spot: pixels near white. Its extent must be the same
  // across as down (the shader corrects for the aspect ratio).
  let [x0, x1, y0, y1, lit] = [Infinity, -1, Infinity, -1, 0];
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      if (png.data[(y * png.width + x) * 4] > 200) {
        lit++;
        x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
      }
    }
  }
  assert.ok(lit > 50, `bright pixels: ${lit}`);
  const [w, h] = [x1 - x0 + 1, y1 - y0 + 1];
  assert.ok(w / h > 0.8 && w / h < 1.25, `the spot is ${w}×${h} px`);
  assert.ok(Math.abs((x0 + x1) / 2 - png.width / 2) < 4 && Math.abs((y0 + y1) / 2 - png.height / 2) < 4,
    'the spot is centred');
  // Glow around it: mid-grey pixels outside the core.
  let glow = 0;
  for (let i = 0; i < png.data.length; i += 4) if (png.data[i] > 30 && png.data[i] <= 200) glow++;
  assert.ok(glow > lit, `glow pixels ${glow}, core ${lit}`);
  assert.deepEqual(problems(messages), []);
  await page.close();
});

test('without WebGPU the example says so in the page', async () => {
  const { page } = await open(() => Object.defineProperty(navigator, 'gpu', { value: undefined }));
  await page.waitForFunction(() => /could not start/.test(document.body.textContent), null, { timeout: 30000 });
  const text = await page.textContent('body');
  assert.match(text, /no WebGPU/);
  assert.match(text, /enable-unsafe-webgpu|https or localhost/);
  await page.close();
});

test('without a GPU adapter the example names the setting to check', async () => {
  const { page } = await open(() => { navigator.gpu.requestAdapter = async () => null; });
  await page.waitForFunction(() => /could not start/.test(document.body.textContent), null, { timeout: 30000 });
  const text = await page.textContent('body');
  assert.match(text, /hardware acceleration/);
  assert.doesNotMatch(text, /not requested/);
  await page.close();
});
