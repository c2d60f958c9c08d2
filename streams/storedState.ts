/**
 * What a session stored, checked before anything is restored or replayed
 * from it: a snapshot's mind state written by a newer program, or one that is
 * not a mind state, and a session config that is not a valid config (the file
 * was damaged or edited), are each a {@link StoreError} naming the file, the
 * session and the snapshot — never a raw ZodError or SyntaxError.
 */
import { MindState } from '../mind/mind.js';
import { StoreError } from '../sinks/storeError.js';
import type { SessionRow, SnapshotRow } from '../sinks/storeSchema.js';
import { AgentConfig } from './config.js';

/** The mind-state version this program writes and reads. */
const STATE_VERSION = MindState.shape.version.value;

/** The snapshot's state, validated; `file` names the store in messages. The row's state is JSON (`SqliteStore.snapshot` checks that). */
export function storedMindState(file: string, snapshot: SnapshotRow): MindState {
  const where = `store: ${file}: snapshot ${snapshot.id} of session ${snapshot.session}`;
  const json: unknown = JSON.parse(snapshot.state);
  const version = (json as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > STATE_VERSION) {
    throw new StoreError(`${where} holds a mind state of version ${version}, newer than this program's ${STATE_VERSION}: upgrade ooda-rx`, 'SNAPSHOT');
  }
  const parsed = MindState.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new StoreError(
      `${where} is not a valid mind state (${issue.path.join('.') || 'state'}: ${issue.message}): the file was damaged or edited; restore it from a backup, or start a new mind with --fresh`,
      'SNAPSHOT',
    );
  }
  return parsed.data;
}

/** The session's stored config, validated; `file` names the store in messages. */
export function storedConfig(file: string, session: SessionRow): AgentConfig {
  const where = `store: ${file}: session ${session.id}`;
  let json: unknown;
  try {
    json = JSON.parse(session.config);
  } catch {
    throw new StoreError(`${where} has a config that is not JSON: the file was damaged or edited`, 'SESSION');
  }
  const parsed = AgentConfig.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new StoreError(`${where} has an invalid config (${issue.path.join('.') || 'config'}: ${issue.message}): the file was damaged or edited`, 'SESSION');
  }
  return parsed.data;
}
