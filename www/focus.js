// Click (or tap) to focus, for the demo pages that hand afterglow their
// depth: a lens long and open enough for their small scenes, off until
// the page's checkbox or a click turns it on. `distanceAt(u, v)` is the
// page's own answer for where the view hits its scene: the distance
// along the view, or null where nothing is there.
const $ = (id) => document.getElementById(id);

export function focusControl(renderer, canvas, distanceAt) {
  const lens = { focalLength: 0.1, fStop: 1.4, maxBlur: 24 };
  const apply = (change) => renderer.setOptions({ depthOfField: { ...lens, ...change } });
  $('dof').addEventListener('change', (e) => apply({ enabled: e.target.checked }));
  const focusAt = (u, v) => {
    const hit = distanceAt(u, v);
    if (hit === null) return null;
    // A lens focuses no nearer than its focal length (setOptions refuses
    // that): a hit closer than it focuses just beyond it.
    const distance = Math.max(hit, lens.focalLength * 1.1);
    $('dof').checked = true;
    apply({ enabled: true, focusDistance: distance });
    $('focus').textContent = `focused at ${distance.toFixed(2)} m`;
    return distance;
  };
  canvas.addEventListener('click', (e) => {
    const r = canvas.getBoundingClientRect();
    focusAt((e.clientX - r.left) / r.width, (e.clientY - r.top) / r.height);
  });
  return focusAt;
}
