// A new card's fade-in (style.css `.entering`), played in waves: the cards one
// redraw adds to a list fade in together, and a card added while the list's
// last wave is still fading shows at once. Under a flood of events the cards
// were replaced every frame, each starting a fade it never finished (a
// compositing layer apiece), which held the page near 10 frames a second.

// As long as style.css's `enter` animation.
const FADE_MS = 350;
// When each list's last wave started, and the lists whose wave the running task started (it ends with the task).
const waveStarted = new WeakMap();
const openWaves = new Set();

/** Marks `card`, new in `list`, to fade in if the list's last wave has finished or this task started it. */
export function fadeIn(list, card) {
  const now = performance.now();
  if (!openWaves.has(list)) {
    if (now - (waveStarted.get(list) ?? -Infinity) < FADE_MS) return;
    waveStarted.set(list, now);
    openWaves.add(list);
    queueMicrotask(() => openWaves.delete(list));
  }
  card.classList.add('entering');
}
