/**
 * Skills (seed 004): small pieces of judgement that run before act.
 *
 * A skill has a name, a priority (a finite number, default 10), a `trigger(ctx)` saying
 * whether it applies to this pass, an optional `propose(ctx)` that proposes
 * the input for the decided tool, and an optional `verify(action, ctx)` that
 * approves the action, replaces its input, or rejects it with a reason.
 *
 * Triggered skills run in descending priority (registration order among
 * equals): the highest-priority proposal wins, then every verifier sees the
 * action as the verifiers before it left it, until one rejects. A skill that
 * throws is isolated: the error is reported and the other skills carry on.
 * So is one that proposes or substitutes an input that is not JSON (a
 * BigInt, a circular structure): the input is left as it was. An input a
 * skill gives is taken as a frozen copy (mind/jsonCopy.ts).
 */
import { describeValue, showValue } from './describeValue.js';
import type { Goal } from './goals.js';
import { jsonCopy } from './jsonCopy.js';
import { isObjectLiteral } from './objectLiteral.js';
import { isPromiseMisuse, promiseMisuseMessage } from './promiseMisuse.js';
import type { Mind } from './mind.js';

/** The action a skill sees: the decided tool and its input. */
export interface ProposedAction {
  readonly goalId: string;
  readonly tool: string;
  readonly input: unknown;
}

/** What a skill sees of the pass. */
export interface SkillContext {
  readonly mind: Mind;
  readonly goal: Goal;
  /** The signal the pass is handling (type, depth and the rest of its fields). */
  readonly signal: { readonly type: string; readonly depth: number };
  readonly action: ProposedAction;
  /** Scheduler time in ms. */
  now(): number;
}

export type Verdict =
  | { verdict: 'approve' }
  | { verdict: 'replace'; input: unknown; reason: string }
  | { verdict: 'reject'; reason: string };

export interface Skill {
  readonly name: string;
  /** Higher runs first. Default 10. */
  readonly priority?: number;
  trigger(ctx: SkillContext): boolean;
  /** An input for the decided tool, or undefined to leave it. */
  propose?(ctx: SkillContext): unknown;
  /** Synchronous: a verdict, never a promise (a promise is reported as an error and the action goes on unverified by it). */
  verify?(action: ProposedAction, ctx: SkillContext): Verdict;
}

export const DEFAULT_SKILL_PRIORITY = 10;

/** The keys a skill takes. */
const SKILL_KEYS: readonly string[] = ['name', 'priority', 'trigger', 'propose', 'verify'] satisfies (keyof Skill)[];

/** The outcome of running the skills over one action. */
export interface SkillReview {
  /** The action after proposals and replacements. */
  action: ProposedAction;
  /** Input changes, in order, with the skill that made them. */
  changes: { skill: string; kind: 'propose' | 'replace'; reason: string }[];
  rejected?: { skill: string; reason: string };
  /** Skills that threw, isolated. */
  errors: { skill: string; phase: 'trigger' | 'propose' | 'verify'; message: string }[];
}

export class SkillRegistry {
  private readonly skills: Skill[] = [];
  /** The skills in the order they run, kept until the registry changes. */
  private ordered: Skill[] | undefined;

  constructor(skills: Iterable<Skill> = []) {
    for (const skill of skills) this.register(skill);
  }

  /**
   * Adds a skill; a second skill with the same name is an error, and so is a
   * definition that is not one: a name that is no non-empty string, a
   * `propose` or `verify` that is no function, or (in an object literal) a key
   * a skill does not take, such as a misspelt `verfy`, which would never verify.
   */
  register(skill: Skill): this {
    if (typeof skill.name !== 'string' || skill.name.trim() === '') throw new Error(`a skill needs a name (a non-empty string, got ${describeValue(skill.name)})`);
    if (this.skills.some((s) => s.name === skill.name)) throw new Error(`skill "${skill.name}" is already registered`);
    if (typeof skill.trigger !== 'function') throw new Error(`skill "${skill.name}" needs a trigger(ctx) function`);
    if (skill.priority !== undefined && !Number.isFinite(skill.priority)) {
      throw new Error(`skill "${skill.name}": priority must be a finite number (got ${describeValue(skill.priority)})`);
    }
    for (const hook of ['propose', 'verify'] as const) {
      if (skill[hook] !== undefined && typeof skill[hook] !== 'function') throw new Error(`skill "${skill.name}": ${hook} must be a function (got ${describeValue(skill[hook])})`);
    }
    const unknown = isObjectLiteral(skill) ? Object.keys(skill).filter((key) => !SKILL_KEYS.includes(key)) : [];
    if (unknown.length > 0) {
      throw new Error(`skill "${skill.name}": unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => JSON.stringify(key)).join(', ')} (a skill takes ${SKILL_KEYS.join(', ')})`);
    }
    this.skills.push(skill);
    this.ordered = undefined;
    return this;
  }

