/**
 * The structure of JSON text as `JSON.stringify` writes it (no whitespace
 * between tokens): how deep its objects and arrays nest, and where a top-level
 * array's items begin and end. Only the brackets, commas and quotes outside
 * strings are read, so a scan is one pass over the characters.
 */

/**
 * The most levels of objects and arrays within one another a row the store
 * writes through SQLite's JSON functions may have: they refuse text nested
 * past 1000 levels ("malformed JSON"), and a batch's array and the row's own
 * object add two.
 */
export const MAX_JSON_NESTING = 900;

/**
 * Calls `visit` with each bracket or comma outside strings and the nesting
 * depth after it (an opening bracket counts its own level); stops when
 * `visit` returns true.
 */
function walk(text: string, visit: (code: number, index: number, depth: number) => boolean | void): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (visit(c, i, ++depth)) return;
    } else if (c === 0x7d || c === 0x5d) {
      if (visit(c, i, --depth)) return;
    } else if (c === 0x2c && visit(c, i, depth)) return;
  }
}

/**
 * Whether JSON text nests objects and arrays more than `levels` deep. Each
 * level takes two characters at least (`[` and `]`), so a text shorter than
 * twice that is not read at all: only a long one pays for the scan.
 */
export function nestsDeeperThan(text: string, levels: number): boolean {
  if (text.length <= 2 * levels) return false;
  let deeper = false;
  walk(text, (_, __, depth) => (deeper = depth > levels));
  return deeper;
}

/** The items of a JSON array's text, each as its own text, in order. */
export function arrayItems(text: string): string[] {
  const items: string[] = [];
  let start = 1;
  walk(text, (code, index, depth) => {
    // A comma between items, or the array's own closing bracket.
    if ((code === 0x2c && depth === 1) || (code === 0x5d && depth === 0)) {
      if (index > start) items.push(text.slice(start, index));
      start = index + 1;
    }
  });
  return items;
}
