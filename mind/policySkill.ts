/**
 * The policy skill (priority 100): rejects destructive actions before they
 * run: critical-danger tools, and inputs that delete, drop, truncate, wipe or
 * force-overwrite (shell, SQL, git and file operations).
 */
import { actionText } from './actionText.js';
import type { Skill } from './skills.js';
import { actionDanger } from './tool.js';

/**
 * Any arguments before an option, within one command: `rm -v -rf x`, `rm x -rf`
 * (options may follow operands) and `rm --recursive x` are all forced or
 * recursive; the match stops at a quote, a line end or `;`, `&`, `|`.
 * Every gap between a command and what it is matched with is bounded (200
 * characters): an unbounded one made each test quadratic in the input (a goal
 * of 30,000 "dd " took 10 s, of "git push " 23 s, blocking the agent).
 */
const ANY_ARGUMENTS = String.raw`([^\n";&|]{0,200}\s)?`;

/** Destructive operations in an action's input (matched on its {@link actionText}: its JSON and its values as one line). */
export const DESTRUCTIVE_PATTERNS: readonly { pattern: RegExp; what: string }[] = [
  { pattern: new RegExp(String.raw`\brm\s+${ANY_ARGUMENTS}-(-recursive\b|-force\b|[a-z]*[rf])`), what: 'forced or recursive file removal' },
  { pattern: /\b(rmdir|shred|wipefs|mkfs(\.\w+)?)\b/, what: 'removing directories or wiping disks' },
  { pattern: /\bdd\s+[^"]{0,200}\bof=/, what: 'raw writes to a device' },
  { pattern: /\bdrop\s+(table|database|schema|index|view)\b/, what: 'dropping database objects' },
  { pattern: /\btruncate\s+(table\s+)?\w+/, what: 'truncating a table' },
  { pattern: /\bdelete\s+from\s+\w+(?!.*\bwhere\b)/, what: 'deleting every row of a table' },
  { pattern: new RegExp(String.raw`\bgit\s+(push\s+[^"]{0,200}(--force|-f)\b|reset\s+--hard|clean\s+${ANY_ARGUMENTS}-(-force\b|[a-z]*f))`), what: 'destroying git history or work' },
  { pattern: /\b(shutdown|reboot|halt|poweroff)\b/, what: 'stopping the machine' },
  { pattern: /\bchmod\s+(-r\s+)?0?777\b/, what: 'opening permissions to everyone' },
  { pattern: />\s*\/dev\/(sd|nvme|hd)/, what: 'overwriting a disk device' },
  { pattern: /"(mode|op|operation|action)":\s*"(delete|remove|destroy|wipe)"/, what: 'a delete operation' },
];

export const policySkill: Skill = {
  name: 'policy',
  priority: 100,
  trigger: () => true,
  verify(action, { mind }) {
    const tool = mind.tools.get(action.tool);
    let danger;
    try {
      danger = tool && actionDanger(tool, action.input);
    } catch (error) {
      return { verdict: 'reject', reason: `${action.tool} could not say how dangerous this input is: ${(error as Error).message}` };
    }
    if (danger === 'critical') return { verdict: 'reject', reason: `${action.tool} is a critical-danger tool${tool!.danger === 'critical' ? '' : ' with this input'}` };
    const text = actionText(action.input);
    for (const { pattern, what } of DESTRUCTIVE_PATTERNS) {
      if (pattern.test(text)) return { verdict: 'reject', reason: `destructive action (${what}) in ${action.tool} input` };
    }
    return { verdict: 'approve' };
  },
};
