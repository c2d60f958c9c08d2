/**
 * fromWebSocket: signals sent by WebSocket clients → stimuli for perceive.
 * The server has already checked the control token; here each signal is
 * validated by the same path as a line on stdin (streams/validateSignal.ts)
 * and restricted to goal, fact, input and command (one of the agent's, given
 * `commands`), so the client gets an ack or an error naming the problem at
 * once. Accepted signals are emitted with
 * `source` = the client's id (`ws-3`). It never completes by itself: the run
 * that reads it stays alive (`keepAlive`) until it is stopped; unsubscribing
 * stops routing signals here (clients then get "not accepting signals").
 * While `hold` says the run is held (a saturated store or stdout), a valid signal is
 * refused in its ack instead of queued, as stdin is paused meanwhile; the
 * `stop` and `pause` commands are still taken, so a dashboard can end or
 * pause a run whose disk is failing.
 *
 *   client frames:    --g---x---c--     (x: an invalid fact)
 *   fromWebSocket():  --g-------c--     (x answered with an error, never emitted)
 */
import { Observable } from 'rxjs';
import type { Stimulus } from '../streams/signals.js';
import { unknownCommand, validateSignal } from '../streams/validateSignal.js';
import { WS_SIGNAL_TYPES, type SignalChannel } from '../streams/wsProtocol.js';

export interface WebSocketInputOptions {
  /** The agent's commands (`agent.runtime.commands`): a command signal naming another is refused in its ack. Default: any name is acked, and perceive rejects an unknown one later. */
  commands?: ReadonlyMap<string, unknown>;
  /** Backpressure (`AgentSources.hold`): while its latest value is true, signals are refused, so a client cannot grow what waits to be written. */
  hold?: Observable<boolean>;
}

/** The ack of a signal refused while the run is held. */
export const HELD_ERROR = 'not accepted now: the store or the reader of stdout is not keeping up with what the agent records (stdin is paused too); send it again later';

/** Commands taken even while the run is held: they lower the load instead of adding to it. */
const TAKEN_WHILE_HELD: ReadonlySet<string> = new Set(['stop', 'pause']);

export function fromWebSocket(channel: SignalChannel, options: WebSocketInputOptions = {}): Observable<Stimulus> {
  return new Observable<Stimulus>((subscriber) => {
    let held = false;
    const holding = options.hold?.subscribe((value) => (held = value));
    const routing = channel.onSignal((request) => {
      const validated = validateSignal(request.signal, { types: WS_SIGNAL_TYPES, name: 'over WebSocket' });
      if (!validated.ok) return { ok: false, error: validated.reason };
      const type = validated.signal.type;
      const unknown = options.commands ? unknownCommand(validated.signal, options.commands) : null;
      if (unknown) return { ok: false, error: unknown };
      if (held && !(validated.signal.type === 'command' && TAKEN_WHILE_HELD.has(validated.signal.command))) return { ok: false, error: HELD_ERROR };
      subscriber.next({ source: request.client, value: request.signal });
      return { ok: true, signal: type };
    });
    return () => {
      holding?.unsubscribe();
      routing();
    };
  });
}
