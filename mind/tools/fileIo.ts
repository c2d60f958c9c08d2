/**
 * file_io (semantic, cautious): reads, writes and lists files inside the
 * workspace folder (`tools.workspace`, default `./workspace`, resolved against
 * the working directory). Any path that could leave it is refused before the
 * file system is touched for it: absolute paths, `..` segments, and symbolic
 * links anywhere along the path (a link could point outside). A file read
 * joins the library (library_search) and its text is the content goals are
 * checked against. Reads are capped at `tools.fileMaxBytes` (1 MiB).
 */
import { lstat, mkdir, readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { isAbsolute, join, resolve, sep } from 'node:path';
import { z } from 'zod';
import { filePath, quotedText } from '../goalText.js';
import { notRerun, ToolFailure, type Tool, type ToolContext, type ToolOutput } from '../tool.js';

const Input = z.object({
  op: z.enum(['read', 'write', 'list']),
  path: z.string().min(1, 'path is required'),
  content: z.string().optional(),
});

/** Checks a workspace-relative path and returns its absolute form; throws a ToolFailure naming the problem. */
export async function workspacePath(workspace: string, path: string): Promise<string> {
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
  if (target !== realRoot && !target.startsWith(realRoot + sep)) throw new ToolFailure('file_io', `refused "${path}": outside the workspace`);
  return target;
}

export const fileIo: Tool<z.infer<typeof Input>> = {
  name: 'file_io',
  description: 'Read, write or list files inside the workspace folder.',
  keywords: [
    'file', 'read', 'write', 'folder', 'directory', 'open', 'save', 'load', 'disk', 'path', 'document', 'text',
    'notes', 'workspace', 'list', 'contents', 'txt', 'json', 'csv', 'markdown',
  ],
  danger: 'cautious',
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

/** Runs one file operation; file-system errors (ENOENT, EISDIR, …) are turned into tool failures by the caller. */
async function fileOperation({ op, path, content }: z.infer<typeof Input>, { mind, config, now, replaying }: ToolContext): Promise<ToolOutput> {
  const target = await workspacePath(config.tools.workspace, path);
  if (op === 'list') {
    const entries = await readdir(target, { withFileTypes: true });
    const names = entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
    return { ok: true, summary: `${names.length} entr(ies) in ${path}: ${names.slice(0, 10).join(', ')}`, data: names };
  }
  if (op === 'write') {
    if (content === undefined) throw new ToolFailure('file_io', 'invalid input: content: required to write');
    if (replaying) throw notRerun('file_io', `write ${path}`);
    await mkdir(join(target, '..'), { recursive: true });
    await writeFile(target, content, 'utf8');
    return { ok: true, summary: `wrote ${Buffer.byteLength(content)} byte(s) to ${path}`, data: { path, bytes: Buffer.byteLength(content) } };
  }
  const info = await lstat(target);
  if (!info.isFile()) throw new ToolFailure('file_io', `${path} is not a file`);
  if (info.size > config.tools.fileMaxBytes) throw new ToolFailure('file_io', `${path} is ${info.size} bytes, over the ${config.tools.fileMaxBytes}-byte limit`);
  const text = await readFile(target, 'utf8');
  mind.library.add({ id: mind.id('doc'), source: `file:${path}`, text, at: now() });
  return { ok: true, summary: `read ${info.size} byte(s) from ${path}`, content: text, data: { path, bytes: info.size } };
}
