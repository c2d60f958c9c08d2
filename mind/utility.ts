/**
 * Seed 001's utility score and its breakdown string:
 *
 *   total = base − recency + novelty + episodic + pressure + archetype (+ plan)
 *
 * Every part is quantised to hundredths before it is summed, so the printed
 * parts always add up to the printed score exactly:
 * `[score=0.85: base=0.70 recency=-0.00 novelty=+0.15 episodic=+0.00 pressure=+0.00 archetype=+0.000]`
 * (a plan bonus, when a plan steers the choice, is appended as ` plan=+0.10`).
 */
export interface ScoreParts {
  base: number;
  /** The penalty as a positive number: 0.4 / 0.2 / 0.1 (seed 001). */
  recency: number;
  novelty: number;
  episodic: number;
  pressure: number;
  /** Psyche bias in [-0.07, +0.07]. */
  archetype: number;
  /** Plan bonus; absent when no plan step names the tool. */
  plan?: number;
}

export const RECENCY_PENALTIES = [0.4, 0.2, 0.1] as const;
export const NOVELTY_BONUS = 0.15;
export const EPISODIC_BONUS = 0.2;
export const PRESSURE_BONUS = 0.2;
export const ARCHETYPE_LIMIT = 0.07;

const hundredths = (x: number): number => Math.round(x * 100);

/** The parts, each quantised to hundredths (archetype clamped to ±0.07): one object, built once per scored tool. */
export function quantisedParts(base: number, recency: number, novelty: number, episodic: number, pressure: number, archetype: number, plan?: number): ScoreParts {
  const out: ScoreParts = {
    base: hundredths(base) / 100,
    recency: hundredths(recency) / 100,
    novelty: hundredths(novelty) / 100,
    episodic: hundredths(episodic) / 100,
    pressure: hundredths(pressure) / 100,
    archetype: hundredths(Math.max(-ARCHETYPE_LIMIT, Math.min(ARCHETYPE_LIMIT, archetype))) / 100,
  };
  if (plan !== undefined) out.plan = hundredths(plan) / 100;
  return out;
}

/** Quantises every part to hundredths (archetype clamped to ±0.07). */
export function quantise(parts: ScoreParts): ScoreParts {
  return quantisedParts(parts.base, parts.recency, parts.novelty, parts.episodic, parts.pressure, parts.archetype, parts.plan);
}

/** The total of quantised parts, exact to the hundredth. */
export function totalScore(parts: ScoreParts): number {
  const sum =
    hundredths(parts.base) -
    hundredths(parts.recency) +
    hundredths(parts.novelty) +
    hundredths(parts.episodic) +
    hundredths(parts.pressure) +
    hundredths(parts.archetype) +
    (parts.plan === undefined ? 0 : hundredths(parts.plan));
  return sum / 100;
}

/** `x.toFixed(2)` for a quantised x: read from a table in [0, 1] (where every part usually is), computed outside it. */
const FIXED_2 = Array.from({ length: 101 }, (_, i) => (i / 100).toFixed(2));
const fixed2 = (x: number): string => (x >= 0 && x <= 1 ? FIXED_2[hundredths(x)]! : x.toFixed(2));
const signed2 = (x: number): string => (x < 0 ? '-' : '+') + fixed2(Math.abs(x));
const signed3 = (x: number): string => (x < 0 ? '-' : '+') + Math.abs(x).toFixed(3);

/** Breakdown strings by their packed parts: decisions repeat a few dozen of them, so each is formatted (and held) once. */
const breakdowns = new Map<number, string>();

/** Formats the breakdown string in the seed's exact format. */
export function formatBreakdown(parts: ScoreParts): string {
  const key = packedParts(parts);
  if (key === undefined) return format(quantise(parts));
  let text = breakdowns.get(key);
  if (text === undefined) {
    if (breakdowns.size >= 4096) breakdowns.clear();
    breakdowns.set(key, (text = format(quantise(parts))));
  }
  return text;
}

function format(q: ScoreParts): string {
  const plan = q.plan === undefined ? '' : ` plan=${signed2(q.plan)}`;
  return (
    `[score=${totalScore(q).toFixed(2)}: base=${fixed2(q.base)} recency=-${fixed2(q.recency)} ` +
    `novelty=${signed2(q.novelty)} episodic=${signed2(q.episodic)} pressure=${signed2(q.pressure)} ` +
    `archetype=${signed3(q.archetype)}${plan}]`
  );
}

/**
 * The parts' hundredths (what {@link quantise} keeps, archetype clamped to
 * ±0.07) as one integer, in mixed radix, or undefined outside the usual
 * ranges: every part in [0, 1], a plan bonus in [-1, 1].
 */
function packedParts(q: ScoreParts): number | undefined {
  let key = 0;
  for (const part of [q.base, q.recency, q.novelty, q.episodic, q.pressure]) {
    const digit = hundredths(part);
    if (digit < 0 || digit > 100) return undefined;
    key = key * 101 + digit;
  }
  const plan = q.plan === undefined ? 201 : hundredths(q.plan) + 100;
  if (q.plan !== undefined && (plan < 0 || plan > 200)) return undefined;
  const archetype = hundredths(Math.max(-ARCHETYPE_LIMIT, Math.min(ARCHETYPE_LIMIT, q.archetype)));
  return (key * 15 + archetype + 7) * 202 + plan;
}

/** Parses a breakdown string back into its score and parts (for tests and tools). */
export function parseBreakdown(text: string): { score: number; parts: ScoreParts } | null {
  const m = /^\[score=(-?\d+\.\d{2}): base=(-?\d+\.\d{2}) recency=-(\d+\.\d{2}) novelty=([+-]\d+\.\d{2}) episodic=([+-]\d+\.\d{2}) pressure=([+-]\d+\.\d{2}) archetype=([+-]\d+\.\d{3})(?: plan=([+-]\d+\.\d{2}))?\]$/.exec(text);
  if (!m) return null;
  const parts: ScoreParts = {
    base: Number(m[2]),
    recency: Number(m[3]),
    novelty: Number(m[4]),
    episodic: Number(m[5]),
    pressure: Number(m[6]),
    archetype: Number(m[7]),
  };
  if (m[8] !== undefined) parts.plan = Number(m[8]);
  return { score: Number(m[1]), parts };
}
