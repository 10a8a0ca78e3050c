// The demo's effect editor: an effect of the page's own, written in WGSL
// and fused into the renderer's last pass with addEffect. Applying adds
// the new text under a new name and only then removes the old effect, so
// a text that does not compile leaves the one on screen running.

/** The example the editor starts with: scanlines on the displayed
 * picture, their depth a uniform, drifting with time. */
export const SCANLINES = `// Scanlines on the displayed picture: every other row of pixels a
// little darker, drifting slowly. uniforms.strength is the slider below.
fn effect(color: vec4f, uv: vec2f) -> vec4f {
  let row = uv.y * resolution().y;
  let dark = 0.5 + 0.5 * sin(3.14159 * row + 2.0 * time());
  return vec4f(color.rgb * (1.0 - uniforms.strength * dark), color.a);
}
`;

const $ = (id) => document.getElementById(id);

/** Wires the editor's dialog (`#effect-dialog`) to `renderer`. `run(text,
 * task)` shows a status while `task` runs; `changed()` asks for a frame. */
export function effectEditor(renderer, { run, changed }) {
  const dialog = $('effect-dialog');
  const source = $('effect-wgsl');
  const error = $('effect-error');
  const strength = $('effect-strength');
  let serial = 0;
  let current = null;
  source.value = SCANLINES;

  // The line the compiler pointed at, selected in the editor.
  function showError(e) {
    error.textContent = e.message;
    error.title = e.details ?? '';
    if (e.name === 'ShaderError' && e.line > 0) {
      const lines = source.value.split('\n');
      const start = lines.slice(0, e.line - 1).join('\n').length + (e.line > 1 ? 1 : 0);
      source.focus();
      source.setSelectionRange(start, start + (lines[e.line - 1] ?? '').length);
    }
  }

  async function apply() {
    const name = `yours_${++serial}`;
    try {
      await run('Compiling effect…', () => renderer.addEffect(name, {
        wgsl: source.value,
        stage: $('effect-stage').value,
        uniforms: { strength: Number(strength.value) },
      }));
    } catch (e) {
      showError(e);
      return;
    }
    if (current) renderer.removeEffect(current);
    current = name;
    error.textContent = '';
    error.title = '';
    $('remove-effect').disabled = false;
    changed();
  }

  function remove() {
    if (current) renderer.removeEffect(current);
    current = null;
    $('remove-effect').disabled = true;
    changed();
  }

  $('edit-effect').addEventListener('click', () => dialog.showModal());
  $('apply-effect').addEventListener('click', apply);
  $('remove-effect').addEventListener('click', remove);
  source.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) apply();
  });
  strength.addEventListener('input', () => {
    strength.nextElementSibling.value = strength.value;
    if (!current) return;
    try {
      renderer.setEffectUniforms(current, { strength: Number(strength.value) });
      changed();
    } catch (e) {
      showError(e);
    }
  });
}
