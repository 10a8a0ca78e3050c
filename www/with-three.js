// A three.js WebGPURenderer scene post-processed by afterglow through
// ThreePost (afterglow-hdr/three): three.js renders the scene into a
// half-float target with the emissive light in a second attachment, and
// afterglow, on three.js's device, blooms that light, blurs by the target's
// depth as a lens would (depth of field) and tonemaps the scene into the
// canvas. A click focuses where it points. The lines that matter are in
// main() and focusOnScene() (with www/focus.js); the rest is the scene and what the end-to-end
// test reads.
import * as THREE from 'three/webgpu';
import init from 'afterglow-hdr';
import { ThreePost } from 'afterglow-hdr/three';
import { focusControl } from './focus.js';

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
  // whole scene fed the bloom; with only the emissive light it stays crisp.
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

  const camera = new THREE.PerspectiveCamera(43, 1, 0.1, 100);
  const animate = (t) => {
    knot.rotation.set(0.4 * t, 0.7 * t, 0);
    white.rotation.y = 0.4 + 0.3 * t;
    ring.rotation.set(0.8 * t, 0.5 * t, 0);
    orb.position.y = 0.9 + 0.25 * Math.sin(1.5 * t);
    lamp.position.copy(orb.position);
    const a = 0.6 + 0.15 * t;
    camera.position.set(8.6 * Math.sin(a), 3.4, 8.6 * Math.cos(a));
    camera.lookAt(0, 0.6, 0);
  };
  return { scene, camera, animate, objects: { orb, ring, white, knot } };
}

// Depth of field: ThreePost hands afterglow the target's depth and the
// camera's planes. A click (or a tap) focuses on what three.js's
// raycaster finds there, at its distance along the view.
function focusOnScene(post, scene, camera, canvas) {
  const raycaster = new THREE.Raycaster();
  return focusControl(post.renderer, canvas, (u, v) => {
    camera.updateMatrixWorld();
    raycaster.setFromCamera(new THREE.Vector2(2 * u - 1, 1 - 2 * v), camera);
    const hit = raycaster.intersectObjects(scene.children, true)[0];
    if (!hit) return null;
    const view = camera.getWorldDirection(new THREE.Vector3());
    return hit.point.clone().sub(camera.position).dot(view);
  });
}

async function main() {
  if (!navigator.gpu) {
    showMessage('This page needs WebGPU, which this browser does not offer (or only on https).');
    return;
  }
  const { scene, camera, animate, objects } = buildScene();

  await init();
  const renderer = new THREE.WebGPURenderer({ canvas }); await renderer.init();
  const post = await ThreePost.create(renderer);

  // The page's size, as any three.js page keeps it; ThreePost follows.
  const fit = () => {
    renderer.setPixelRatio(devicePixelRatio);
    renderer.setSize(innerWidth, innerHeight);
    camera.aspect = innerWidth / Math.max(1, innerHeight);
    camera.updateProjectionMatrix();
  };
  fit();
  addEventListener('resize', fit);
  $('version').textContent = `three.js r${THREE.REVISION}`;

  let time = 0;
  let fixedTime = null;
  let last = null;
  let frames = 0;
  let failed = false;
  renderer.setAnimationLoop((now) => {
    if (!$('pause').checked && last !== null) time += (now - last) / 1000;
    last = now;
    const t = fixedTime ?? time;
    try {
      animate(t);
      post.selective = $('selective').checked;
      post.render(scene, camera, t);
      frames++;
    } catch (e) {
      $('error').textContent = `${e.name}: ${e.message}`;
      failed = true;
      renderer.setAnimationLoop(null);
    }
  });

  $('bloom').addEventListener('change', (e) => post.renderer.setOptions({ bloom: { enabled: e.target.checked } }));
  const focusAt = focusOnScene(post, scene, camera, canvas);

  // For the console and the end-to-end test.
  window.withThree = {
    ThreePost,
    post,
    renderer: post.renderer,
    three: renderer,
    THREE,
    scene,
    camera,
    revision: THREE.REVISION,
    /** Focuses where (u, v) points (0 to 1, y down); the distance, or null. */
    focusAt,
    get frames() { return frames; },
    get failed() { return failed; },
    /** Freezes the scene's clock at `t` seconds (null: runs again). */
    setTime(t) { fixedTime = t; if (t !== null) animate(t); },
    /** Where an object's centre and a point `reach` above it land on the canvas, in CSS pixels. */
    project(name, reach) {
      const object = objects[name];
      camera.updateMatrixWorld();
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
