// The questions user_interact asked, newest first: waiting (with its time
// limit), answered (with the answer) or expired; redrawn only when one changes.
import { $, el, isolated } from './dom.js';
import { state } from './state.js';

let drawn = null;

/** What became of a question. */
function outcome(question) {
  if (question.status === 'answered') return el('span', { class: 'answer' }, 'answer: ', isolated(question.answer ?? ''));
  if (question.status === 'expired') return el('span', { class: 'expired' }, `timed out after ${question.timeoutMs / 1000} s`);
  return el('span', { class: 'waiting' }, `waiting for an answer (times out after ${question.timeoutMs / 1000} s)`);
}

export function renderQuestions() {
  if (state.questions === drawn) return;
  drawn = state.questions;
  const open = state.questions.filter((q) => (q.status ?? 'asked') === 'asked').length;
  $('question-count').textContent = open ? `${open} open` : '';
  $('question-empty').hidden = state.questions.length > 0;
  $('questions').replaceChildren(...state.questions.map((q) =>
    el('li', { class: 'question', 'data-status': q.status ?? 'asked', 'data-question-id': q.questionId },
      el('span', { class: 'when' }, `#${q.cycle}`),
      el('div', { class: 'text' }, isolated(q.text)),
      outcome(q))));
}
