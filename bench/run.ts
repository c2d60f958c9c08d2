/**
 * `npm run bench [-- --quick] [-- NAME…]`: runs every `bench/*.bench.ts` (or
 * the named ones: a name no benchmark file starts with is exit 2) and
 * prints one JSON line per figure:
 * `{"bench": name, "value": n, "unit": "...", ...}`. `--quick` shrinks every
 * benchmark so the whole suite stays under a minute.
 *
 * A benchmark file default-exports `(options: { quick: boolean }) => Promise<BenchResult[]>`.
 *
 * Benchmarks measure the compiled package in `dist/`, the code users run
 * (`npm run bench` builds it first); only the harness itself goes through
 * tsx. Measuring the sources through tsx would time its transpiler's output,
 * which names every function it creates at run time (esbuild's keepNames),
 * a per-closure cost the shipped code does not have.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface BenchResult {
  bench: string;
  value: number;
  unit: string;
  [detail: string]: unknown;
}

export type Benchmark = (options: { quick: boolean }) => Promise<BenchResult[]>;

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.filter((a) => !a.startsWith('--'));
const dir = dirname(fileURLToPath(import.meta.url));
const all = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();
const unknown = only.filter((name) => !all.some((f) => f.startsWith(name)));
if (unknown.length > 0) {
  process.stderr.write(`bench: no benchmark named ${unknown.join(', ')}; the benchmarks are ${all.map((f) => f.replace(/\.bench\.ts$/, '')).join(', ')}\n`);
  process.exit(2);
}
const files = all.filter((f) => only.length === 0 || only.some((name) => f.startsWith(name)));

let failed = 0;
for (const file of files) {
  try {
    const module = (await import(pathToFileURL(join(dir, file)).href)) as { default: Benchmark };
    for (const result of await module.default({ quick })) process.stdout.write(`${JSON.stringify(result)}\n`);
  } catch (error) {
    failed++;
    process.stderr.write(`bench ${file} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
