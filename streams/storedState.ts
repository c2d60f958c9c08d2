/**
 * A stored snapshot's mind state, checked before anything is restored from it
 * or reported as resumed: a state written by a newer program, or one that is
 * not a mind state (the file was damaged or edited), is a {@link StoreError}
 * naming the file, the session and the snapshot — never a raw ZodError.
 */
import { MindState } from '../mind/mind.js';
import { StoreError } from '../sinks/storeError.js';
import type { SnapshotRow } from '../sinks/storeSchema.js';

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
