/**
 * The package as npm ships it (`npm pack`), installed into a folder of its
 * own: what the README links to is in it, its CLI runs the embedded demo,
 * its source maps carry their sources, and its three entry points resolve
 * for TypeScript under `nodenext` and `bundler` resolution.
 * `npm test` builds dist/ first.
 */
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

/**
 * Packs the package and unpacks it as `node_modules/ooda-rx` of a fresh folder,
 * its dependencies linked from this checkout. Of the type packages, only
 * @types/node (a Node project's own) and those the package depends on are
 * there, as in a consumer's project: not this checkout's devDependencies.
 */
function install(): { dir: string; pkg: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-package-'));
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as { filename: string; files: { path: string }[] }[];
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '@types'), { recursive: true });
  execFileSync('tar', ['-xzf', join(dir, packed!.filename), '-C', modules]);
  const pkg = join(modules, 'ooda-rx');
  execFileSync('mv', [join(modules, 'package'), pkg]);
  for (const dependency of [...Object.keys(manifest.dependencies), '@types/node']) symlinkSync(join(root, 'node_modules', dependency), join(modules, dependency));
  return { dir, pkg, files: packed!.files.map((f) => f.path) };
}

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

test('the packed source maps carry their sources, so stack traces and debuggers show code that exists', (t) => {
  const { pkg } = installed;
  const map = JSON.parse(readFileSync(join(pkg, 'dist', 'streams', 'testing.js.map'), 'utf8')) as { sources: string[]; sourcesContent?: string[] };
  t.is(map.sourcesContent?.length, map.sources.length);
  t.regex(map.sourcesContent![0]!, /createTestAgent/);
});

test('the three entry points type-check from an installed package under nodenext and bundler resolution, strict and with its declarations checked, inject included', (t) => {
  const { dir } = installed;
  const source = [
    "import type { Agent, Fact, Journal, ScoringContext, Tool } from 'ooda-rx';",
    "import type { observe } from 'ooda-rx/operators';",
    "import type { createTestAgent } from 'ooda-rx/testing';",
    'export type Used = [Agent, Fact, Journal, ScoringContext, Tool, typeof observe, typeof createTestAgent];',
    '// inject takes signals as written by hand: schema defaults and the envelope left out.',
    "export const inject = (agent: Agent): boolean[] => [agent.inject({ type: 'goal', description: 'Find moons of Mars' }), agent.inject({ type: 'fact', subject: 'Mars', predicate: 'has moon', object: 'Phobos' }), agent.inject({ type: 'tick' })];",
  ].join('\n');
  writeFileSync(join(dir, 'check.ts'), source);
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  for (const [module, resolution] of [['nodenext', 'nodenext'], ['esnext', 'bundler']]) {
    const run = spawnSync(process.execPath, [tsc, '--noEmit', '--strict', '--module', module, '--moduleResolution', resolution, '--types', 'node', 'check.ts'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    t.is(run.status, 0, `${resolution}: ${run.stdout}${run.stderr}`);
  }
});
