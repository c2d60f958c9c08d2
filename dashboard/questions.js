// The questions user_interact asked, newest first: waiting (with its time
// limit and a field to answer it), answered (with the answer) or expired. A
// question's item is redrawn only when its own event changes, so an answer
// being typed survives other questions coming in.
import { $, el, isolated, showInOrder } from './dom.js';
import { state } from './state.js';

// Each question's item and the event it was drawn from, by question id.
const drawnItems = new Map();
let drawn = null;

/** What became of a question; a waiting one gets a form to answer it (app.js sends it). */
function outcome(question) {
  if (question.status === 'answered') return [el('span', { class: 'answer' }, 'answer: ', isolated(question.answer ?? ''))];
  if (question.status === 'expired') return [el('span', { class: 'expired' }, `timed out after ${question.timeoutMs / 1000} s`)];
  return [
    el('span', { class: 'waiting' }, `waiting for an answer (times out after ${question.timeoutMs / 1000} s)`),
    el('form', { class: 'answer-form', 'data-question-id': question.questionId, 'data-question': question.text },
      el('input', { name: 'answer', autocomplete: 'off', placeholder: 'your answer', 'aria-label': `answer to: ${question.text}` }),
      el('button', { type: 'submit' }, 'Answer')),
  ];
}

function itemOf(question) {
  const known = drawnItems.get(question.questionId);
  if (known?.event === question) return known.item;
  // Focusable by the page only: it takes the focus from its answer field as it is redrawn (renderQuestions).
  const item = el('li', { class: 'question', 'data-status': question.status ?? 'asked', 'data-question-id': question.questionId, tabindex: '-1' },
    question.cycle === undefined ? null : el('span', { class: 'when' }, `#${question.cycle}`),
    el('div', { class: 'text', title: question.text }, isolated(question.text)),
    ...outcome(question));
  drawnItems.set(question.questionId, { event: question, item });
  return item;
}

export function renderQuestions() {
  if (state.questions === drawn) return;
  drawn = state.questions;
  // A question answered or timed out while its field had the focus is drawn anew: the focus goes to its new item, not to the page's body.
  const focused = $('questions').contains(document.activeElement) ? document.activeElement : null;
  const focusedId = focused?.closest('.question')?.dataset.questionId;
  const items = state.questions.map(itemOf);
  for (const questionId of drawnItems.keys()) if (!state.questions.some((q) => q.questionId === questionId)) drawnItems.delete(questionId);
  showInOrder($('questions'), items);
  if (focused && document.activeElement !== focused) (focused.isConnected ? focused : drawnItems.get(focusedId)?.item)?.focus({ preventScroll: true });
  const open = state.questions.filter((q) => (q.status ?? 'asked') === 'asked').length;
  $('question-count').textContent = open ? `${open} open` : '';
  $('question-empty').hidden = state.questions.length > 0;
}
