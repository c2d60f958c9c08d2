// ooda-rx live dashboard: connects to /ws on the page's own host, starts from
// the server's snapshot, applies events as they arrive and redraws at most
// once per animation frame. Reconnects with back-off when the agent restarts.
// No framework, no build step: ES modules, one concept each (connection.js,
// state.js, agentClock.js, alertText.js, render.js, entryFade.js, goalTree.js, goalKeys.js, plans.js,
// questions.js, reflection.js, breakdown.js, dom.js); this one wires the controls.
import { PARTS } from './breakdown.js';
import { checkStale, connect, send } from './connection.js';
import { $, el, isolated, quote, toast } from './dom.js';
import { setupGoalKeys } from './goalKeys.js';
import { answerSent, timedOut } from './questions.js';
import { render, scheduleRender } from './render.js';
import { sampleRate } from './state.js';

// The token is kept in local storage; where the browser refuses it (cookies blocked for the site), it lasts as long as the page.
function storedToken() {
  try {
    return localStorage.getItem('ooda.token') ?? '';
  } catch {
    return '';
  }
}

function storeToken(token) {
  try {
    localStorage.setItem('ooda.token', token);
  } catch {
    // Not kept past this page; the field still holds it.
  }
}

/**
 * Takes the token from a `#token=` link into the field and storage, and out
 * of the address bar. Also on `hashchange`: the link of a restarted agent
 * (a new token) pasted into a tab already on the page changes only the hash,
 * which does not reload the page.
 */
function takeTokenFromLink() {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
  if (!fromHash) return;
  storeToken(fromHash);
  $('token').value = fromHash;
  history.replaceState(null, '', location.pathname);
}

function setupControls() {
  $('token').value = storedToken();
  takeTokenFromLink();
  window.addEventListener('hashchange', takeTokenFromLink);
  $('token-form').addEventListener('submit', (event) => event.preventDefault());
  $('token').addEventListener('change', () => storeToken($('token').value.trim()));

  // Validated here (the form is novalidate) so the page can say what is wrong;
  // cleared once the agent accepts the goal, kept for correcting otherwise.
  $('goal-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const description = $('goal-description').value.trim();
    const priorityInput = $('goal-priority');
    const priority = priorityInput.value.trim();
    const badPriority = priorityInput.validity.badInput || (priority !== '' && !(/^\d+$/.test(priority) && Number(priority) <= 255));
    $('goal-description').setAttribute('aria-invalid', String(!description));
    priorityInput.setAttribute('aria-invalid', String(badPriority));
    if (!description) return toast('goal: enter a description', true);
    if (badPriority) return toast(['goal ', isolated(quote(description)), ': priority must be a whole number from 0 to 255 (leave it empty for 128)'], true);
    const signal = { type: 'goal', description };
    if (priority !== '') signal.priority = Number(priority);
    const criteria = $('goal-criteria').value.trim();
    if (criteria) signal.criteria = criteria;
    send(signal, `goal ${quote(description)}`, () => $('goal-form').reset());
  });
  // A waiting question's form (questions.js) answers it with an input signal naming it; not once it has timed out, which the agent would take as plain input.
  $('questions').addEventListener('submit', (event) => {
    event.preventDefault();
    const form = event.target;
    const { questionId } = form.dataset;
    const text = form.elements.answer.value.trim();
    const label = `answer to ${quote(form.dataset.question)}`;
    if (!text) return toast([isolated(label), ': enter an answer first'], true);
    if (timedOut(questionId)) {
      scheduleRender();
      return toast([isolated(label), ': not sent: the question has timed out (the agent no longer takes answers to it)'], true);
    }
    send({ type: 'input', text, replyTo: questionId }, label, () => {
      form.reset();
      answerSent(questionId, label);
    });
  });
  for (const button of document.querySelectorAll('[data-command]')) {
    button.addEventListener('click', () => send({ type: 'command', command: button.dataset.command }, button.dataset.command));
  }
  $('legend').replaceChildren(...PARTS.map(([name, colour]) => el('span', {}, el('i', { style: `background:var(${colour})` }), name)));
}

setupControls();
setupGoalKeys();
connect();
setInterval(() => {
  sampleRate();
  scheduleRender();
}, 1000);
setInterval(checkStale, 250);
render();
