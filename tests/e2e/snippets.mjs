// The code blocks of the README and the guides in docs/, read by the tests
// that run them. `tests/docs.rs` checks that every block of those pages is
// one that a test reads through here (or a copy of one).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url);

/** The text of a page of the repository (`README.md`, `docs/api.md`). */
export function page(file) {
  return readFileSync(new URL(file, root), 'utf8');
}

/** The first ```lang block after the line `heading` in `file`. */
export function snippet(file, heading, lang) {
  const text = `\n${page(file)}`;
  const from = text.indexOf(`\n${heading}\n`);
  assert.ok(from >= 0, `no '${heading}' in ${file}`);
  const m = text.slice(from).match(new RegExp('```' + lang + '\\n([\\s\\S]*?)```'));
  assert.ok(m, `no ${lang} block after '${heading}' in ${file}`);
  return m[1];
}
