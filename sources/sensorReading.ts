/**
 * What a sensor's `read()` returned, as the value of its `sensor` signal: the
 * reading itself when the signal contract allows it (a finite number, a
 * string, a boolean or a plain object JSON can write), else `{ error }`
 * saying what came instead, as for a read that throws. So an `undefined`,
 * NaN, an array, a promise (an `async` read), a cyclic object, one nested
 * more than 100 levels deep (mind/jsonNesting.ts) or one holding NaN or
 * Infinity (mind/finiteNumbers.ts: JSON would write it as null) is visible
 * on the sensor's event, never a missing `value`, a `{}` or a critical error
 * on every reading.
 */
import { describeValue } from '../mind/describeValue.js';
import { nonFiniteProblem } from '../mind/finiteNumbers.js';
import { nestingProblem } from '../mind/jsonNesting.js';
import { isPromiseMisuse, promiseMisuseMessage } from '../mind/promiseMisuse.js';
import { SensorSignal } from '../streams/signals.js';

export type SensorValue = SensorSignal['value'];

const sensorValue = SensorSignal.shape.value;

/** The reading `read()` returned, or `{ error }` naming what was wrong with it. */
export function sensorReading(read: () => SensorValue): SensorValue {
  let value: unknown;
  try {
    value = read();
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  if (isPromiseMisuse(value)) return { error: promiseMisuseMessage('read', 'the reading') };
  if (!sensorValue.safeParse(value).success) return { error: `read returned ${describeValue(value)}: expected a finite number, a string, a boolean or an object` };
  try {
    JSON.stringify(value);
  } catch (error) {
    return { error: `read returned an object JSON cannot write: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` };
  }
  const tooDeep = nestingProblem(value);
  if (tooDeep) return { error: `read returned an object ${tooDeep}` };
  // JSON would write it as null: the event and the store would show a reading the sensor did not give.
  const notFinite = nonFiniteProblem(value, 'value');
  if (notFinite) return { error: `read returned an object JSON cannot write as it is: ${notFinite}` };
  return value as SensorValue;
}
