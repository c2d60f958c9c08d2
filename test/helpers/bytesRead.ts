/**
 * How much of its files this process has read: a measure of the work a store
 * query does that, unlike its duration, a busy machine does not change. Linux
 * only (/proc/self/io). Measure in a {@link readMeasuringTest}.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';

/** Bytes this process has read through read() and pread() so far (`rchar`: page-cache hits included). */
export function bytesRead(): number {
  return Number(/^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))![1]);
}

/**
 * A test that measures {@link bytesRead}: serial (ava runs serial tests before
 * the others of the file, so no other test reads meanwhile: a child's output
 * read from a pipe counts too) and only on Linux.
 */
export const readMeasuringTest = process.platform === 'linux' ? test.serial : test.skip;
