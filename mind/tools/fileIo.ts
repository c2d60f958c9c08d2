/**
 * file_io (semantic, cautious; a write dangerous): reads, writes and lists files inside the
 * workspace folder (`tools.workspace`, default `./workspace`, resolved against
 * the working directory). Any path that could leave it is refused before the
 * file system is touched for it: absolute paths, `..` segments, and symbolic
 * links anywhere along the path (a link could point outside). The file is
 * then opened without following a link and must be a regular file with no
 * other hard link, which could be outside the workspace (a folder to list is
 * opened the same way, and read through what was opened). A file read
 * joins the library (library_search) and its text is the content goals are
 * checked against. Reads are capped at `tools.fileMaxBytes` (1 MiB).
 */
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { filePath, quotedText } from '../goalText.js';
import { ToolFailure, type Tool, type ToolContext, type ToolOutput } from '../tool.js';

const Input = z.object({
  op: z.enum(['read', 'write', 'list']),
  path: z.string().min(1, 'path is required'),
  content: z.string().optional(),
});

/** A checked path: the workspace's real location and the path's absolute form inside it. */
export interface WorkspaceTarget {
  root: string;
  target: string;
}

/** Checks a workspace-relative path and returns its absolute form; throws a ToolFailure naming the problem. */
export async function workspacePath(workspace: string, path: string): Promise<WorkspaceTarget> {
  if (isAbsolute(path) || /^[a-zA-Z]:/.test(path) || path.startsWith('\\')) throw new ToolFailure('file_io', `refused "${path}": absolute paths are not allowed; use a path inside the workspace`);
  const segments = path.split(/[\\/]+/).filter((s) => s.length > 0 && s !== '.');
  if (segments.includes('..')) throw new ToolFailure('file_io', `refused "${path}": ".." would leave the workspace`);
  const root = resolve(workspace);
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    throw new ToolFailure('file_io', `the workspace ${root} does not exist`);
  }
  let current = realRoot;
  for (const segment of segments) {
    current = join(current, segment);
    const info = await lstat(current).catch(() => undefined);
    if (!info) break;
    if (info.isSymbolicLink()) throw new ToolFailure('file_io', `refused "${path}": ${segment} is a symbolic link`);
  }
  const target = join(realRoot, ...segments);
  if (!inside(realRoot, target)) throw new ToolFailure('file_io', `refused "${path}": outside the workspace`);
  return { root: realRoot, target };
}

function inside(root: string, target: string): boolean {
  return target === root || target.startsWith(root + sep);
}

export const fileIo: Tool<z.infer<typeof Input>> = {
  name: 'file_io',
  description: 'Read, write or list files inside the workspace folder.',
  keywords: [
    'file', 'read', 'write', 'folder', 'directory', 'open', 'save', 'load', 'disk', 'path', 'document', 'text',
    'notes', 'workspace', 'list', 'contents', 'txt', 'json', 'csv', 'markdown',
  ],
  danger: 'cautious',
  // Seed 001's "Cautious/Danger": reading and listing are cautious, writing (which may overwrite a file) dangerous.
  dangerOf: (input) => ((input as { op?: unknown } | null)?.op === 'write' ? 'dangerous' : 'cautious'),
  capabilities: ['fs.read', 'fs.write'],
  input: Input,
  scoring: { kind: 'semantic', threshold: 0.55, multiplier: 0.75 },
  propose({ goal }) {
    const path = filePath(goal);
    if (!path) return { op: 'list', path: '.' };
    const content = quotedText(goal);
    return /\b(write|save|store|record)\b/i.test(goal.description) && content !== undefined ? { op: 'write', path, content } : { op: 'read', path };
  },
  async execute(input, ctx) {
    try {
      return await fileOperation(input, ctx);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (error instanceof ToolFailure || typeof code !== 'string') throw error;
      throw new ToolFailure('file_io', `${input.op} ${input.path} failed: ${code}`, { cause: error });
    }
  },
};

