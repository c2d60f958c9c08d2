/**
 * The mind's extensions by name (plans, psyche, pending questions, the
 * library, yours): registering one, and their part of a saved state. State
 * restored for an extension not registered yet waits for it ("unclaimed",
 * and is saved again as it was meanwhile); a restored state without a
 * registered extension puts it back as it was registered.
 */
import { checkExtension } from './extensionDefinition.js';
import { loadExtension } from './extensionLoad.js';
import type { MindExtension } from './mind.js';

export class ExtensionRegistry {
  private readonly registered = new Map<string, MindExtension>();
  /** Restored extension state whose extension is not registered yet (it loads on registration). */
  private unclaimed: Record<string, unknown> = {};
  /** Each registered extension's state as it was registered, for a restore of a saved state without it. */
  private readonly registeredStates = new Map<string, unknown>();

  get(name: string): MindExtension | undefined {
    return this.registered.get(name);
  }

  values(): IterableIterator<MindExtension> {
    return this.registered.values();
  }

  /**
   * Adds an extension; state restored before it was registered loads into it
   * now. A second extension of the same name is refused, as a second tool of
   * one name is, and so is one that is no extension (mind/extensionDefinition.ts);
   * the same one again is no change.
   */
  register(extension: MindExtension): void {
    checkExtension(extension);
    const taken = this.registered.get(extension.name);
    if (taken && taken !== extension) throw new Error(`mind extension "${extension.name}" is already registered (a ${taken.constructor.name}): extension names are unique`);
    // A copy, as a save takes it: an extension's toJSON may hand out its own live arrays.
    if (!taken) this.registeredStates.set(extension.name, structuredClone(extension.toJSON()));
    if (extension.name in this.unclaimed) {
      // An extension that cannot load the state is not registered, and the state is kept (saved again as it was).
      const { [extension.name]: state, ...rest } = this.unclaimed;
      loadExtension(extension, state);
      this.unclaimed = rest;
    }
    this.registered.set(extension.name, extension);
  }

  /** Every extension's state by name, the unclaimed ones as they were restored. */
  toJSON(): Record<string, unknown> {
    const states: Record<string, unknown> = { ...this.unclaimed };
    for (const [name, extension] of this.registered) states[name] = extension.toJSON();
    return states;
  }

  /** Loads each registered extension's part of `states` (its state as registered when there is none); keeps the rest for extensions registered later. */
  load(states: Record<string, unknown>): void {
    this.unclaimed = {};
    for (const [name, json] of Object.entries(states)) {
      const extension = this.registered.get(name);
      if (extension) loadExtension(extension, json);
      else this.unclaimed[name] = json;
    }
    for (const [name, extension] of this.registered) {
      // A copy each time: an extension's load may keep what it is given and change it later.
      if (!Object.hasOwn(states, name)) loadExtension(extension, structuredClone(this.registeredStates.get(name)));
    }
  }
}
