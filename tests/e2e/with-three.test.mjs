// End-to-end: www/with-three.html, a three.js WebGPURenderer scene drawn
// through ThreePost (afterglow-hdr/three), with the newest three.js the
// package supports and, through `?three=lowest`, the oldest (package.json's
// `three` and `three-lowest`). For each: frames animate, the emissive
// objects get a halo that only bloom explains, a white box above the bloom
// threshold stays crisp under selective bloom, the picture follows the
// window's size and the pixel ratio, bad input is refused with errors that
// name it, dispose() gives three.js its canvas back, a three.js that keeps
// its render targets' textures elsewhere fails saying so, and the console
// stays clean. At 1280×800 the info panel stays clear of the cyan ring.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { url, launch, record } from './harness.mjs';
import {
  bloomPictures, checkAnimated, checkConsole, detail, focusPictures, mean, release, shot, square,
} from './integration.mjs';

const devDependencies = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url))).devDependencies;
const versions = [
  { query: '', name: 'newest', version: devDependencies.three },
  { query: '?three=lowest', name: 'lowest', version: devDependencies['three-lowest'].replace('npm:three@', '') },
];

let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

// The square of half-side `k × r` around a projected object.
const near = ({ x, y, r }, k) => square(x, y, k * r);

for (const { query, name, version } of versions) {
  describe(`three.js ${version} (${name})`, () => {
    let page;
    const messages = [];

    before(async () => {
      page = await browser.newPage({ viewport: { width: 640, height: 360 } });
      record(page, messages);
      await page.goto(new URL(`with-three.html${query}`, url).href);
      await page.waitForFunction(() => window.withThree?.frames > 3 || document.getElementById('error').textContent
        || document.getElementById('message').classList.contains('shown'), null, { timeout: 60000 });
      assert.equal(await page.textContent('#error'), '');
      assert.equal(await page.textContent('#message'), '');
    });

    after(async () => {
      await page?.close();
    });

    test('the page runs the three.js release asked for', async () => {
      assert.equal(await page.evaluate(() => window.withThree.revision), version.split('.')[1]);
      assert.equal(await page.textContent('#version'), `three.js r${version.split('.')[1]}`);
    });

    test('frames are drawn, not blank, and animated', () => checkAnimated(page, 5000));

    test('emissive objects glow, a bright lit box does not', async (t) => {
      const { selective, off, everything } = await bloomPictures(page, 'withThree', 20000);
      const at = await page.evaluate(() => ({
        orb: window.withThree.project('orb', 0.35),
        ring: window.withThree.project('ring', 0.5),
        white: window.withThree.project('white', 1.2),
      }));
      const halos = {};
      for (const object of ['orb', 'ring']) {
        halos[object] = mean(selective, near(at[object], 2.5)) - mean(off, near(at[object], 2.5));
      }
      const whiteSelective = mean(selective, near(at.white, 1.2)) - mean(off, near(at.white, 1.2));
      const whiteAll = mean(everything, near(at.white, 1.2)) - mean(off, near(at.white, 1.2));
      t.diagnostic(`halo (steps): orb ${halos.orb.toFixed(1)}, ring ${halos.ring.toFixed(1)}; `
        + `white box ${whiteSelective.toFixed(1)} selective vs ${whiteAll.toFixed(1)} from the scene`);
      if (process.env.AFTERGLOW_SHOTS && name === 'newest') {
        writeFileSync(`${process.env.AFTERGLOW_SHOTS}/with-three.png`, PNG.sync.write(selective));
      }
      for (const object of ['orb', 'ring']) {
        assert.ok(halos[object] > 4, `halo around the ${object}: ${halos[object].toFixed(2)} steps`);
      }
      assert.ok(whiteAll > 6, `the white box's glow from the scene: ${whiteAll.toFixed(2)} steps`);
      assert.ok(whiteSelective < 0.35 * whiteAll,
        `the white box glows with selective bloom: ${whiteSelective.toFixed(2)} vs ${whiteAll.toFixed(2)}`);
      await release(page, 'withThree');
    });

    test('the picture follows the window size and the pixel ratio', async () => {
      // The orb's core is where the camera projects it only if three.js's
      // target and afterglow's canvas have the canvas's new size and aspect.
      const check = async (what, width, height, ratio) => {
        const frames = await page.evaluate(() => window.withThree.frames);
        await page.waitForFunction(([n, w, h]) => window.withThree.frames > n + 2
          && window.withThree.renderer.configuration().width === w
          && window.withThree.renderer.configuration().height === h, [frames, width * ratio, height * ratio],
        { timeout: 30000 }).catch(() => {});
        const state = await page.evaluate(() => {
          const c = document.getElementById('view');
          const { width, height } = window.withThree.renderer.configuration();
          return { canvas: [c.width, c.height], configured: [width, height], handed: window.withThree.handed };
        });
        const size = [width * ratio, height * ratio];
        assert.deepEqual(state, { canvas: size, configured: size, handed: { scene: size, bloom: size } },
          `${what}: the canvas, afterglow's configuration and three.js's textures handed to afterglow`);
        const png = await shot(page);
        const orb = await page.evaluate(() => window.withThree.project('orb', 0.35));
        const core = mean(png, near(orb, 0.5));
        const beside = mean(png, square(orb.x + 4 * orb.r, orb.y, 0.5 * orb.r));
        assert.ok(core > 200 && core > beside + 40,
          `${what}: the orb's core at its projected place: ${core.toFixed(1)}, beside it ${beside.toFixed(1)}`);
      };
      await page.evaluate(() => {
        window.withThree.setTime(2);
        document.getElementById('panel').style.display = 'none';
        // The sizes of the textures ThreePost hands to afterglow.
        const renderer = window.withThree.renderer;
        const setTexture = renderer.setTexture;
        renderer.setTexture = function (texture, options) {
          window.withThree.handed = { scene: [texture.width, texture.height],
            bloom: [options?.bloom?.width, options?.bloom?.height] };
          return setTexture.call(this, texture, options);
        };
      });
      await page.setViewportSize({ width: 900, height: 400 });
      await check('900×400', 900, 400, 1);
      await page.evaluate(() => window.withThree.three.setPixelRatio(2));
      await check('pixel ratio 2', 900, 400, 2);
      await page.evaluate(() => window.withThree.three.setPixelRatio(1));
      await page.setViewportSize({ width: 640, height: 360 });
      await check('640×360 again', 640, 360, 1);
      await page.evaluate(() => { delete window.withThree.renderer.setTexture; });
      await release(page, 'withThree');
    });

    test('bad input is refused, naming what is wrong', async () => {
      const got = await page.evaluate(async () => {
        const { ThreePost, THREE, scene, camera, post } = window.withThree;
        const error = async (f) => {
          try { await f(); return null; } catch (e) {
            return { name: e.name, message: e.message, argument: e.argument, option: e.option, state: e.state };
          }
        };
        const fresh = new THREE.WebGPURenderer({ canvas: document.createElement('canvas') });
        return {
          nothing: await error(() => ThreePost.create()),
          object: await error(() => ThreePost.create({})),
          webgl: await error(() => ThreePost.create({ isWebGLRenderer: true })),
          uninitialised: await error(() => ThreePost.create(fresh)),
          options: await error(() => ThreePost.create(window.withThree.three, 'bloom')),
          device: await error(() => ThreePost.create(window.withThree.three, { device: null })),
          autoResize: await error(() => ThreePost.create(window.withThree.three, { autoResize: true })),
          selective: await error(() => ThreePost.create(window.withThree.three, { selective: 'yes' })),
          samples: await error(() => ThreePost.create(window.withThree.three, { samples: 2 })),
          // The page's renderer has its ThreePost: afterglow refuses a second one on the canvas.
          twice: await error(() => ThreePost.create(window.withThree.three)),
          construct: await error(() => new ThreePost()),
          scene: await error(() => post.render('scene', camera)),
          camera: await error(() => post.render(scene, scene)),
          time: await error(() => post.render(scene, camera, NaN)),
          setSelective: await error(() => { post.selective = 1; }),
        };
      });
      const is = (e, name, field, value, pattern) => {
        assert.ok(e, `no error for ${value}`);
        assert.equal(e.name, name, e.message);
        if (field) assert.equal(e[field], value, e.message);
        assert.match(e.message, pattern);
      };
      is(got.nothing, 'ArgumentError', 'argument', 'renderer', /WebGPURenderer \(from 'three\/webgpu'\), got undefined/);
      is(got.object, 'ArgumentError', 'argument', 'renderer', /WebGPURenderer.*got an? Object/);
      is(got.webgl, 'ArgumentError', 'argument', 'renderer', /got a WebGLRenderer/);
      is(got.uninitialised, 'ArgumentError', 'argument', 'renderer', /await renderer\.init\(\)/);
      is(got.options, 'ArgumentError', 'argument', 'options', /must be an object, got "bloom"/);
      is(got.device, 'ArgumentError', 'argument', 'options.device', /WebGPURenderer's own device/);
      is(got.autoResize, 'ArgumentError', 'argument', 'options.autoResize', /setSize/);
      is(got.selective, 'OptionError', 'option', 'selective', /true or false, got "yes"/);
      is(got.samples, 'OptionError', 'option', 'samples', /1 or 4, got 2/);
      is(got.twice, 'CanvasError', null, null, /this WebGPURenderer already has a ThreePost; dispose\(\) that one first/);
      is(got.construct, 'TypeError', null, null, /ThreePost\.create/);
      is(got.scene, 'ArgumentError', 'argument', 'scene', /Object3D \(a Scene\), got "scene"/);
      is(got.camera, 'ArgumentError', 'argument', 'camera', /Camera, got a Scene/);
      is(got.time, 'ArgumentError', 'argument', 'timeSeconds', /timeSeconds/);
      is(got.setSelective, 'OptionError', 'option', 'selective', /got 1/);
    });

    test("dispose() frees afterglow's part and gives three.js its canvas back", async () => {
      const got = await page.evaluate(async () => {
        const { ThreePost, THREE } = window.withThree;
        const canvas = document.createElement('canvas');
        canvas.style.cssText = 'position: fixed; left: 0; top: 0; width: 160px; height: 90px';
        document.body.append(canvas);
        const three = new THREE.WebGPURenderer({ canvas });
        await three.init();
        three.setSize(160, 90);
        // A red plane filling the view, and an emissive sphere.
        const scene = new THREE.Scene();
        const camera = new THREE.PerspectiveCamera(60, 16 / 9, 0.1, 10);
        camera.position.z = 2;
        const plane = new THREE.Mesh(new THREE.PlaneGeometry(8, 8), new THREE.MeshBasicMaterial({ color: 0xff0000 }));
        plane.position.z = -1;
        scene.add(plane);
        // The canvas's centre, read in the task that rendered (a WebGPU
        // canvas's picture can be read back until it is presented).
        const centre = () => {
          const copy = document.createElement('canvas');
          copy.width = canvas.width; copy.height = canvas.height;
          const c2d = copy.getContext('2d');
          c2d.drawImage(canvas, 0, 0);
          return [...c2d.getImageData(canvas.width >> 1, canvas.height >> 1, 1, 1).data];
        };
        three.render(scene, camera); // three.js draws into its canvas first
        const before = centre();
        const post = await ThreePost.create(three);
        post.render(scene, camera, 1);
        const during = centre();
        const afterglowRenderer = post.renderer;
        post.dispose();
        post.dispose(); // again: nothing
        const errors = [];
        const calls = [() => post.render(scene, camera), () => afterglowRenderer.render(), () => { post.selective = false; }];
        for (const f of calls) {
          try { f(); errors.push(null); } catch (e) { errors.push({ name: e.name, state: e.state, message: e.message }); }
        }
        three.render(scene, camera);
        const afterwards = centre();
        // A new ThreePost on the same renderer works.
        const again = await ThreePost.create(three, { selective: false });
        again.render(scene, camera, 1);
        const second = centre();
        // Its afterglow Renderer destroyed directly: render() says so.
        again.renderer.destroy();
        try { again.render(scene, camera); errors.push(null); } catch (e) { errors.push({ name: e.name, state: e.state, message: e.message }); }
        again.dispose();
        three.dispose();
        canvas.remove();
        return { before, during, afterwards, second, errors };
      });
      assert.ok(got.before[0] > 200 && got.before[1] < 40, `three.js's own render: ${got.before}`);
      assert.ok(got.during[0] > 100, `through afterglow: ${got.during}`);
      assert.ok(got.afterwards[0] > 200 && got.afterwards[1] < 40, `three.js's render after dispose(): ${got.afterwards}`);
      assert.ok(got.second[0] > 100, `a second ThreePost: ${got.second}`);
      assert.deepEqual(got.errors.map((e) => e && [e.name, e.state]), Array(4).fill(['StateError', 'destroyed']));
      assert.match(got.errors[0].message, /render\(\) was called after dispose\(\)/);
      assert.match(got.errors[2].message, /ThreePost\.selective was set after dispose\(\)/);
      assert.match(got.errors[3].message, /render\(\) was called after post\.renderer\.destroy\(\)/);
    });

    test('a three.js that keeps the render target texture elsewhere fails, naming the release', async () => {
      const got = await page.evaluate(async () => {
        const { ThreePost, THREE } = window.withThree;
        const canvas = document.createElement('canvas');
        canvas.width = 64; canvas.height = 64;
        const three = new THREE.WebGPURenderer({ canvas });
        await three.init();
        const scene = new THREE.Scene();
        const camera = new THREE.PerspectiveCamera();
        const post = await ThreePost.create(three);
        post.render(scene, camera); // the real lookup works
        // three.js finds its textures while it renders; afterwards, where
        // ThreePost looks, there is nothing (as if a release had moved them).
        const { get } = three.backend;
        let rendering = false;
        three.render = function (...args) {
          rendering = true;
          try { return THREE.WebGPURenderer.prototype.render.apply(this, args); } finally { rendering = false; }
        };
        three.backend.get = (object) => (rendering ? get.call(three.backend, object) : { texture: undefined });
        let texture = null;
        try { post.render(scene, camera); } catch (e) { texture = e.message; }
        delete three.backend.get;
        delete three.render;
        post.dispose();
        // The device, where three.js keeps it.
        const device = Object.getOwnPropertyDescriptor(three.backend, 'device');
        Object.defineProperty(three.backend, 'device', { value: {}, configurable: true });
        let deviceMessage = null;
        try { await ThreePost.create(three); } catch (e) { deviceMessage = e.message; }
        Object.defineProperty(three.backend, 'device', device);
        three.dispose();
        return { texture, device: deviceMessage };
      });
      const r = version.split('.')[1];
      assert.match(got.texture ?? '', new RegExp(`three\\.js r${r} has no GPUTexture at renderer\\.backend\\.get\\(texture\\)\\.texture `
        + '\\(found undefined\\).*supports three\\.js >=\\d'));
      assert.match(got.device ?? '', new RegExp(`three\\.js r${r} has no GPUDevice at renderer\\.backend\\.device \\(found an? Object\\)`));
    });

    test('at 1280×800 the info panel never covers the cyan ring', async () => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.waitForFunction(() => document.getElementById('view').clientWidth === 1280
        && window.withThree.camera.aspect === 1.6);
      // The ring, at every half second of the camera's orbit (42 s), and the panel.
      const { ring, panel } = await page.evaluate(() => {
        const ring = [];
        for (let t = 0; t < 42; t += 0.5) {
          window.withThree.setTime(t);
          ring.push({ t, ...window.withThree.project('ring', 0.51) });
        }
        window.withThree.setTime(null);
        const b = document.getElementById('panel').getBoundingClientRect();
        return { ring, panel: { x0: b.left, y0: b.top, x1: b.right, y1: b.bottom } };
      });
      assert.ok(panel.x1 - panel.x0 > 150 && panel.y1 - panel.y0 > 100, `the panel is shown: ${JSON.stringify(panel)}`);
      const covered = ring.filter(({ x, y, r }) => x + r > panel.x0 && x - r < panel.x1 && y + r > panel.y0 && y - r < panel.y1);
      assert.deepEqual(covered, [], `the panel ${JSON.stringify(panel)} covers the ring`);
      await page.setViewportSize({ width: 640, height: 360 });
    });

    test('a click focuses on what it hits, with the target\'s depth; a farther object blurs', async (t) => {
      // The knot (about 8 m along the view at time 2) in focus, the
      // white box (about 10.5 m) behind it.
      const locate = '(o) => o.project(\'knot\', 0)';
      const { off, on, focus, stats } = await focusPictures(page, 'withThree', locate, 20000);
      const at = await page.evaluate(() => {
        window.withThree.setTime(2);
        const a = { knot: window.withThree.project('knot', 0.7), white: window.withThree.project('white', 0.8) };
        window.withThree.setTime(null);
        return a;
      });
      const kept = (p) => detail(on, near(p, 1)) / detail(off, near(p, 1));
      t.diagnostic(`focused at ${focus.toFixed(2)}; detail kept: knot ${kept(at.knot).toFixed(2)}, `
        + `white box ${kept(at.white).toFixed(2)}`);
      assert.equal(stats, 'on');
      assert.ok(focus > 6.8 && focus < 8.6, `focused at ${focus}`);
      assert.ok(kept(at.knot) > 0.8, `the knot in focus keeps ${kept(at.knot)}`);
      assert.ok(kept(at.white) < 0.75, `the white box behind keeps ${kept(at.white)}`);
    });

    test('an orthographic camera behind its near plane gives depth; a logarithmic buffer or a near plane at the lens gives none', async () => {
      const got = await page.evaluate(() => {
        const { THREE, scene, camera, post, three } = window.withThree;
        post.renderer.setOptions({ depthOfField: { enabled: true, focusDistance: 5 } });
        // three.js's usual orthographic camera: its near plane behind it.
        const ortho = new THREE.OrthographicCamera(-8, 8, 4.5, -4.5, -1000, 1000);
        ortho.position.copy(camera.position);
        ortho.quaternion.copy(camera.quaternion);
        const state = (cam) => {
          try {
            post.render(scene, cam, 2);
            return post.renderer.stats().depthOfField;
          } catch (e) {
            return `${e.name}: ${e.message}`;
          }
        };
        const orthographic = state(ortho);
        // A perspective near plane at the lens: no depth, and frames go on.
        const atLens = camera.clone();
        atLens.near = 0;
        atLens.updateProjectionMatrix();
        const nearZero = state(atLens);
        three.logarithmicDepthBuffer = true;
        const logarithmic = { perspective: state(camera), orthographic: state(ortho) };
        three.logarithmicDepthBuffer = false;
        post.renderer.setOptions({ depthOfField: { enabled: false } });
        return { orthographic, nearZero, logarithmic };
      });
      assert.equal(got.orthographic, 'on');
      assert.equal(got.nearZero, 'no-depth');
      assert.equal(got.logarithmic.perspective, 'no-depth');
      assert.equal(got.logarithmic.orthographic, 'on');
    });

    test('the console has no errors or warnings', async () => {
      // three.js r167 configures its canvas as bgra8unorm wherever it is
      // made (later releases ask for the preferred format); Chromium warns
      // of the copy that costs where rgba8unorm is preferred. Not afterglow's.
      const own = /^WebGPU canvas configured with a different format than is preferred by this device/;
      if (name === 'lowest') {
        for (let i = messages.length - 1; i >= 0; i--) if (own.test(messages[i].text)) messages.splice(i, 1);
      }
      await checkConsole(page, 'withThree', messages);
    });
  });
}
