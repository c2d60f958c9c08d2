import test from 'ava';
import { ConfigError, MAX_TIMER_MS, resolveConfig } from '../streams/config.js';

const problem = (values: Record<string, unknown>): string => {
  try {
    resolveConfig([{ origin: 'config flags', values }]);
    return 'accepted';
  } catch (error) {
    return (error as ConfigError).message;
  }
};

for (const key of ['shellTimeoutMs', 'httpTimeoutMs', 'questionTimeoutMs']) {
  test(`tools.${key} is capped at the longest timer Node honours, like the other periods`, (t) => {
    t.is(resolveConfig([{ origin: 'config flags', values: { tools: { [key]: MAX_TIMER_MS } } }]).tools[key as 'shellTimeoutMs'], MAX_TIMER_MS);
    const tooLong = problem({ tools: { [key]: MAX_TIMER_MS + 1 } });
    t.is(tooLong, `config config flags: tools.${key}: Too big: expected number to be <=2147483647 (got 2147483648)`);
    t.is(tooLong.split(': ').slice(2).join(': '), problem({ heartbeatMs: MAX_TIMER_MS + 1 }).split(': ').slice(2).join(': '), 'the same message as heartbeatMs');
    t.regex(problem({ tools: { [key]: 0 } }), /Too small/);
  });
}
