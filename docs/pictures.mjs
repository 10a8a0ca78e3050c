// The README's and the guides' pictures of the demo, taken in headless Chromium (software
// WebGPU): `cargo xtask pictures` builds, serves www/ and runs this with
// AFTERGLOW_URL set. The demo's clock is paused and frames are drawn at
// chosen scene times, so every run gives the same pictures; the stats
// overlay is hidden (its figures would be the software rasterizer's).
//
//   docs/demo.png          the first screen at 1280×800, panel open
//   docs/demo-390.png      the first screen at 390×844 (a phone), panel folded
//   docs/panel-1280.png    the panel at 1280×800, explaining its controls
//   docs/panel-390-open.png  the phone's panel open
//   docs/street-exposure.png  the floodlight coming on: before, the first
//                          frame, and 2.5 s later with the exposure adapted
//   docs/looks/<look>.png  each look of the panel, split: left of the line
//                          the same frame without it
import { mkdirSync, writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { launch, url } from '../tests/e2e/harness.mjs';

const out = (name) => new URL(name, import.meta.url);
const browser = await launch();

/** The demo at `width`×`height`, paused, stats hidden, the scene settled at `time`. */
async function open(width, height, time = 2) {
  const context = await browser.newContext({ viewport: { width, height }, hasTouch: width < 600 });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (['error', 'warning'].includes(m.type())) problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.goto(url);
  await page.waitForFunction(() => window.afterglow !== undefined, null, { timeout: 60000 });
  // The first screen's scene is in use once the status line is empty.
  await page.waitForFunction(() => document.getElementById('status').textContent === '', null, { timeout: 60000 });
  await page.addStyleTag({ content: '#stats-box { display: none !important; }' });
  await page.evaluate(() => {
    const pause = document.getElementById('pause');
    pause.checked = true;
    pause.dispatchEvent(new Event('change'));
  });
  await settle(page, time);
  return { page, context, problems };
}

/** Frames at scene time `time`, the exposure jumped to its metered value. */
function settle(page, time) {
  return page.evaluate(async (time) => {
    window.afterglow.resetExposure();
    window.afterglowSplit.resetExposure();
    for (let i = 0; i < 8; i++) {
      window.afterglow.render(time);
      window.afterglowSplit.render(time);
      await new Promise((done) => requestAnimationFrame(done));
    }
  }, time);
}

/** Frames at each of `times` in turn (the exposure adapting as it would). */
function play(page, times) {
  return page.evaluate(async (times) => {
    for (const t of times) {
      window.afterglow.render(t);
      window.afterglowSplit.render(t);
      await new Promise((done) => requestAnimationFrame(done));
    }
  }, times);
}

async function shot(page, name, clip) {
  // Two animation frames, so the last render is on screen.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const png = await page.screenshot(clip ? { clip } : {});
  writeFileSync(out(name), png);
  console.log(`wrote docs/${name}`);
  return PNG.sync.read(png);
}

function done({ context, problems }, what) {
  if (problems.length) throw new Error(`${what}: the page reported ${problems.join('; ')}`);
  return context.close();
}

// Desktop: the first screen, and the panel explaining its controls.
{
  const demo = await open(1280, 800);
  await shot(demo.page, 'demo.png');
  await demo.page.click('#explain');
  const panel = await demo.page.locator('#panel').boundingBox();
  await shot(demo.page, 'panel-1280.png', panel);
  await done(demo, '1280×800');
}

// A phone: the first screen with the panel folded, then open.
{
  const phone = await open(390, 844);
  await shot(phone.page, 'demo-390.png');
  await phone.page.tap('#toggle-panel');
  await settle(phone.page, 2);
  await shot(phone.page, 'panel-390-open.png');
  await done(phone, '390×844');
}

// The floodlight comes on at 5 s of the scene's 12 s cycle: the night,
// its first frame (the night's exposure), and 2.5 s later.
{
  const street = await open(640, 400);
  await street.page.addStyleTag({ content: '#panel { display: none !important; }' });
  await settle(street.page, 4.5);
  const frames = [await shot(street.page, 'street-exposure.png')];
  await play(street.page, [5.3]);
  frames.push(await shot(street.page, 'street-exposure.png'));
  await play(street.page, Array.from({ length: 25 }, (_, i) => 5.4 + i * 0.1));
  frames.push(await shot(street.page, 'street-exposure.png'));
  const gap = 8;
  const strip = new PNG({ width: 640 * 3 + gap * 2, height: 400 });
  for (let i = 0; i < strip.data.length; i += 4) strip.data.set([8, 8, 12, 255], i);
  frames.forEach((f, i) => PNG.bitblt(f, strip, 0, 0, 640, 400, i * (640 + gap), 0));
  writeFileSync(out('street-exposure.png'), PNG.sync.write(strip));
  console.log('wrote docs/street-exposure.png (the strip)');
  await done(street, '640×400');
}

// The looks, each split at the middle: left of the line without the look.
{
  mkdirSync(out('looks/'), { recursive: true });
  const looks = await open(640, 400);
  await looks.page.addStyleTag({ content: '#panel { display: none !important; }' });
  await looks.page.evaluate(async () => {
    const box = document.getElementById('compare');
    box.checked = true;
    box.dispatchEvent(new Event('change'));
  });
  await looks.page.waitForFunction(() => window.afterglowSplit.on, null, { timeout: 60000 });
  for (const look of ['warm', 'cold', 'faded', 'film', 'dirty']) {
    await looks.page.evaluate((look) => document.querySelector(`[data-look="${look}"]`).click(), look);
    await looks.page.waitForFunction(() => document.getElementById('error').textContent === '' &&
      document.getElementById('status').textContent === '');
    await looks.page.waitForTimeout(500);
    await settle(looks.page, 2);
    await shot(looks.page, `looks/${look}.png`);
  }
  await done(looks, 'looks');
}

await browser.close();
