/**
 * What a session stored, checked before anything is restored or replayed
 * from it: a snapshot's mind state written by a newer program, or one that is
 * not a mind state, a session config that is not a valid config, and an
 * event whose body is not a JSON object (the file was damaged or edited), are
 * each a {@link StoreError} naming the file, the session and the snapshot or
 * event — never a raw ZodError or SyntaxError.
 */
import { MindState } from '../mind/mind.js';
import { StoreError } from '../sinks/storeError.js';
import type { EventRow, SessionRow, SnapshotRow } from '../sinks/storeSchema.js';
import { AgentConfig } from './config.js';
import type { AgentEvent } from './events.js';

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

/**
 * An event as stored: header columns plus the JSON body; a body that is not
 * a JSON object is a {@link StoreError} naming the event, and the columns win
 * over header fields an edited body holds.
 */
export function eventFromRow(row: EventRow): AgentEvent {
  let body: unknown;
  try {
    body = JSON.parse(row.body);
  } catch (error) {
    throw new StoreError(`store: event ${row.seq} of session ${row.session} is not JSON (${(error as Error).message}): the file was damaged or edited`, 'RECORDING');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    const got = body === null ? 'null' : Array.isArray(body) ? 'an array' : `a ${typeof body}`;
    throw new StoreError(`store: event ${row.seq} of session ${row.session} is not a JSON object (got ${got}): the file was damaged or edited`, 'RECORDING');
  }
  const header = { kind: row.kind, seq: row.seq, session: row.session, cycle: row.cycle, at: row.at };
  // The header first (the key order ooda run prints), then the body, then the header's values again.
  return { ...header, ...body, ...header } as AgentEvent;
}
