// A decision's score breakdown: the parts of mind/utility.ts's breakdown string,
// parsed, and drawn as diverging bars.
import { el } from './dom.js';

// The score parts of a decision, in the breakdown's order, with their colours.
export const PARTS = [
  ['base', '--blue'],
  ['recency', '--red'],
  ['novelty', '--accent'],
  ['episodic', '--violet'],
  ['pressure', '--amber'],
  ['archetype', '--pink'],
  ['plan', '--green'],
];

/**
 * Parses a decision's breakdown string (the format of mind/utility.ts
 * formatBreakdown; this regex is parseBreakdown's). Recency is returned as the
 * signed amount it contributes (a penalty, so ≤ 0).
 */
export function parseBreakdown(text) {
  const m = /^\[score=(-?\d+\.\d{2}): base=(-?\d+\.\d{2}) recency=-(\d+\.\d{2}) novelty=([+-]\d+\.\d{2}) episodic=([+-]\d+\.\d{2}) pressure=([+-]\d+\.\d{2}) archetype=([+-]\d+\.\d{3})(?: plan=([+-]\d+\.\d{2}))?\]$/.exec(text ?? '');
  if (!m) return null;
  const parts = {
    base: Number(m[2]),
    recency: -Number(m[3]),
    novelty: Number(m[4]),
    episodic: Number(m[5]),
    pressure: Number(m[6]),
    archetype: Number(m[7]),
  };
  if (m[8] !== undefined) parts.plan = Number(m[8]);
  return { score: Number(m[1]), parts };
}

/** Diverging bars around zero: half the track is a contribution of 1.0. */
export function bars(parts) {
  const grid = el('div', { class: 'bars', 'data-testid': 'breakdown' });
  for (const [name, colour] of PARTS) {
    if (!(name in parts)) continue;
    const value = parts[name];
    const width = Math.min(50, Math.abs(value) * 50);
    const position = value >= 0 ? `left:50%` : `left:${50 - width}%`;
    const zero = value === 0 ? ' zero' : '';
    const sign = value < 0 || Object.is(value, -0) ? '−' : '+';
    grid.append(
      el('span', { class: 'label' }, name),
      el('span', { class: 'track' }, el('span', { class: 'bar', 'data-part': name, style: `${position};width:${width}%;background:var(${colour})` })),
      el('span', { class: `value${zero}` }, `${sign}${Math.abs(value).toFixed(name === 'archetype' ? 3 : 2)}`),
    );
  }
  return grid;
}
