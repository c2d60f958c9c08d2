/**
 * What a run makes of what its sources emit, item by item, and of a source
 * that fails. A source is the caller's Observable: whatever it emits, and
 * however it ends, the event stream goes on.
 *
 * - An `inputs` item that is not a stimulus (`null`, a number) is rejected,
 *   naming the source: `inputs[0] emitted null, not a stimulus ({ source,
 *   value } or { source, text })`.
 * - An `ambient` item is admitted as `agent.inject` admits a signal
 *   (streams/injection.ts), or rejected with inject's reason, prefixed with
 *   the source: `ambient[1]: invalid goal signal: description: …`.
 * - A `signals` item (trusted: a replayed recording) must at least have a
 *   signal's envelope: an object with a `type`, a `depth` and a `meta` object.
 * - A source that errors ends there, with a rejection naming it (`ambient[0]
 *   failed: sensor exploded; nothing more is taken from it`), as fromNdjson
 *   ends on a read error; the other sources go on.
 */
import { catchError, map, of, type Observable } from 'rxjs';
import { describeValue } from '../mind/describeValue.js';
import type { Entering } from './agentOptions.js';
import { admitInjected } from './injection.js';
import { isObject } from './isObject.js';
import { SIGNAL_TYPES, type Signal, type Stimulus } from './signals.js';

/** How a run takes a stimulus in (perceived) and a signal in (stamped), and the commands it has. */
export interface AdmissionSteps {
  perceive: (stimulus: Stimulus) => Entering;
  enter: (signal: Signal) => Entering;
  commands: ReadonlyMap<string, unknown>;
}

/** A run's sources, each labelled by its list and place (`inputs[0]`, `ambient[1]`), as what enters its passes. */
export class SourceAdmission {
  constructor(private readonly steps: AdmissionSteps) {}

  /** A source's problem (an item it should not have emitted, its failure) as a rejection naming it. */
  refused(label: string, problem: string): Entering {
    return this.steps.perceive({ source: label, problem });
  }

  inputs(list: readonly Observable<Stimulus>[] | undefined, name: 'inputs' | 'live' = 'inputs'): Observable<Entering>[] {
    return this.each(list, name, (item, label) => {
      const problem = stimulusProblem(item);
      return problem === undefined ? this.steps.perceive(item) : this.refused(label, `${label} emitted ${problem}`);
    });
  }

  signals(list: readonly Observable<Signal>[] | undefined): Observable<Entering>[] {
    return this.each(list, 'signals', (item, label) => {
      const problem = envelopeProblem(item);
      return problem === undefined ? this.steps.enter(item) : this.refused(label, `${label} emitted ${problem}`);
    });
  }

  ambient(list: readonly Observable<Signal>[] | undefined): Observable<Entering>[] {
    return this.each(list, 'ambient', (item, label) => {
      const admitted = admitInjected(item, this.steps.commands, label);
      return admitted.ok ? this.steps.enter(admitted.signal) : this.refused(label, `${label}: ${admitted.reason}`);
    });
  }

  private each<T>(list: readonly Observable<T>[] | undefined, name: string, admit: (item: T, label: string) => Entering): Observable<Entering>[] {
    return (list ?? []).map((source$, i) => {
      const label = `${name}[${i}]`;
      return sourceEntries(source$, label, (item) => admit(item, label), (problem) => this.refused(label, problem));
    });
  }
}

/** The items of one source as what enters a pass; a failure of the source as a last rejection naming it. */
export function sourceEntries<T, E>(source$: Observable<T>, label: string, admit: (item: T) => E, reject: (problem: string) => E): Observable<E> {
  return source$.pipe(
    map(admit),
    catchError((error: unknown) => of(reject(`${label} failed: ${error instanceof Error ? error.message : String(error)}; nothing more is taken from it`))),
  );
}

/** Why an `inputs` item is no stimulus (`null, not a stimulus …`), or undefined when it is one. */
export function stimulusProblem(item: unknown): string | undefined {
  if (isObject(item) && typeof item.source === 'string') return undefined;
  // A built signal (a heartbeat, a sensor) given as an input: it belongs in `ambient` (or `signals`).
  const signal = isObject(item) && typeof item.type === 'string' ? ` (a ${item.type} signal? signals go in ambient or signals, not inputs)` : '';
  return `${describeValue(item)}, not a stimulus ({ source, value } or { source, text })${signal}`;
}

/** Why a `signals` item (or a signal an `onEnter` hook marked) has no signal envelope (`null, not a signal …`) or no signal type, or undefined when it has both. */
export function envelopeProblem(item: unknown): string | undefined {
  if (!(isObject(item) && typeof item.type === 'string' && Number.isInteger(item.depth) && isObject(item.meta))) return `${describeValue(item)}, not a signal (an object with type, depth and meta)`;
  if (!SIGNAL_TYPES.has(item.type)) return `${describeValue(item)}, whose type ${JSON.stringify(item.type)} is no signal type (one of ${[...SIGNAL_TYPES].join(', ')})`;
  return undefined;
}