/**
 * Runs one file operation. Its file-system work is one recorded effect
 * (`ctx.effect`): a replay gets what the file system gave the run, and never
 * writes again. File-system errors (ENOENT, EISDIR, …) are turned into tool
 * failures by the caller.
 */
async function fileOperation({ op, path, content }: z.infer<typeof Input>, { mind, config, now, effect }: ToolContext): Promise<ToolOutput> {
  const { workspace, fileMaxBytes } = config.tools;
  if (op === 'list') {
    const names = await effect(`list ${path}`, async () => listFolder(await workspacePath(workspace, path), path), { repeatable: true });
    return { ok: true, summary: `${names.length} entr(ies) in ${path}: ${names.slice(0, 10).join(', ')}`, data: names };
  }
  if (op === 'write') {
    if (content === undefined) throw new ToolFailure('file_io', 'invalid input: content: required to write');
    const bytes = await effect(`write ${path}`, async () => writeFile(await workspacePath(workspace, path), path, content));
    return { ok: true, summary: `wrote ${bytes} byte(s) to ${path}`, data: { path, bytes } };
  }
  const read = await effect(`read ${path}`, async () => readFile(await workspacePath(workspace, path), path, fileMaxBytes), { repeatable: true });
  mind.library.add({ id: mind.id('doc'), source: `file:${path}`, text: read.text, at: now() });
  return { ok: true, summary: `read ${read.bytes} byte(s) from ${path}`, content: read.text, data: { path, bytes: read.bytes } };
}

/** Writes `content` to a checked path, creating missing folders inside the workspace; returns the bytes written. */
async function writeFile(checked: WorkspaceTarget, path: string, content: string): Promise<number> {
  const { target } = checked;
  const parent = await openParent(checked, path);
  try {
    if (!parent) await mkdir(join(target, '..'), { recursive: true });
    const inParent = parent ? { root: checked.root, target: join(ownPath(parent), basename(target)) } : checked;
    const file = await openFile(inParent, path, constants.O_WRONLY | constants.O_CREAT);
    try {
      await file.truncate(0);
      await file.writeFile(content, 'utf8');
    } finally {
      await file.close();
    }
  } finally {
    await parent?.close();
  }
  return Buffer.byteLength(content);
}

/** Reads a checked file of at most `maxBytes` as UTF-8 text. */
async function readFile(checked: WorkspaceTarget, path: string, maxBytes: number): Promise<{ text: string; bytes: number }> {
  const file = await openFile(checked, path, constants.O_RDONLY);
  let bytes: Buffer;
  try {
    const { size } = await file.stat();
    if (size > maxBytes) throw new ToolFailure('file_io', `${path} is ${size} bytes, over the ${maxBytes}-byte limit`);
    bytes = await readStart(file, size);
  } finally {
    await file.close();
  }
  return { text: bytes.toString('utf8'), bytes: bytes.length };
}

/**
 * The names in a checked folder (a folder's with a trailing `/`), sorted. The
 * folder is opened and checked as a file is ({@link openChecked}); where
 * Linux names the open folder (/proc/self/fd) it is read through that name,
 * so a folder on the path swapped for a link after the check is never
 * listed. Elsewhere the path is read again after the check.
 */
async function listFolder(checked: WorkspaceTarget, path: string): Promise<string[]> {
  const folder = await openChecked(checked, path, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0), 'folder');
  try {
    const own = ownPath(folder);
    const readable = await readlink(own).then(() => own, () => checked.target);
    const entries = await readdir(readable, { withFileTypes: true });
    return entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
  } finally {
    await folder.close();
  }
}

/**
 * The folder a checked path is in, opened and checked ({@link openChecked}),
 * creating the missing folders on the way one at a time, each inside the
 * folder opened before it and named through that one's /proc/self/fd link
 * (Linux): a folder on the path swapped for a link is never followed, so
 * nothing is created outside the workspace. Undefined where /proc/self/fd
 * is missing, and for the workspace itself (it is in no folder of it).
 */
