import test from 'ava';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { link, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MindConfig } from '../mind/config.js';
import { Mind } from '../mind/mind.js';
import { ToolFailure, type ToolOutput } from '../mind/tool.js';
import { builtinTools } from '../mind/tools/index.js';
import { runTool } from '../mind/toolRun.js';
import type { Decision } from '../mind/toolSelection.js';
import { contextFor } from './mindFixtures.js';

/** A workspace inside a fresh folder, a secret file next to it (outside), and file_io run the way act runs it. */
async function setUp(): Promise<{ root: string; workspace: string; secret: string; fileIo: (input: unknown) => Promise<ToolOutput> }> {
  const root = await mkdtemp(join(tmpdir(), 'ooda-fileio-'));
  const workspace = join(root, 'ws');
  await mkdir(workspace);
  const secret = join(root, 'secret.txt');
  await writeFile(secret, 'secret');
  const mind = new Mind({ config: MindConfig.parse({ tools: { workspace } }), tools: builtinTools() });
  const goal = mind.addGoal({ description: 'use a file' });
  const fileIo = (input: unknown): Promise<ToolOutput> => Promise.resolve().then(() => runTool({ goalId: goal.id, tool: 'file_io', input } as Decision, contextFor(mind, goal)));
  return { root, workspace, secret, fileIo };
}

/** Reads `readPath` and writes `overwritten` to `writePath` 1,000 times; resolves with every distinct text (or error) a read gave. */
async function readAndWrite(fileIo: (input: unknown) => Promise<ToolOutput>, readPath: string, writePath: string): Promise<Set<string>> {
  const seen = new Set<string>();
  for (let i = 0; i < 1000; i++) {
    seen.add(await fileIo({ op: 'read', path: readPath }).then((out) => out.content!, (error: Error) => error.message));
    await fileIo({ op: 'write', path: writePath, content: 'overwritten' }).catch(() => undefined);
  }
  return seen;
}

/** Moves the workspace's folder sub aside and puts a symbolic link to `outside` in its place, and back, until killed (at most 60 s). */
function swapFolder(t: { teardown(fn: () => void): void }, workspace: string, outside: string): ChildProcess {
  const swapper = spawn(process.execPath, ['-e', `
    const fs = require('node:fs');
    const until = Date.now() + 60000;
    while (Date.now() < until) {
      fs.renameSync('sub', 'sub.real');
      fs.symlinkSync(${JSON.stringify(outside)}, 'sub');
      fs.unlinkSync('sub');
      fs.renameSync('sub.real', 'sub');
    }`], { cwd: workspace, stdio: 'ignore' });
  t.teardown(() => swapper.kill('SIGKILL'));
  return swapper;
}

test('file_io: writing to a FIFO in the workspace is refused at once; it blocked with no reader', async (t) => {
  const { workspace, fileIo } = await setUp();
  const fifo = join(workspace, 'pipe');
  if (spawnSync('mkfifo', [fifo]).status !== 0) return t.pass('no mkfifo here');
  // Opening the FIFO for reading releases a writer that is stuck in open() (as it was before this was fixed).
  t.teardown(() => closeSync(openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK)));
  const error = await t.throwsAsync(fileIo({ op: 'write', path: 'pipe', content: 'x' }), { instanceOf: ToolFailure });
  t.is(error!.message, 'file_io: pipe is not a file');
  const read = await t.throwsAsync(fileIo({ op: 'read', path: 'pipe' }), { instanceOf: ToolFailure });
  t.is(read!.message, 'file_io: pipe is not a file');
});

test('file_io: a file swapped for a symbolic link to a file outside, again and again while it is read and written, is never followed', async (t) => {
  t.timeout(120_000);
  const { workspace, secret, fileIo } = await setUp();
  await writeFile(join(workspace, 'doc.txt'), 'inside');
  await writeFile(join(workspace, 'out.txt'), 'inside');
  // Replaces doc.txt and out.txt, atomically (rename), by a symbolic link to the secret and back, until stopped (at most 60 s).
  const swapper = spawn(process.execPath, ['-e', `
    const fs = require('node:fs');
    const until = Date.now() + 60000;
    for (let i = 0; Date.now() < until; i++) for (const name of ['doc.txt', 'out.txt']) {
      const tmp = name + '.tmp';
      if (i % 2) fs.symlinkSync(${JSON.stringify(secret)}, tmp); else fs.writeFileSync(tmp, 'inside');
      fs.renameSync(tmp, name);
    }`], { cwd: workspace, stdio: 'ignore' });
  t.teardown(() => swapper.kill('SIGKILL'));
  const seen = await readAndWrite(fileIo, 'doc.txt', 'out.txt');
  swapper.kill('SIGKILL');
  t.false(seen.has('secret'), 'the secret outside the workspace was never read');
  t.is(await readFile(secret, 'utf8'), 'secret', 'the secret outside the workspace was never written');
  t.true(seen.has('inside'), 'reads did succeed while the file was a file');
});