  /** Removes a skill by name; returns whether it was registered. */
  unregister(name: string): boolean {
    const index = this.skills.findIndex((s) => s.name === name);
    if (index >= 0) this.skills.splice(index, 1);
    this.ordered = undefined;
    return index >= 0;
  }

  /** The skills, highest priority first (registration order among equals). */
  list(): Skill[] {
    return [...this.inOrder()];
  }

  private inOrder(): readonly Skill[] {
    this.ordered ??= this.skills
      .map((skill, i) => ({ skill, i }))
      .sort((a, b) => priorityOf(b.skill) - priorityOf(a.skill) || a.i - b.i)
      .map((x) => x.skill);
    return this.ordered;
  }

  get size(): number {
    return this.skills.length;
  }

  /** Runs the triggered skills' proposals and verifiers over the action. */
  review(ctx: Omit<SkillContext, 'action'>, action: ProposedAction): SkillReview {
    const review: SkillReview = { action, changes: [], errors: [] };
    // One context per version of the action (skills may replace its input).
    let context: SkillContext = { ...ctx, action };
    const contextFor = (): SkillContext => (context.action === review.action ? context : (context = { ...ctx, action: review.action }));
    const guarded = <T>(skill: Skill, phase: 'trigger' | 'propose' | 'verify', run: () => T): { ok: true; value: T } | { ok: false } => {
      try {
        return { ok: true, value: run() };
      } catch (error) {
        review.errors.push({ skill: skill.name, phase, message: error instanceof Error ? error.message : String(error) });
        return { ok: false };
      }
    };
    const triggered = this.inOrder().filter((skill) => {
      const fired = guarded(skill, 'trigger', () => skill.trigger(contextFor()));
      if (!fired.ok || typeof fired.value === 'boolean') return fired.ok && fired.value;
      const message = isPromiseMisuse(fired.value) ? promiseMisuseMessage('trigger', 'true or false') : `trigger returned ${showValue(fired.value)}, not true or false`;
      review.errors.push({ skill: skill.name, phase: 'trigger', message });
      return false;
    });
    for (const skill of triggered) {
      if (!skill.propose) continue;
      const proposed = guarded(skill, 'propose', () => skill.propose!(contextFor()));
      if (proposed.ok && isPromiseMisuse(proposed.value)) {
        review.errors.push({ skill: skill.name, phase: 'propose', message: promiseMisuseMessage('propose', 'the input (or undefined)') });
        continue;
      }
      if (!proposed.ok || proposed.value === undefined) continue;
      const json = jsonCopy(proposed.value, true);
      if ('problem' in json) {
        review.errors.push({ skill: skill.name, phase: 'propose', message: `${INPUT_MUST_BE_JSON}${json.problem}; the input is left as it was` });
        continue;
      }
      review.action = { ...review.action, input: json.copy };
      review.changes.push({ skill: skill.name, kind: 'propose', reason: 'proposed the input' });
      break;
    }
    for (const skill of triggered) {
      if (!skill.verify) continue;
      const verdict = guarded(skill, 'verify', () => skill.verify!(review.action, contextFor()));
      if (!verdict.ok) continue;
      const v = verdict.value;
      if (v?.verdict === 'reject') {
        review.rejected = { skill: skill.name, reason: reasonOf(v) };
        break;
      }
      if (v?.verdict === 'replace') {
        const json = jsonCopy(v.input, true);
        if ('problem' in json) {
          review.errors.push({ skill: skill.name, phase: 'verify', message: `${INPUT_MUST_BE_JSON}${json.problem}; the input is left as it was` });
        } else {
          review.action = { ...review.action, input: json.copy };
          review.changes.push({ skill: skill.name, kind: 'replace', reason: reasonOf(v) });
        }
      } else if (v?.verdict !== 'approve') {
        review.errors.push({ skill: skill.name, phase: 'verify', message: notAVerdict(v) });
      }
    }
    return review;
  }
}

const INPUT_MUST_BE_JSON = 'the input must be JSON (it is recorded in the decision event and the store), but ';

/** Why a verify result is not a verdict; a promise (an async verify) is said to be one, and its outcome ignored. */
function notAVerdict(value: unknown): string {
  if (isPromiseMisuse(value)) return promiseMisuseMessage('verify', 'its verdict (approve, replace or reject)');
  return `verify returned ${showValue(value)}, not a verdict (approve, replace or reject)`;
}

/** A verdict's reason; one that gives none (or no text) still counts, said to give none. */
function reasonOf(verdict: { reason: string }): string {
  return typeof verdict.reason === 'string' && verdict.reason.trim() !== '' ? verdict.reason : 'no reason given';
}

function priorityOf(skill: Skill): number {
  return skill.priority ?? DEFAULT_SKILL_PRIORITY;
}
