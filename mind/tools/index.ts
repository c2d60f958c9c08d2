/**
 * The built-in tools, in registration order (which breaks score ties).
 */
import type { Tool } from '../tool.js';
import { kgQuery } from './kgQuery.js';
import { memoryRecall } from './memoryRecall.js';

export { kgQuery, memoryRecall };

/** A fresh list of the built-in tools. */
export function builtinTools(): Tool[] {
  return [kgQuery, memoryRecall];
}
