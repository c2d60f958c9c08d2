/**
 * The package as npm ships it (`npm pack`), installed into a folder of its
 * own: what the README links to is in it, its CLI runs the embedded demo,
 * its source maps carry their sources, its three entry points resolve for
 * TypeScript under `nodenext` and `bundler` resolution and for a CommonJS
 * consumer, and the libraries whose types cross its boundary are peer
 * dependencies; and packing a checkout builds what it ships. `npm test`
 * builds dist/ first.
 */
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; peerDependencies?: Record<string, string>; files: string[] };

/** `npm pack --json` in `cwd`: the tarball's name and the files in it. Lifecycle scripts only when `scripts` (prepack rebuilds dist/, which the other test files use as it stands). */
function pack(cwd: string, args: string[], scripts = false): { filename: string; files: { path: string }[] } {
  const flags = scripts ? [] : ['--ignore-scripts'];
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', ...flags, ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 120_000 })) as { filename: string; files: { path: string }[] }[];
  return packed!;
}

/**
 * Packs the package and unpacks it as `node_modules/ooda-rx` of a fresh folder,
 * its dependencies and peer dependencies (the consumer's own copy, which npm
 * installs beside it) linked from this checkout. Of the type packages, only
 * @types/node (a Node project's own) and those the package depends on are
 * there, as in a consumer's project: not this checkout's devDependencies.
 */
function install(): { dir: string; pkg: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-package-'));
  const packed = pack(root, ['--pack-destination', dir]);
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '@types'), { recursive: true });
  execFileSync('tar', ['-xzf', join(dir, packed.filename), '-C', modules]);
  const pkg = join(modules, 'ooda-rx');
  execFileSync('mv', [join(modules, 'package'), pkg]);
  for (const dependency of [...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies ?? {}), '@types/node']) symlinkSync(join(root, 'node_modules', dependency), join(modules, dependency));
  return { dir, pkg, files: packed.files.map((f) => f.path) };
}

/**
 * Types that public functions and classes take or return (options, store rows,
 * the mind's parts, what a pass observed), which a consumer names in its own
 * code: each must be importable from the package.
 */
const publicTypes = {
  'ooda-rx': [
    'ActionReport', 'Activation', 'ConfigLayer', 'ConnectionListener', 'CycleReport', 'DecisionLog', 'DriverOptions', 'EpisodicMemory',
    'EventBody', 'EventHeader', 'EventQuery', 'EventRow', 'Evolution', 'ForgetFailure', 'GoalBook', 'GoalChange', 'GoalTerms', 'Hypervector',
    'InsertRows', 'InsertTable', 'Library', 'LoopDetectorState', 'NdjsonSink', 'NdjsonSinkOptions', 'NewGoal', 'NewMemoryEntry', 'Observation',
    'Orientation', 'Outcome', 'Passage', 'PendingQuestions', 'PlanChangeKind', 'PlanProgress', 'Progress', 'ReflectOptions', 'SeededRandom',
    'SessionRow', 'SignalRow', 'SkillReview', 'SnapshotRow', 'SqlStatement', 'ToolEffectiveness', 'ToolRegistry', 'TransportRule', 'TriplePattern',
    'WebSocketInputOptions', 'WorkingMemory', 'WriteBatch',
  ],
  'ooda-rx/operators': ['PerceiveRuntime', 'ToolRunScope'],
};

let installed: ReturnType<typeof install>;
test.before(() => {
  installed = install();
});
test.after.always(() => rmSync(installed.dir, { recursive: true, force: true }));