test('file_io: a folder on the path swapped for a symbolic link to a folder outside, again and again while files in it are read and written, is never followed', async (t) => {
  t.timeout(120_000);
  const { root, workspace, fileIo } = await setUp();
  const outside = join(root, 'outside');
  await mkdir(outside);
  await writeFile(join(outside, 'doc.txt'), 'secret');
  await writeFile(join(outside, 'out.txt'), 'secret');
  await mkdir(join(workspace, 'sub'));
  await writeFile(join(workspace, 'sub', 'doc.txt'), 'inside');
  const swapper = swapFolder(t, workspace, outside);
  const seen = await readAndWrite(fileIo, 'sub/doc.txt', 'sub/out.txt');
  swapper.kill('SIGKILL');
  t.false(seen.has('secret'), 'the secret outside the workspace was never read');
  t.is(await readFile(join(outside, 'out.txt'), 'utf8'), 'secret', 'the file outside the workspace was never written');
  t.true(seen.has('inside'), 'reads did succeed while the folder was a folder');
});

test('file_io: a folder swapped for a symbolic link to a folder outside, again and again while it is listed, never lists the names outside', async (t) => {
  t.timeout(120_000);
  const { root, workspace, fileIo } = await setUp();
  const outside = join(root, 'outside');
  await mkdir(outside);
  await writeFile(join(outside, 'secret-name.txt'), 'secret');
  await mkdir(join(workspace, 'sub'));
  await writeFile(join(workspace, 'sub', 'inside.txt'), 'inside');
  const swapper = swapFolder(t, workspace, outside);
  const seen = new Set<string>();
  // 5,000 lists at most (before the fix, one of 2,000 listed the outside folder in 4 runs of 5); the first that does ends the loop.
  for (let i = 0; i < 5000 && ![...seen].some((listed) => listed.includes('secret-name')); i++) {
    seen.add(await fileIo({ op: 'list', path: 'sub' }).then((out) => (out.data as string[]).join(','), (error: Error) => error.message));
  }
  swapper.kill('SIGKILL');
  t.false([...seen].some((listed) => listed.includes('secret-name')), 'the folder outside the workspace was never listed');
  t.true(seen.has('inside.txt'), 'lists did succeed while the folder was a folder');
});

test('file_io: a folder swapped for a symbolic link to a folder outside, again and again while new files and folders under it are written, never creates a file or folder outside', async (t) => {
  t.timeout(120_000);
  const { root, workspace, fileIo } = await setUp();
  const outside = join(root, 'outside');
  await mkdir(outside);
  await mkdir(join(workspace, 'sub'));
  const swapper = swapFolder(t, workspace, outside);
  let written = 0;
  // 3,000 writes at most; the first folder created outside ends the loop.
  for (let i = 0; i < 3000 && (await readdir(outside)).length === 0; i++) {
    const path = i % 2 ? `sub/new${i}/notes.txt` : `sub/file${i}.txt`;
    await fileIo({ op: 'write', path, content: 'inside' }).then(() => written++, () => undefined);
  }
  swapper.kill('SIGKILL');
  t.deepEqual(await readdir(outside), [], 'nothing was created outside the workspace');
  t.true(written > 0, 'writes did succeed while the folder was a folder');
});

test('file_io: a file hard-linked to a file outside the workspace is neither read nor written', async (t) => {
  const { workspace, secret, fileIo } = await setUp();
  await link(secret, join(workspace, 'notes.txt'));
  const read = await t.throwsAsync(fileIo({ op: 'read', path: 'notes.txt' }), { instanceOf: ToolFailure });
  t.is(read!.message, 'file_io: refused "notes.txt": it has 2 hard links, and another of them may be outside the workspace');
  await t.throwsAsync(fileIo({ op: 'write', path: 'notes.txt', content: 'overwritten' }), { instanceOf: ToolFailure, message: /2 hard links/ });
  t.is(await readFile(secret, 'utf8'), 'secret', 'the file outside is unchanged');
  // A file of the workspace's own, with one link, is still read and written.
  await fileIo({ op: 'write', path: 'own.txt', content: 'mine' });
  t.is((await fileIo({ op: 'read', path: 'own.txt' })).content, 'mine');
});
