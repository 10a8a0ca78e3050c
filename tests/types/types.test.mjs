// The package's TypeScript declarations as a user's compiler meets them.
// The tarball that `cargo xtask pack` wrote is installed into a scratch
// project; consumer.ts and three-plain.ts (`afterglow-hdr/three` without
// three.js's types) must compile and every deliberate mistake in
// mistakes.ts must be rejected (each is marked `@ts-expect-error`), under
// `strict` with the compiler's default `lib` and `target`, with the
// TypeScript pinned in package.json and with the oldest version the README
// supports, for each module resolution a project may use. The README's
// three.js snippet (with three.ts after it) must compile, and
// mistakes-three.ts's mistakes be rejected, with `@types/three` (pinned in
// package.json), on the compilers it supports. The compiler's own API then
// walks every type the package exports: none may be `any`.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { join, sep } from 'node:path';
import { snippet } from '../e2e/snippets.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));
const tarball = process.env.AFTERGLOW_TARBALL
  ?? join(root, 'target/npm', readdirSync(join(root, 'target/npm')).find((f) => f.endsWith('.tgz')));
const scratch = join(root, 'target/types-check');
const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies;
/** The major version of the oldest TypeScript `@types/three` names (5.6 at 0.187.0; it compiles with 5.1.6 too). */
const threeTypesNeed = Number(JSON.parse(readFileSync(join(root, 'node_modules/@types/three/package.json'), 'utf8'))
  .typeScriptVersion.split('.')[0]);

/** The compilers: the pinned TypeScript and the oldest supported one (an npm alias). */
const compilers = [
  { package: 'typescript', version: pinned.typescript },
  { package: 'typescript-5.1', version: pinned['typescript-5.1'].replace('npm:typescript@', '') },
];
/** Module resolutions a project may use; `node10` is gone from TypeScript 7. */
const resolutions = [
  { module: 'esnext', moduleResolution: 'bundler' },
  { module: 'nodenext', moduleResolution: 'nodenext' },
  { moduleResolution: 'node10', before: 6 },
];

before(() => {
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'types-scratch', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: scratch, stdio: 'inherit' });
  for (const f of ['consumer.ts', 'mistakes.ts', 'three-plain.ts', 'mistakes-three.ts']) {
    copyFileSync(join(here, f), join(scratch, f));
  }
  // The README's three.js snippet, verbatim, then what it takes from the app.
  const code = snippet('README.md', '## Quick start: three.js in five lines', 'js');
  writeFileSync(join(scratch, 'three-snippet.ts'), `${code}\n${readFileSync(join(here, 'three.ts'), 'utf8')}`);
});

/**
 * Runs `tsc -p` on one file with `strict`, no `lib` and no `target` (unless
 * `extra` sets them); returns its output, '' when clean. `types: []`: the
 * repository's `node_modules/@types` (`@types/three`, for the three.js
 * files, which import it) is not loaded into every compile.
 */
function tsc(compiler, resolution, file, extra = {}) {
  const { before: _, ...compilerOptions } = resolution;
  const config = `tsconfig.${compiler.package}.${resolution.moduleResolution}.${file}.json`;
  writeFileSync(join(scratch, config), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, types: [], ...compilerOptions, ...extra },
    files: [file],
  }));
  const bin = join(root, 'node_modules', compiler.package, 'bin/tsc');
  try {
    execFileSync(process.execPath, [bin, '-p', config], { cwd: scratch, encoding: 'utf8', stdio: 'pipe' });
    return '';
  } catch (e) {
    return `${e.stdout}${e.stderr}` || String(e);
  }
}

for (const compiler of compilers) {
  const major = Number(compiler.version.split('.')[0]);
  test(`${compiler.package} is TypeScript ${compiler.version}`, () => {
    const bin = join(root, 'node_modules', compiler.package, 'bin/tsc');
    const out = execFileSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
    assert.equal(out.trim(), `Version ${compiler.version}`);
  });
  for (const resolution of resolutions.filter((r) => !(r.before <= major))) {
    const where = `TypeScript ${compiler.version}, moduleResolution ${resolution.moduleResolution}`;
    test(`consumer.ts compiles (${where})`, () => {
      assert.equal(tsc(compiler, resolution, 'consumer.ts'), '');
    });
    test(`every mistake in mistakes.ts is rejected (${where})`, () => {
      assert.equal(tsc(compiler, resolution, 'mistakes.ts'), '');
    });
    test(`three-plain.ts compiles (${where})`, () => {
      assert.equal(tsc(compiler, resolution, 'three-plain.ts'), '');
    });
    // `@types/three` resolves `three/webgpu` through `exports` only, and
    // needs ES2015's library (the snippet's top-level `await`, an ES2017 target).
    if (major >= threeTypesNeed && resolution.moduleResolution !== 'node10') {
      test(`the README's three.js snippet compiles with @types/three (${where})`, () => {
        assert.equal(tsc(compiler, resolution, 'three-snippet.ts', { target: 'es2022' }), '');
      });
      test(`every mistake in mistakes-three.ts is rejected (${where})`, () => {
        assert.equal(tsc(compiler, resolution, 'mistakes-three.ts', { target: 'es2022' }), '');
      });
    }
  }
}

