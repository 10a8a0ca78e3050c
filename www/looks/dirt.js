// A lens dirt texture drawn in a canvas, for the demo's "Dirty lens"
// look: soft smudges and specks of different sizes, brighter towards the
// edges as dust on a real lens shows, on black (black leaves the bloom as
// it is). Deterministic: the same picture on every load.
export function lensDirt(width = 1024, height = 576) {
  const canvas = new OffscreenCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = '#000';
  g.fillRect(0, 0, width, height);
  let seed = 7;
  const random = () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
  const blob = (x, y, r, alpha) => {
    const gradient = g.createRadialGradient(x, y, 0, x, y, r);
    gradient.addColorStop(0, `rgba(255, 250, 240, ${alpha})`);
    gradient.addColorStop(0.6, `rgba(255, 250, 240, ${alpha * 0.45})`);
    gradient.addColorStop(1, 'rgba(255, 250, 240, 0)');
    g.fillStyle = gradient;
    g.beginPath();
    g.arc(x, y, r, 0, Math.PI * 2);
    g.fill();
  };
  const scale = Math.min(width, height);
  for (let i = 0; i < 60; i++) {
    const x = random() * width;
    const y = random() * height;
    // Farther from the centre, more dust.
    const edge = Math.hypot(x / width - 0.5, y / height - 0.5) * 1.6;
    blob(x, y, scale * (0.04 + 0.12 * random()), 0.12 + 0.35 * edge * random());
  }
  for (let i = 0; i < 140; i++) {
    blob(random() * width, random() * height, scale * (0.004 + 0.01 * random()), 0.3 + 0.5 * random());
  }
  return canvas;
}
