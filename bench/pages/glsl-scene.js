// The benchmark content for the three.js WebGL pages: one full-screen quad
// with bench/scene.js's GLSL, rendered into the composer's HDR target.
import * as THREE from 'three';
import { GLSL_VERTEX, GLSL_FRAGMENT } from '../scene.js';

export function glslScene(width, height) {
  const uniforms = {
    time: { value: 0 },
    res: { value: new THREE.Vector2(width, height) },
  };
  const material = new THREE.RawShaderMaterial({
    glslVersion: THREE.GLSL3,
    vertexShader: GLSL_VERTEX,
    fragmentShader: GLSL_FRAGMENT,
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