test('the three.js files are compiled by at least one compiler', () => {
  assert.ok(compilers.some((c) => Number(c.version.split('.')[0]) >= threeTypesNeed),
    `@types/three needs TypeScript ${threeTypesNeed}; no compiler here is that new`);
});

test('no type the package exports is, or contains, `any`', () => {
  const ts = createRequire(import.meta.url)(join(root, 'node_modules/typescript-5.1'));
  const program = ts.createProgram([join(scratch, 'consumer.ts'), join(scratch, 'three-plain.ts')], {
    strict: true, noEmit: true, types: [], module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
  });
  const checker = program.getTypeChecker();
  const consumer = program.getSourceFile(join(scratch, 'consumer.ts'));
  const specifier = consumer.statements.find(ts.isImportDeclaration).moduleSpecifier;
  const entry = checker.getSymbolAtLocation(specifier);
  const packageDir = join(scratch, 'node_modules', 'afterglow-hdr') + sep;
  const ours = (symbol) => (symbol?.declarations ?? []).some((d) => d.getSourceFile().fileName.startsWith(packageDir));
  const found = [];
  const seen = new Set();
  // Walks a type down to the types declared outside the package (the DOM's,
  // WebGPU's, the ES library's), which are not afterglow's to fix.
  function walk(type, path) {
    if (type.flags & ts.TypeFlags.Any) { found.push(path); return; }
    if (seen.has(type)) return;
    seen.add(type);
    if (type.isUnionOrIntersection()) type.types.forEach((t, i) => walk(t, `${path}|${i}`));
    for (const t of checker.getTypeArguments?.(type) ?? []) walk(t, `${path}<>`);
    if (type.aliasTypeArguments) type.aliasTypeArguments.forEach((t) => walk(t, `${path}<>`));
    const symbol = type.getSymbol();
    if (symbol && !ours(symbol) && !(type.flags & ts.TypeFlags.Object && type.objectFlags & ts.ObjectFlags.Anonymous)) return;
    for (const property of checker.getPropertiesOfType(type)) {
      if (!ours(property)) continue;
      walk(checker.getTypeOfSymbolAtLocation(property, consumer), `${path}.${property.name}`);
    }
    for (const kind of [ts.SignatureKind.Call, ts.SignatureKind.Construct]) {
      for (const signature of checker.getSignaturesOfType(type, kind)) {
        for (const parameter of signature.parameters) {
          walk(checker.getTypeOfSymbolAtLocation(parameter, consumer), `${path}(${parameter.name})`);
        }
        walk(signature.getReturnType(), `${path}()`);
      }
    }
  }
  const walkExports = (exports, prefix) => {
    for (const symbol of exports) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      if (target.flags & (ts.SymbolFlags.Value)) walk(checker.getTypeOfSymbolAtLocation(target, consumer), prefix + symbol.name);
      if (target.flags & (ts.SymbolFlags.Type)) walk(checker.getDeclaredTypeOfSymbol(target), prefix + symbol.name);
    }
  };
  const exported = checker.getExportsOfModule(entry);
  assert.ok(exported.length > 20, `only ${exported.length} exports found`);
  walkExports(exported, '');
  // afterglow-hdr/three, as three-plain.ts imports it.
  const threePlain = program.getSourceFile(join(scratch, 'three-plain.ts'));
  const threeSpecifier = threePlain.statements
    .filter(ts.isImportDeclaration).map((d) => d.moduleSpecifier).find((m) => m.text === 'afterglow-hdr/three');
  const threeExports = checker.getExportsOfModule(checker.getSymbolAtLocation(threeSpecifier));
  assert.deepEqual(threeExports.map((s) => s.name).sort(),
    ['ThreeCamera', 'ThreeObject3D', 'ThreePost', 'ThreePostOptions', 'ThreeWebGPURenderer']);
  walkExports(threeExports, 'three:');
  assert.deepEqual(found, [], `types that are \`any\`: ${found.join(', ')}`);

  // Every type the generated declarations define for users is exported
  // (they are re-exported by name: the option interfaces in the list that
  // src/tests/schema.rs writes from the option table, the others by hand).
  const generated = program.getSourceFile(join(packageDir, 'afterglow.d.ts'));
  const glue = ['InitOutput', 'initSync', 'default'];
  const missing = checker.getExportsOfModule(checker.getSymbolAtLocation(generated))
    .map((s) => s.name)
    .filter((name) => !glue.includes(name) && !exported.some((s) => s.name === name));
  assert.deepEqual(missing, [], 'declared in afterglow.d.ts but not exported by the package');
});