async function openParent({ root, target }: WorkspaceTarget, path: string): Promise<FileHandle | undefined> {
  if (target === root) return undefined;
  const folders = relative(root, target).split(sep).slice(0, -1);
  const asFolder = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0);
  let folder = await openChecked({ root, target: root }, path, asFolder, 'folder');
  try {
    if ((await readlink(ownPath(folder)).catch(() => undefined)) === undefined) {
      await folder.close();
      return undefined;
    }
    for (const name of folders) {
      const next = join(ownPath(folder), name);
      await mkdir(next).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
      const opened = await openChecked({ root, target: next }, path, asFolder, 'folder');
      await folder.close();
      folder = opened;
    }
    return folder;
  } catch (error) {
    await folder.close();
    throw error;
  }
}

/** A regular file, opened and checked by {@link openChecked}. */
function openFile(checked: WorkspaceTarget, path: string, flags: number): Promise<FileHandle> {
  return openChecked(checked, path, flags, 'file');
}

/**
 * Opens a checked path, refusing anything but a regular file (or, for
 * `folder`, a folder). The checks are made on what was opened, not on the
 * path before: a symbolic link put in place after {@link workspacePath}
 * looked is not followed (O_NOFOLLOW), a FIFO or device never blocks the open
 * (O_NONBLOCK) and is refused, and what was opened must be what the path
 * leads to now, inside the workspace (a folder on the path swapped for a link
 * while opening is caught here). A file with more than one hard link is
 * refused too: the same file may be reached from outside the workspace, and
 * a write would change it there.
 */
async function openChecked({ root, target }: WorkspaceTarget, path: string, flags: number, kind: 'file' | 'folder'): Promise<FileHandle> {
  let file: FileHandle;
  try {
    file = await open(target, flags | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0), 0o666);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new ToolFailure('file_io', `refused "${path}": it is a symbolic link`, { cause: error });
    if ((error as NodeJS.ErrnoException).code === 'ENXIO') throw new ToolFailure('file_io', `${path} is not a ${kind}`, { cause: error });
    throw error;
  }
  try {
    const opened = await file.stat();
    if (!(kind === 'file' ? opened.isFile() : opened.isDirectory())) throw new ToolFailure('file_io', `${path} is not a ${kind}`);
    if (kind === 'file' && opened.nlink > 1) throw new ToolFailure('file_io', `refused "${path}": it has ${opened.nlink} hard links, and another of them may be outside the workspace`);
    if (!(await openedInside(file, root, target, opened))) throw new ToolFailure('file_io', `refused "${path}": the path changed while the ${kind} was opened (a symbolic link on the way)`);
    return file;
  } catch (error) {
    await file.close();
    throw error;
  }
}

/** The name Linux gives an open file's own path (a link to it in /proc/self/fd). */
function ownPath(file: FileHandle): string {
  return `/proc/self/fd/${file.fd}`;
}

/**
 * Whether the opened file is inside the workspace. Where the system names an
 * open file's own path (Linux: /proc/self/fd), that path decides. Elsewhere
 * the path's real location now must be inside and be the opened file (same
 * device and inode); looking the path up again leaves a window in which a
 * folder on it, swapped back and forth, passes both lookups.
 */
async function openedInside(file: FileHandle, root: string, target: string, opened: { dev: number; ino: number }): Promise<boolean> {
  const own = await readlink(ownPath(file)).catch(() => undefined);
  if (own !== undefined) return isAbsolute(own) && inside(root, own);
  const real = await realpath(target).catch(() => undefined);
  const there = real !== undefined && inside(root, real) ? await stat(real).catch(() => undefined) : undefined;
  return there?.dev === opened.dev && there.ino === opened.ino;
}

/** The file's first `size` bytes (fewer if it is shorter now): never more, however much it has grown. */
async function readStart(file: FileHandle, size: number): Promise<Buffer> {
  const buffer = Buffer.alloc(size);
  let filled = 0;
  while (filled < size) {
    const { bytesRead } = await file.read(buffer, filled, size - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}
