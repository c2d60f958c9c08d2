// The agent's clock as the page knows it. Events carry the agent's scheduler
// time (`at`), which need not read what the browser's clock does (another
// machine, a clock set apart, a test's virtual time): the page takes the
// latest `at` it was sent and advances it by the time the page has run since
// that event came (the agent's clock runs at the pace of real time, as the
// default scheduler's does). Events are stamped as their pass starts and take
// a while to arrive, so this reads at most the agent's own time, never ahead.

let latestAt = null;
let seenAt = 0;

/** Takes an event's scheduler time (`at`) as the agent's latest known time, if it is later. */
export function noteAgentTime(at) {
  if (typeof at !== 'number' || (latestAt !== null && at <= latestAt)) return;
  latestAt = at;
  seenAt = performance.now();
}

/** Forgets the agent's time: a new connection may be to another agent, on another clock. */
export function forgetAgentTime() {
  latestAt = null;
}

/** The agent's time now, as far as the page can tell; -Infinity before any event said. */
export function agentNow() {
  return latestAt === null ? -Infinity : latestAt + (performance.now() - seenAt);
}
