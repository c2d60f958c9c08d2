/**
 * The built-in tools, in registration order (which breaks score ties).
 */
import type { Tool } from '../tool.js';
import { contentIngest } from './contentIngest.js';
import { fileIo } from './fileIo.js';
import { gapAnalysis } from './gapAnalysis.js';
import { httpFetch } from './httpFetch.js';
import { inferRules } from './inferRules.js';
import { kgMutate } from './kgMutate.js';
import { kgQuery } from './kgQuery.js';
import { librarySearch } from './librarySearch.js';
import { memoryRecall } from './memoryRecall.js';
import { reason } from './reason.js';
import { shellExec } from './shellExec.js';
import { similaritySearch } from './similaritySearch.js';
import { userInteract } from './userInteract.js';

export {
  contentIngest, fileIo, gapAnalysis, httpFetch, inferRules, kgMutate, kgQuery, librarySearch, memoryRecall, reason, shellExec,
  similaritySearch, userInteract,
};

/** A fresh list of the built-in tools. */
export function builtinTools(): Tool[] {
  return [
    kgQuery, kgMutate, memoryRecall, reason, similaritySearch, inferRules, gapAnalysis,
    librarySearch, contentIngest, fileIo, httpFetch, shellExec, userInteract,
  ];
}
