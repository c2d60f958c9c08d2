/**
 * The registry of tools the agent may choose from, in registration order
 * (which breaks score ties). Users add their own with `register`.
 */
import type { Tool } from './tool.js';

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();

  constructor(tools: Iterable<Tool> = []) {
    for (const tool of tools) this.register(tool);
  }

  /** Adds a tool; a second tool with the same name is an error. */
  register(tool: Tool): this {
    if (!/^[a-z][a-z0-9_]*$/.test(tool.name)) throw new Error(`tool name "${tool.name}" must be snake_case`);
    if (this.tools.has(tool.name)) throw new Error(`tool "${tool.name}" is already registered`);
    this.tools.set(tool.name, tool);
    return this;
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
