// The benchmark content for the three.js WebGL pages: one full-screen quad
// with bench/scene.js's GLSL (the page's content), rendered into the
// composer's HDR target.
import * as THREE from 'three';
import { GLSL_VERTEX } from '../scene.js';

export function glslScene(width, height, content) {
  const uniforms = {
    time: { value: 0 },
    res: { value: new THREE.Vector2(width, height) },
  };
  const material = new THREE.RawShaderMaterial({
    glslVersion: THREE.GLSL3,
    vertexShader: GLSL_VERTEX,
    fragmentShader: content.glsl,
    uniforms,
    depthTest: false,
    depthWrite: false,
  });
  const quad = new THREE.Mesh(new THREE.PlaneGeometry(2, 2), material);
  quad.frustumCulled = false;
  const scene = new THREE.Scene();
  scene.add(quad);
  const camera = new THREE.OrthographicCamera(-1, 1, 1, -1, 0, 1);
  return { scene, camera, uniforms };
}
