// The dashboard's DOM helpers: element lookup and construction, values written
// only when they change, text from outside isolated as its own bidirectional
// run, quoting for toasts, toasts, and lists kept in order without redrawing
// their items.

// Longer texts are cut in toasts.
const LABEL_CHARS = 60;

export const $ = (id) => document.getElementById(id);
export const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === 'class') node.className = value;
    else if (key === 'style') node.style.cssText = value;
    else node.setAttribute(key, String(value));
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  return node;
};

/**
 * Sets `node[property]` (its `textContent`, `hidden`) to `value` unless it
 * holds it already. The page redraws every frame while events flow: writing
 * the same text again still replaces the node's text, which drops a selection
 * in it (a session id being copied) and is a change to a screen reader.
 */
export function setIfChanged(node, property, value) {
  if (node[property] !== value) node[property] = value;
}

/**
 * Text from outside (a goal's description, a request's label; strings and
 * nodes) as its own bidirectional run: a right-to-left override in it (U+202E)
 * would otherwise reverse the page's own text after it on the line
 * (`· cycle 34`, `: accepted`).
 */
export function isolated(...content) {
  return el('bdi', {}, ...content);
}

/** `labels` isolated, separated by commas. */
export function isolatedList(labels) {
  return labels.flatMap((label, i) => (i ? [', ', isolated(label)] : [isolated(label)]));
}

/** `text` cut to `chars` characters, marked with … where it was cut. */
export function shortened(text, chars = LABEL_CHARS) {
  return text.length > chars ? `${text.slice(0, chars)}…` : text;
}

/** `text` in quotes, cut to LABEL_CHARS characters for a toast. */
export function quote(text) {
  return JSON.stringify(shortened(text));
}

/** Shows `text` (a string, or strings and nodes) for 6 s. */
export function toast(text, isError = false) {
  const item = el('li', { class: `toast${isError ? ' error' : ''}` }, ...[text].flat());
  $('toasts').prepend(item);
  while ($('toasts').children.length > 4) $('toasts').lastChild.remove();
  setTimeout(() => item.remove(), 6000);
}

/**
 * Makes `nodes` the children of `list`, in order, leaving those already there
 * in place: a node taken out and put back plays its entry animation again,
 * which redrawing every card each second did (the page flickered while idle).
 */
export function showInOrder(list, nodes) {
  const wanted = new Set(nodes);
  for (const child of [...list.children]) if (!wanted.has(child)) child.remove();
  nodes.forEach((node, i) => {
    if (list.children[i] !== node) list.insertBefore(node, list.children[i] ?? null);
  });
}
