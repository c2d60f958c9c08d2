/**
 * Pending questions: what user_interact asked and is waiting for. A mind
 * extension (`questions`), so it is journaled, serialised with the mind and
 * restored with it. Nothing here waits: a question is answered by a later
 * `input` signal, or expires when a later signal arrives after its deadline
 * (scheduler time), which keeps the serialized pipeline free and runs
 * deterministic on virtual time.
 */
import { z } from 'zod';
import { issueMessage } from './issueMessage.js';
import type { Journal } from './journal.js';
import type { MindExtension } from './mind.js';

export const PendingQuestion = z.object({
  id: z.string(),
  goalId: z.string(),
  text: z.string(),
  /** Scheduler time the question was asked at. */
  askedAt: z.number(),
  timeoutMs: z.number().int().positive(),
});
export type PendingQuestion = z.infer<typeof PendingQuestion>;

const State = z.array(PendingQuestion);

export class PendingQuestions implements MindExtension {
  readonly name = 'questions';
  private pending: PendingQuestion[] = [];

  constructor(private readonly journal: Journal) {}

  get size(): number {
    return this.pending.length;
  }

  /** Pending questions, oldest first. */
  all(): readonly PendingQuestion[] {
    return this.pending;
  }

  /** Whether a question asked for this goal is still pending. */
  waitingFor(goalId: string): boolean {
    return this.pending.some((q) => q.goalId === goalId);
  }

  /**
   * Registers a question. One the saved state could not hold (no id, a
   * timeout that is no whole number > 0) throws a TypeError naming the field:
   * a tool asking through `ctx.mind.questions.ask` made every later snapshot
   * one no resume could load.
   */
  ask(question: PendingQuestion): void {
    const checked = PendingQuestion.safeParse(question, { error: issueMessage });
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      throw new TypeError(`question: ${issue.path.join('.') || 'the question'}: ${issue.message}`);
    }
    const before = this.pending;
    this.pending = [...before, { ...question }];
    this.journal.record(() => {
      this.pending = before;
    });
  }

  /**
   * Removes and returns the question an answer is for: the one named by
   * `replyTo`, or the oldest when `replyTo` is absent. Undefined when there is
   * no such question.
   */
  take(replyTo?: string): PendingQuestion | undefined {
    const question = replyTo === undefined ? this.pending[0] : this.pending.find((q) => q.id === replyTo);
    if (question) this.drop([question]);
    return question;
  }

  /** Removes and returns the questions whose deadline is at or before `now`. */
  expire(now: number): PendingQuestion[] {
    const overdue = this.pending.filter((q) => q.askedAt + q.timeoutMs <= now);
    if (overdue.length > 0) this.drop(overdue);
    return overdue;
  }

  toJSON(): PendingQuestion[] {
    return this.pending.map((q) => ({ ...q }));
  }

  load(json: unknown): void {
    this.pending = State.parse(json).map((q) => ({ ...q }));
  }

  private drop(questions: readonly PendingQuestion[]): void {
    const before = this.pending;
    this.pending = before.filter((q) => !questions.includes(q));
    this.journal.record(() => {
      this.pending = before;
    });
  }
}