test('the packed package holds every file the README links to, and its installed CLI runs the embedded demo', (t) => {
  const { dir, pkg, files } = installed;
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const links = [...readme.matchAll(/\]\(((?!https?:|#)[^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!);
  t.true(links.length > 3, `${links.length} relative links`);
  for (const link of links) t.true(files.includes(link), `the README links to ${link}`);
  for (const needed of ['demo/goals.json', 'demo/knowledge.ndjson', 'dashboard/index.html', 'dist/bin/ooda.js']) t.true(files.includes(needed), needed);

  const demo = spawnSync(process.execPath, [join(pkg, 'dist', 'bin', 'ooda.js'), 'demo', '--no-db', '--max-cycles', '3'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  t.is(demo.status, 0, demo.stderr);
  t.regex(demo.stdout, /decide goal-1: /);
});

test('a CommonJS consumer requires the three entry points, and TypeScript compiles its imports of them under nodenext', (t) => {
  const { dir } = installed;
  writeFileSync(join(dir, 'check.cjs'), "console.log([require('ooda-rx').createAgent, require('ooda-rx/operators').observe, require('ooda-rx/testing').createTestAgent].map((f) => typeof f).join(' '));\n");
  const required = spawnSync(process.execPath, ['check.cjs'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  t.is(required.stdout.trim(), 'function function function', required.stderr);

  const imports = ["import { createAgent } from 'ooda-rx';", "import { observe } from 'ooda-rx/operators';", "import { createTestAgent } from 'ooda-rx/testing';"];
  writeFileSync(join(dir, 'check.cts'), [...imports, 'export const used = [createAgent, observe, createTestAgent];'].join('\n'));
  const compiled = spawnSync(process.execPath, [tsc, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node', 'check.cts'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  t.is(compiled.status, 0, `${compiled.stdout}${compiled.stderr}`);
});

test('rxjs and zod, whose observables and schemas cross the package boundary, are peer dependencies, so the consumer and the package share one copy', (t) => {
  // As dependencies, a consumer on another release (rxjs 7.8.1, zod 4.1.12) got a second copy nested in ooda-rx, and the
  // README's own examples failed to type-check: the two copies' Observable (a custom cycle) and ZodType (a tool's input) differ.
  for (const [name, major] of [['rxjs', 7], ['zod', 4]] as const) {
    t.false(name in manifest.dependencies, `${name} is not a dependency`);
    t.regex(manifest.peerDependencies?.[name] ?? '', new RegExp(`^\\^${major}\\.\\d+\\.\\d+$`), `${name} is a peer dependency`);
  }
});

test('packing a checkout builds dist/ afresh: one without dist/ ships the compiled code, and a module a removed source left in dist/ is not shipped', (t) => {
  const checkout = mkdtempSync(join(tmpdir(), 'ooda-checkout-'));
  t.teardown(() => rmSync(checkout, { recursive: true, force: true }));
  const tsconfig = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')) as { include: string[] };
  const sources = ['package.json', 'tsconfig.json', ...tsconfig.include, ...manifest.files.filter((path) => path !== 'dist')];
  for (const path of sources) cpSync(join(root, path), join(checkout, path), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(checkout, 'node_modules'));

  const fresh = pack(checkout, ['--dry-run'], true).files.map((f) => f.path);
  t.true(fresh.includes('dist/bin/ooda.js') && fresh.includes('dist/streams/index.d.ts'), `${fresh.length} files: ${fresh.filter((f) => !f.startsWith('docs/')).join(', ')}`);

  mkdirSync(join(checkout, 'dist', 'streams'), { recursive: true });
  writeFileSync(join(checkout, 'dist', 'streams', 'removedLongAgo.js'), 'export const stale = true;\n');
  const rebuilt = pack(checkout, ['--dry-run'], true).files.map((f) => f.path);
  t.false(rebuilt.includes('dist/streams/removedLongAgo.js'));
  t.deepEqual(rebuilt.sort(), fresh.sort());
});

test('the packed source maps carry their sources, so stack traces and debuggers show code that exists', (t) => {
  const { pkg } = installed;
  const map = JSON.parse(readFileSync(join(pkg, 'dist', 'streams', 'testing.js.map'), 'utf8')) as { sources: string[]; sourcesContent?: string[] };
  t.is(map.sourcesContent?.length, map.sources.length);
  t.regex(map.sourcesContent![0]!, /createTestAgent/);
});

test('the three entry points type-check from an installed package under nodenext and bundler resolution, strict and with its declarations checked, inject and the types of the public signatures included', (t) => {
  const { dir } = installed;
  const source = [
    "import type { Agent, Fact, Journal, ScoringContext, Tool } from 'ooda-rx';",
    "import type { observe } from 'ooda-rx/operators';",
    "import type { createTestAgent } from 'ooda-rx/testing';",
    'export type Used = [Agent, Fact, Journal, ScoringContext, Tool, typeof observe, typeof createTestAgent];',
    '// inject takes signals as written by hand: schema defaults and the envelope left out.',
    "export const inject = (agent: Agent): boolean[] => [agent.inject({ type: 'goal', description: 'Find moons of Mars' }), agent.inject({ type: 'fact', subject: 'Mars', predicate: 'has moon', object: 'Phobos' }), agent.inject({ type: 'tick' })];",
    ...Object.entries(publicTypes).map(([entry, names]) => `import type { ${names.join(', ')} } from '${entry}';`),
  ].join('\n');
  writeFileSync(join(dir, 'check.ts'), source);
  for (const [module, resolution] of [['nodenext', 'nodenext'], ['esnext', 'bundler']]) {
    const run = spawnSync(process.execPath, [tsc, '--noEmit', '--strict', '--module', module, '--moduleResolution', resolution, '--types', 'node', 'check.ts'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    t.is(run.status, 0, `${resolution}: ${run.stdout}${run.stderr}`);
  }
});
