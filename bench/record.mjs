// Where a benchmark's figures come from, written with them: the commit,
// whether the working tree was clean, the machine, the browser and the
// exact command. `record()` writes the report into bench/results/ (one
// Markdown file per run, named by date, commit and benchmark), so a table
// in BENCHMARKS.md can point at the run that printed it instead of being
// copied by hand; `recordJson()` writes figures beside it, for tools. A
// run on a tree with changes is refused unless the command says
// `--dirty`: its figures belong to no commit, so its report goes to
// target/bench/results/ instead.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;

function git(...args) {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
}

/** The commit checked out and the changes on top of it (modified or
 * untracked files that git does not ignore). */
export function tree() {
  const commit = git('rev-parse', '--short=10', 'HEAD')?.trim() ?? null;
  const status = git('status', '--porcelain');
  // The results folder is this tool's own output, not a change to measure.
  const changes = status === null ? null
    : status.split('\n').filter((l) => l && !l.slice(3).startsWith('bench/results/'));
  return { commit, changes };
}

/** Refuses a tree with changes unless `dirty` (the `--dirty` flag) says to
 * go on; returns the tree. */
export function checkTree(dirty) {
  const t = tree();
  if (t.commit === null) throw new Error('not a git checkout: the figures would name no commit');
  if (t.changes === null) throw new Error('git status failed: cannot tell whether the tree is clean');
  if (t.changes.length && !dirty) {
    const shown = t.changes.slice(0, 3).map((l) => l.trim()).join('; ');
    throw new Error(`the working tree has ${t.changes.length} change(s) (${shown}${t.changes.length > 3 ? '; …' : ''}): `
      + 'commit them, or pass --dirty to measure anyway (the report then says so)');
  }
  return t;
}

/** The command as it was given: `cargo xtask bench …` passes its own
 * spelling in AFTERGLOW_COMMAND; run directly, the node command line. */
export function command() {
  return process.env.AFTERGLOW_COMMAND ?? `node ${process.argv.slice(1).map((a) => a.replace(ROOT, '')).join(' ')}`;
}

/** This machine, as a report's header names it. */
export function machine() {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${platform()} ${release()}, Node ${process.version}`;
}

/** The Markdown header that says where the figures come from: this
 * machine, now, and this process's command, unless the figures were
 * measured elsewhere (`at`: { machine, date, command } of that run). */
export function header({ title, tree: t, browser, at = null }) {
  const lines = [
    `# ${title}`,
    '',
    `- commit: ${t.commit}${t.changes.length ? ` with ${t.changes.length} uncommitted change(s) (--dirty)` : ' (clean tree)'}`,
    `- command: \`${at?.command ?? command()}\``,
    `- browser: ${browser}`,
    `- machine: ${at?.machine ?? machine()}`,
    `- date: ${at?.date ?? new Date().toISOString()}`,
    '',
  ];
  return lines.join('\n');
}

/** The path of a record: bench/results/<date>-<commit>-<name>.<ext> (a
 * clean tree's run, a record to keep) or target/bench/results/ (a run
 * with changes, which belongs to no commit). */
function recordPath(name, t, ext) {
  const dir = t.changes.length ? join(ROOT, 'target', 'bench', 'results') : join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const day = new Date().toISOString().slice(0, 10);
  return join(dir, `${day}-${t.commit}${t.changes.length ? '-dirty' : ''}-${name}.${ext}`);
}

/** Writes `header + report` as the Markdown record `name` of tree `t`
 * (see recordPath) and returns the path. */
export function record(name, t, text) {
  const file = recordPath(name, t, 'md');
  writeFileSync(file, `${text}\n`);
  return file;
}

/** Writes `value` as the JSON record `name` of tree `t`, beside the
 * Markdown one, and returns the path. */
export function recordJson(name, t, value) {
  const file = recordPath(name, t, 'json');
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
  return file;
}
