// The questions user_interact asked, newest first: waiting (with its time
// limit and a field to answer it), answered (with the answer) or expired. A
// question's item is redrawn only when its own event or its status changes, so
// an answer being typed survives other questions coming in. An answer the page
// sent is followed until the agent says what became of its question.
import { agentNow } from './agentClock.js';
import { $, el, isolated, setIfChanged, showInOrder, toast } from './dom.js';
import { state } from './state.js';

// Each question's item and the event and status it was drawn from, by question id.
const drawnItems = new Map();
// The answers the page sent that the agent accepted, until their question is answered or expires: each one's label, by question id.
const answersSent = new Map();

/**
 * A question's status: `asked`, `answered` or `expired`. One still waiting
 * once its deadline (asked at + time limit) has passed on the agent's clock
 * has timed out, as the agent will say only when its next signal comes
 * (mind/questions.ts expire). A question from the snapshot without `askedAt`
 * (an older server) has no deadline the page knows: it waits.
 */
function statusOf(question) {
  const status = question.status ?? 'asked';
  const deadline = (question.askedAt ?? question.at) + question.timeoutMs;
  return status === 'asked' && deadline <= agentNow() ? 'expired' : status;
}

/**
 * Whether the question has timed out on the agent's clock, as far as the page
 * can tell: its form may still be up (the questions are redrawn each second),
 * but an answer sent now would come too late.
 */
export function timedOut(questionId) {
  const question = state.questions.find((q) => q.questionId === questionId);
  return question !== undefined && statusOf(question) === 'expired';
}

/** Follows an answer the agent accepted (`label` names it), to say so should its question expire before the agent reads it. */
export function answerSent(questionId, label) {
  answersSent.set(questionId, label);
}

/**
 * Tells the user of each answer sent whose question the agent has since said
 * expired: it read the answer after the deadline (the page's clock lags the
 * agent's by the time events take to come), and took it as plain input. Only
 * the agent's word counts here, not the page's clock: an answer in time may
 * pass the deadline on its way back.
 */
function settleAnswers() {
  for (const question of state.questions) {
    const label = answersSent.get(question.questionId);
    if (label === undefined || (question.status ?? 'asked') === 'asked') continue;
    answersSent.delete(question.questionId);
    if (question.status === 'expired') toast([isolated(label), ': too late: the question had timed out when the agent read the answer (it kept the answer as plain input)'], true);
  }
}

/** What became of a question; a waiting one gets a form to answer it (app.js sends it), an expired one none. */
function outcome(question, status) {
  if (status === 'answered') return [el('span', { class: 'answer' }, 'answer: ', isolated(question.answer ?? ''))];
  if (status === 'expired') return [el('span', { class: 'expired' }, `timed out after ${question.timeoutMs / 1000} s`)];
  return [
    el('span', { class: 'waiting' }, `waiting for an answer (times out after ${question.timeoutMs / 1000} s)`),
    el('form', { class: 'answer-form', 'data-question-id': question.questionId, 'data-question': question.text },
      el('input', { name: 'answer', autocomplete: 'off', placeholder: 'your answer', 'aria-label': `answer to: ${question.text}` }),
      el('button', { type: 'submit' }, 'Answer')),
  ];
}

function itemOf(question, status) {
  const known = drawnItems.get(question.questionId);
  if (known?.event === question && known.status === status) return known.item;
  // Focusable by the page only: it takes the focus from its answer field as it is redrawn (renderQuestions).
  const item = el('li', { class: 'question', 'data-status': status, 'data-question-id': question.questionId, tabindex: '-1' },
    question.cycle === undefined ? null : el('span', { class: 'when' }, `#${question.cycle}`),
    el('div', { class: 'text', title: question.text }, isolated(question.text)),
    ...outcome(question, status));
  drawnItems.set(question.questionId, { event: question, status, item });
  return item;
}

/** Draws the questions; called each second too, so a question shows as timed out once its deadline passes. */
export function renderQuestions() {
  const statuses = state.questions.map(statusOf);
  // A question answered or timed out while its field had the focus is drawn anew: the focus goes to its new item, not to the page's body.
  const focused = $('questions').contains(document.activeElement) ? document.activeElement : null;
  const focusedId = focused?.closest('.question')?.dataset.questionId;
  settleAnswers();
  const items = state.questions.map((question, i) => itemOf(question, statuses[i]));
  const shown = new Set(state.questions.map((q) => q.questionId));
  for (const byId of [drawnItems, answersSent]) for (const questionId of byId.keys()) if (!shown.has(questionId)) byId.delete(questionId);
  showInOrder($('questions'), items);
  if (focused && document.activeElement !== focused) (focused.isConnected ? focused : drawnItems.get(focusedId)?.item)?.focus({ preventScroll: true });
  const open = statuses.filter((status) => status === 'asked').length;
  setIfChanged($('question-count'), 'textContent', open ? `${open} open` : '');
  setIfChanged($('question-empty'), 'hidden', state.questions.length > 0);
}
