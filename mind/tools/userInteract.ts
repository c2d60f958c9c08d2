/**
 * user_interact (semantic, safe): asks the user a question without blocking.
 * It registers a pending question (the mind's `questions` extension) and
 * returns at once; act emits a `question` event and suspends the goal. A later
 * `input` signal answers it (by `replyTo`, or the oldest pending question) and
 * the goal resumes with the answer as evidence; a signal arriving after
 * `tools.questionTimeoutMs` (60 s, scheduler time) expires it and the goal
 * resumes without one. See mind/questionAnswers.ts.
 */
import { z } from 'zod';
import type { Tool } from '../tool.js';

const Input = z.object({
  question: z.string().trim().min(1, 'question is required'),
  timeoutMs: z.number().int().positive().optional(),
});

export const userInteract: Tool<z.infer<typeof Input>> = {
  name: 'user_interact',
  description: 'Ask the user a question; the goal waits (without blocking the agent) for the answer or a timeout.',
  keywords: [
    'ask', 'user', 'question', 'human', 'person', 'operator', 'answer', 'reply', 'clarify', 'confirm', 'opinion',
    'preference', 'choose', 'decide', 'input', 'tell', 'interactive', 'prompt', 'you',
  ],
  danger: 'safe',
  capabilities: ['user.ask'],
  input: Input,
  scoring: { kind: 'semantic', threshold: 0.55, multiplier: 0.75 },
  propose({ goal }) {
    const text = goal.description.trim();
    return { question: /[?]$/.test(text) ? text : `${text}?` };
  },
  execute({ question, timeoutMs }, { mind, goal, config, now }) {
    const questionId = mind.id('question');
    const wait = timeoutMs ?? config.tools.questionTimeoutMs;
    mind.questions.ask({ id: questionId, goalId: goal.id, text: question, askedAt: now(), timeoutMs: wait });
    return {
      ok: true,
      summary: `asked ${questionId}: ${question} (waiting up to ${wait} ms)`,
      asked: { questionId, text: question, timeoutMs: wait },
    };
  },
};
