/**
 * An undo journal: the cheap snapshot behind per-signal rollback.
 *
 * Every mutation of the mind records how to undo itself. `checkpoint()` marks
 * the state as a signal enters; `rollback()` undoes everything since, restoring
 * exactly that state in O(changes) rather than copying the whole mind.
 */
export class Journal {
  private undo: (() => void)[] = [];
  private replaying = false;

  /** Marks the current state as the one `rollback()` returns to. */
  checkpoint(): void {
    this.undo.length = 0;
  }

  /** Records how to undo a mutation that has just been made. */
  record(undo: () => void): void {
    if (!this.replaying) this.undo.push(undo);
  }

  /** Undoes every mutation since the last checkpoint, newest first. */
  rollback(): number {
    const steps = this.undo.length;
    this.replaying = true;
    try {
      for (let i = steps - 1; i >= 0; i--) this.undo[i]!();
    } finally {
      this.replaying = false;
      this.undo.length = 0;
    }
    return steps;
  }

  get pending(): number {
    return this.undo.length;
  }
}
