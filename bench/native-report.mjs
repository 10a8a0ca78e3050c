// The report of `cargo xtask bench --native`: reads the manifest it wrote
// (what each binary was built from, the command) and the output of run.sh
// (machine.txt, runs.txt), and writes the Markdown tables with where their
// figures come from into bench/results/ (bench/record.mjs).
//
//   node bench/native-report.mjs target/native-bench/manifest.json OUT
//
// Each figure is the better (lower) of the rounds' medians; the spread
// column says how far the rounds were apart, which is the noise to read
// the table with.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { record } from './record.mjs';

const [manifestPath, outDir] = process.argv.slice(2);
if (!manifestPath || !outDir) {
  console.error('usage: node bench/native-report.mjs MANIFEST OUT (what run.sh wrote)');
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
// machine.txt: when run.sh started (its first line, from `date -u`), then
// the machine. (Folders from before run.sh wrote the date have none.)
let machine = readFileSync(join(outDir, 'machine.txt'), 'utf8').trim().split('\n').filter(Boolean);
const measured = /^\d{4}-\d\d-\d\dT/.test(machine[0] ?? '') ? machine.shift() : 'not recorded';
const runs = parseRuns(readFileSync(join(outDir, 'runs.txt'), 'utf8'));

/** runs.txt → { binary → [round → { adapter, sections: Map(key → { frame, cpu, passes }) }] } */
function parseRuns(text) {
  const out = {};
  let current = null;
  let section = null;
  for (const line of text.split('\n')) {
    let m;
    if ((m = /^=== (\S+) round (\d+)$/.exec(line))) {
      current = { adapter: null, sections: new Map() };
      (out[m[1]] ??= [])[Number(m[2]) - 1] = current;
      section = null;
    } else if (!current) {
      continue;
    } else if ((m = /^adapter: (.*)$/.exec(line))) {
      current.adapter = m[1];
    } else if ((m = /^(\d+)×(\d+) (.+): frame GPU ([\d.]+|NaN) ms(?:.*CPU encode\+submit ([\d.]+) ms)?/.exec(line))) {
      section = { size: `${m[1]}×${m[2]}`, chain: m[3], frame: Number(m[4]), cpu: m[5] ? Number(m[5]) : null, passes: new Map() };
      current.sections.set(`${section.size} ${section.chain}`, section);
    } else if (section && (m = /^ {2}(.+?)\s+([\d.]+|NaN) ms$/.exec(line))) {
      section.passes.set(m[1], Number(m[2]));
    }
  }
  return out;
}

const builds = manifest.builds.map((b) => {
  const rounds = (runs[b.binary] ?? []).filter(Boolean);
  if (!rounds.length) throw new Error(`runs.txt has no output of ${b.binary}: did run.sh finish?`);
  return { ...b, rounds };
});

/** The better of the rounds' figures for `pick(section)`, and their spread. */
function best(build, key, pick) {
  const values = build.rounds.map((r) => r.sections.get(key)).filter(Boolean).map(pick)
    .filter((v) => v !== null && v !== undefined && Number.isFinite(v));
  if (!values.length) return null;
  const lo = Math.min(...values);
  // One round has no spread to tell.
  return { value: lo, spread: values.length > 1 ? (Math.max(...values) - lo) / lo : null };
}

const frame = (s) => s.frame;
const pass = (name) => (s) => s.passes.get(name);
const fmt = (v) => (v === null ? '—' : v.value.toFixed(3));
const change = (a, b) => {
  if (!a && !b) return '—';
  if (!a || !b) return `${fmt(a)} → ${fmt(b)}`;
  return `${fmt(a)} → ${fmt(b)} (${(b.value / a.value).toFixed(2)}×)`;
};

// Every (size, chain) any build printed, in the order printed.
const keys = [];
for (const b of builds) {
  for (const r of b.rounds) for (const k of r.sections.keys()) if (!keys.includes(k)) keys.push(k);
}
const last = builds[builds.length - 1];
const first = builds[0];
const two = builds.length > 1;
const split = (k) => [k.slice(0, k.indexOf(' ')), k.slice(k.indexOf(' ') + 1)];

const lines = [];
const title = two ? `Native GPU time per pass: ${first.commit} → ${last.commit}` : `Native GPU time per pass at ${last.commit}`;
lines.push(`# ${title}`, '');
for (const b of builds) {
  lines.push(`- ${b.label}: commit ${b.commit}${b.changes ? ` with ${b.changes} uncommitted change(s) (--dirty)` : ' (clean tree)'}`);
}
lines.push(
  `- command: \`${manifest.command}\``,
  `- adapter: ${last.rounds[0].adapter ?? 'unknown'} (the crate's tests::bench: wgpu on Vulkan, timestamp queries)`,
  `- machine: ${machine.join('; ')}`,
  `- method: ${manifest.frames} frames per configuration after 30 unmeasured ones; each binary run ${manifest.rounds} time(s), `
    + `${two ? 'interleaved (before, after, before, …); ' : ''}each figure is the better of the rounds' medians, in ms; `
    + "spread: how far the rounds' frame medians were apart",
  `- measured: ${measured} (report written ${new Date().toISOString()})`,
  '',
);
if (two) {
  lines.push('| size | chain | frame | spread | all bloom passes | composite |', '|---|---|---|---|---|---|');
  for (const k of keys) {
    const [size, chain] = split(k);
    const spread = [best(first, k, frame), best(last, k, frame)].filter((v) => v && v.spread !== null).map((v) => v.spread);
    lines.push(`| ${size} | ${chain} | ${change(best(first, k, frame), best(last, k, frame))} | `
      + `${spread.length ? `${(Math.max(...spread) * 100).toFixed(1)} %` : '—'} | `
      + `${change(best(first, k, pass('(all bloom passes)')), best(last, k, pass('(all bloom passes)')))} | `
      + `${change(best(first, k, pass('composite')), best(last, k, pass('composite')))} |`);
  }
} else {
  lines.push('| size | chain | frame | spread | all bloom passes | composite | CPU encode+submit |', '|---|---|---|---|---|---|---|');
  for (const k of keys) {
    const [size, chain] = split(k);
    const f = best(last, k, frame);
    lines.push(`| ${size} | ${chain} | ${fmt(f)} | ${f && f.spread !== null ? `${(f.spread * 100).toFixed(1)} %` : '—'} | `
      + `${fmt(best(last, k, pass('(all bloom passes)')))} | ${fmt(best(last, k, pass('composite')))} | `
      + `${fmt(best(last, k, (s) => s.cpu))} |`);
  }
}
// Every pass, for each build.
for (const b of builds) {
  lines.push('', `<details><summary>Every pass at ${b.commit} (${b.label})</summary>`, '');
  for (const k of keys) {
    const section = b.rounds.map((r) => r.sections.get(k)).find(Boolean);
    if (!section) continue;
    lines.push(`**${k}**: frame ${fmt(best(b, k, frame))}`, '', '| pass | ms |', '|---|---|');
    for (const name of section.passes.keys()) lines.push(`| ${name} | ${fmt(best(b, k, pass(name)))} |`);
    lines.push('');
  }
  lines.push('</details>');
}

const text = lines.join('\n');
console.log(text);
const name = two ? `native-since-${first.commit}` : 'native';
const file = record(name, { commit: last.commit, changes: Array(last.changes).fill('') }, text);
console.log(`\nwrote ${file}`);
