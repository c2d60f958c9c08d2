/**
 * The registry of tools the agent may choose from, in registration order
 * (which breaks score ties). Users add their own with `register`; a tool
 * definition is validated as it is registered (mind/toolDefinition.ts).
 */
import type { Tool } from './tool.js';
import { validateTool } from './toolDefinition.js';

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  /** Tools whose scoring returned something other than a finite number, already reported (saved with the mind, so a resumed run does not report them again). */
  private badScoring = new Set<string>();

  constructor(tools: Iterable<Tool> = []) {
    for (const tool of tools) this.register(tool);
  }

  /**
   * Adds a tool. A definition that does not fit the `Tool` shape is an error
   * naming the tool and the problem; so is a second tool with the same name.
   */
  register(tool: Tool): this {
    validateTool(tool);
    if (this.tools.has(tool.name)) throw new Error(`tool "${tool.name}" is already registered`);
    this.tools.set(tool.name, tool);
    return this;
  }

  /**
   * Notes that `name`'s scoring returned something other than a finite
   * number: true the first time (the caller reports it), false after.
   */
  noteBadScoring(name: string): boolean {
    if (this.badScoring.has(name)) return false;
    this.badScoring.add(name);
    return true;
  }

  /** The tools whose bad scoring has been reported, for the saved state. */
  get badScoringReported(): string[] {
    return [...this.badScoring];
  }

  /** Replaces the reported tools with those of a saved state. */
  loadBadScoringReported(names: readonly string[]): void {
    this.badScoring = new Set(names);
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  list(): Tool[] {
    return [...this.tools.values()];
  }

  get size(): number {
    return this.tools.size;
  }
}
