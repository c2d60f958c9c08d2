/**
 * A full garbage collection on demand, without `--expose-gc` on the command
 * line: benchmarks call it before each timed section so that one section's
 * garbage is not collected on the next one's clock.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
export const fullGc = runInNewContext('gc') as () => void;
