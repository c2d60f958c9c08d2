/**
 * ingest: lines/s of an NDJSON file through `fromNdjson` + `perceive`, beside
 * readline + JSON.parse + zod safeParse alone on the same file in the same run.
 * Target: ratio ≥ 0.8. Full: 1M lines; --quick: 100k lines.
 */
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { Mind } from '../dist/mind/mind.js';
import { perceive } from '../dist/operators/perceive.js';
import { fromNdjson } from '../dist/sources/ndjson.js';
import { ExternalSignal } from '../dist/streams/signals.js';
import type { BenchResult } from './run.js';

function writeFile(lines: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-ingest-'));
  const file = join(dir, 'signals.ndjson');
  const parts: string[] = [];
  for (let i = 0; i < lines; i++) {
    parts.push(
      i % 3 === 0
        ? `{"type":"fact","subject":"body${i}","predicate":"orbits","object":"star${i % 97}"}`
        : i % 3 === 1
          ? `{"type":"input","text":"observation number ${i} about the sky"}`
          : `{"type":"sensor","sensor":"temp","value":${i % 50}}`,
    );
  }
  writeFileSync(file, `${parts.join('\n')}\n`);
  return file;
}

async function baseline(file: string): Promise<number> {
  let ok = 0;
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) {
    if (ExternalSignal.safeParse(JSON.parse(line)).success) ok++;
  }
  return ok;
}

function throughAgent(file: string): Promise<number> {
  const runtime = { now: () => 0, mind: new Mind() };
  let ok = 0;
  return new Promise((resolve) =>
    fromNdjson(createReadStream(file))
      .pipe(perceive(runtime))
      .subscribe({ next: (p) => void (p.ok && ok++), complete: () => resolve(ok) }),
  );
}

async function rate(run: () => Promise<number>, lines: number): Promise<number> {
  const start = performance.now();
  const ok = await run();
  if (ok !== lines) throw new Error(`expected ${lines} valid lines, got ${ok}`);
  return lines / ((performance.now() - start) / 1000);
}

export default async function ingest({ quick }: { quick: boolean }): Promise<BenchResult[]> {
  const lines = quick ? 100_000 : 1_000_000;
  const file = writeFile(lines);
  try {
    const ours: number[] = [];
    const base: number[] = [];
    for (let round = 0; round < 3; round++) {
      base.push(await rate(() => baseline(file), lines));
      ours.push(await rate(() => throughAgent(file), lines));
    }
    const best = (xs: number[]) => Math.max(...xs);
    return [
      { bench: 'ingest', value: Math.round(best(ours)), unit: 'lines/s', lines, baseline: Math.round(best(base)), ratio: +(best(ours) / best(base)).toFixed(3), target: 'ratio >= 0.8' },
    ];
  } finally {
    rmSync(join(file, '..'), { recursive: true, force: true });
  }
}
