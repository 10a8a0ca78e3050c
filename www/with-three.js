// A three.js WebGPURenderer scene post-processed by afterglow. The page
// creates the GPUDevice and gives it to both: three.js takes it as its
// documented `device` option, afterglow as `Renderer.create(canvas,
// { device })`. three.js renders into a half-float RenderTarget with two
// color attachments (the lit scene, and the emissive light alone, through
// `mrt({ output, emissive })`); afterglow samples both GPU textures.
//
// three.js has no public getter for the GPUTexture behind a render target;
// the one place that holds it is the backend's per-object data,
// `renderer.backend.get(texture).texture`. It exists after the first
// render into the target and changes when the target is resized, so the
// page reads it every frame (setTexture is free when it is unchanged).
import * as THREE from 'three/webgpu';
import { mrt, output, emissive } from 'three/tsl';
import init, { Renderer } from './pkg/afterglow.js';

const $ = (id) => document.getElementById(id);
const canvas = $('view');

function showMessage(text) {
  $('message').firstElementChild.textContent = text;
  $('message').classList.add('shown');
}

function buildScene() {
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0, 0, 0);
  const floor = new THREE.Mesh(
    new THREE.PlaneGeometry(14, 14),
    new THREE.MeshStandardMaterial({ color: 0x404048, roughness: 0.9 }),
  );
  floor.rotation.x = -Math.PI / 2;
  scene.add(floor);

  const sun = new THREE.DirectionalLight(0xffffff, 6);
  sun.position.set(3, 8, 4);
  scene.add(sun, new THREE.AmbientLight(0xffffff, 0.15));

  // A white box brighter than the bloom threshold: it would glow if the
  // whole scene fed the bloom; with the emissive attachment it stays crisp.
  const white = new THREE.Mesh(
    new THREE.BoxGeometry(1.2, 1.2, 1.2),
    new THREE.MeshStandardMaterial({ color: 0xffffff, roughness: 0.6 }),
  );
  white.position.set(-3.0, 0.6, 1.6);
  const knot = new THREE.Mesh(
    new THREE.TorusKnotGeometry(0.55, 0.18, 128, 16),
    new THREE.MeshStandardMaterial({ color: 0xcc5533, roughness: 0.35, metalness: 0.2 }),
  );
  knot.position.set(2.2, 1.0, -0.8);
  scene.add(white, knot);

  // Emissive objects: the only light that blooms.
  const glowing = (color, intensity, geometry) => new THREE.Mesh(geometry,
    new THREE.MeshStandardMaterial({ color: 0x000000, emissive: color, emissiveIntensity: intensity }));
  const orb = glowing(0xff8833, 8, new THREE.SphereGeometry(0.35, 32, 16));
  orb.position.set(0, 0.9, 0);
  const lamp = new THREE.PointLight(0xff9955, 6, 0, 2);
  lamp.position.copy(orb.position);
  const ring = glowing(0x33ccff, 5, new THREE.TorusGeometry(0.45, 0.06, 16, 64));
  ring.position.set(-0.4, 2.4, -2.4);
  scene.add(orb, lamp, ring);

  const animate = (t) => {
    knot.rotation.set(0.4 * t, 0.7 * t, 0);
    white.rotation.y = 0.4 + 0.3 * t;
    ring.rotation.set(0.8 * t, 0.5 * t, 0);
    orb.position.y = 0.9 + 0.25 * Math.sin(1.5 * t);
    lamp.position.copy(orb.position);
  };
  return { scene, animate, orb, ring, white };
}

async function main() {
  if (!navigator.gpu) {
    showMessage('This page needs WebGPU, which this browser does not offer (or only on https).');
    return;
  }
  // One device for both libraries.
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) {
    showMessage('No WebGPU adapter is available.');
    return;
  }
  const device = await adapter.requestDevice();

  const three = new THREE.WebGPURenderer({ device });
  await three.init();
  if (!three.backend.isWebGPUBackend) {
    showMessage('three.js fell back to WebGL 2; afterglow needs its WebGPU backend.');
    return;
  }
  // Render targets get linear radiance: no tone mapping in three.js.
  three.toneMapping = THREE.NoToneMapping;
  three.setMRT(mrt({ output, emissive }));
  const target = new THREE.RenderTarget(1, 1, {
    type: THREE.HalfFloatType, // rgba16float
    count: 2,                  // [0]: the lit scene, [1]: the emissive light
    samples: 4,
    depthBuffer: true,
  });
  // mrt() writes each output to the attachment of the same name.
  target.textures[0].name = 'output';
  target.textures[1].name = 'emissive';

  await init();
  const renderer = await Renderer.create(canvas, { device, autoResize: true, bloom: { intensity: 0.8 } });

  const { scene, animate, orb, ring, white } = buildScene();
  const camera = new THREE.PerspectiveCamera(43, 1, 0.1, 100);
  const place = (t) => {
    const a = 0.6 + 0.15 * t;
    camera.position.set(8.6 * Math.sin(a), 3.4, 8.6 * Math.cos(a));
    camera.lookAt(0, 0.6, 0);
  };
  const gpuTexture = (texture) => three.backend.get(texture).texture;

  let time = 0;
  let fixedTime = null;
  let last = performance.now();
  let frames = 0;
  let failed = false;
  const frame = (now) => {
    if (!$('pause').checked) time += (now - last) / 1000;
    last = now;
    const t = fixedTime ?? time;
    try {
      const [w, h] = [Math.max(1, canvas.width), Math.max(1, canvas.height)];
      if (target.width !== w || target.height !== h) {
        target.setSize(w, h); // three.js re-creates (and destroys) its textures
        camera.aspect = w / h;
        camera.updateProjectionMatrix();
      }
      animate(t);
      place(t);
      three.setRenderTarget(target);
      three.render(scene, camera);
      const [color, glow] = target.textures.map(gpuTexture);
      renderer.setTexture(color, $('selective').checked ? { bloom: glow } : {});
      renderer.render(t);
      frames++;
    } catch (e) {
      $('error').textContent = `${e.name}: ${e.message}`;
      failed = true;
      return;
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);

  $('bloom').addEventListener('change', (e) => renderer.setOptions({ bloom: { enabled: e.target.checked } }));

  // For the console and the end-to-end test.
  window.withThree = {
    renderer,
    three,
    device,
    get frames() { return frames; },
    get failed() { return failed; },
    /** Freezes the scene's clock at `t` seconds (null: runs again). */
    setTime(t) { fixedTime = t; },
    /** Where an object's centre and a point `reach` above it land on the canvas, in CSS pixels. */
    project(name, reach) {
      const object = { orb, ring, white }[name];
      const at = (p) => {
        const v = p.clone().project(camera);
        return { x: (v.x * 0.5 + 0.5) * canvas.clientWidth, y: (0.5 - v.y * 0.5) * canvas.clientHeight };
      };
      const c = at(object.position);
      const top = at(object.position.clone().add(new THREE.Vector3(0, reach, 0)));
      return { ...c, r: Math.hypot(top.x - c.x, top.y - c.y) };
    },
  };
}

main().catch((e) => showMessage(`${e.name ?? 'Error'}: ${e.message}`));
