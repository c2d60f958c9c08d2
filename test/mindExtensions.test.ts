import test from 'ava';
import { z } from 'zod';
import { Mind, type MindExtension } from '../mind/mind.js';

class Notes implements MindExtension {
  readonly name = 'notes';
  lines: string[] = [];
  toJSON(): unknown {
    return this.lines;
  }
  load(json: unknown): void {
    this.lines = json as string[];
  }
}
class OtherNotes extends Notes {}

test('a second extension of a taken name is refused, naming it, whether registered or attached; the same one again is no change', (t) => {
  const mind = new Mind();
  const notes = new Notes();
  mind.registerExtension(notes);
  mind.registerExtension(notes);
  t.throws(() => mind.registerExtension(new Notes()), { message: 'mind extension "notes" is already registered (a Notes): extension names are unique' });
  t.throws(() => mind.attachExtension('notes', OtherNotes, () => new OtherNotes()), { message: /mind extension "notes" is already registered/ });
  t.is(mind.attachExtension('notes', Notes, () => new Notes()), notes);
  t.throws(() => mind.registerExtension({ name: 'questions', toJSON: () => null, load: () => undefined }), { message: /"questions" is already registered \(a PendingQuestions\)/ }, 'the built-in ones are taken too');
});

test('an extension that is none (no name, no toJSON or load, a hook that is no function) is refused as it is registered, naming what it lacks, and the mind still saves', (t) => {
  const mind = new Mind();
  const refused: [unknown, string][] = [
    [{ name: 'notes', load: () => undefined }, 'mind extension "notes": toJSON must be a function (got undefined)'],
    [{ name: 'notes', toJSON: () => null }, 'mind extension "notes": load must be a function (got undefined)'],
    [{ name: 'notes', toJSON: () => null, load: () => undefined, forgetGoal: 'goal-1' }, 'mind extension "notes": forgetGoal must be a function when given (got "goal-1")'],
    [{ name: 'notes', toJSON: () => null, load: () => undefined, dropPlan: true }, 'mind extension "notes": dropPlan must be a function when given (got true)'],
    [{ toJSON: () => null, load: () => undefined }, 'a mind extension needs a name (a non-empty string, got undefined)'],
    [{ name: ' ', toJSON: () => null, load: () => undefined }, 'a mind extension needs a name (a non-empty string, got " ")'],
    [null, 'a mind extension is an object with a name, toJSON() and load(json) (got null)'],
  ];
  for (const [extension, message] of refused) t.throws(() => mind.registerExtension(extension as MindExtension), { message });
  t.throws(() => mind.attachExtension('notes', Notes, () => ({ name: 'notes' }) as Notes), { message: 'mind extension "notes": toJSON must be a function (got undefined)' });
  t.notThrows(() => mind.toJSON(), 'nothing half-registered breaks every snapshot');
  t.false('notes' in mind.toJSON().extensions);
});

test('state restored before an extension is registered loads into it when it is', (t) => {
  const saved = new Mind();
  const notes = saved.attachExtension('notes', Notes, () => new Notes());
  notes.lines.push('remember the milk');
  const restored = Mind.fromJSON(JSON.parse(JSON.stringify(saved.toJSON())));
  t.deepEqual(restored.attachExtension('notes', Notes, () => new Notes()).lines, ['remember the milk']);
});

/** Notes of a later version: it refuses the state an earlier one saved. */
class StrictNotes extends Notes {
  override load(json: unknown): void {
    this.lines = z.object({ version: z.literal(2), lines: z.array(z.string()) }).parse(json).lines;
  }
}

test('an extension that cannot load its saved state is named in the error; the state is neither lost nor half restored', (t) => {
  const saved = new Mind();
  saved.attachExtension('notes', Notes, () => new Notes()).lines.push('remember the milk');
  saved.addGoal({ description: 'Find moons of Mars', criteria: 'moons of Mars', priority: 200 });
  saved.nextCycle();
  const state = JSON.parse(JSON.stringify(saved.toJSON()));
  const message = 'mind extension "notes" cannot load its saved state: Invalid input: expected object, received array';

  // Registered after the restore: refused, and the state is kept for a later one (and saved again meanwhile).
  const late = Mind.fromJSON(state);
  const error = t.throws(() => late.registerExtension(new StrictNotes()), { message });
  t.true(error?.cause instanceof z.ZodError, 'the validator’s error is the cause');
  t.is(late.extensions.get('notes'), undefined);
  t.deepEqual((late.toJSON().extensions as Record<string, unknown>).notes, ['remember the milk']);
  t.deepEqual(late.attachExtension('notes', Notes, () => new Notes()).lines, ['remember the milk']);

  // Registered before the restore: the restore throws and leaves the mind as it was.
  const early = new Mind();
  early.registerExtension(new StrictNotes());
  early.addGoal({ description: 'Map orbits', criteria: 'orbits', priority: 100 });
  const before = JSON.stringify(early.toJSON());
  t.throws(() => early.restore(state), { message });
  t.is(JSON.stringify(early.toJSON()), before);
  t.is(early.cycle, 0);
  t.deepEqual(early.goals.all().map((g) => g.description), ['Map orbits']);
});

test('restoring a state saved without a registered extension puts that extension back as it was registered, as the rest of the mind is replaced', (t) => {
  const mind = new Mind();
  const notes = new Notes();
  notes.lines.push('kept from before registration');
  mind.registerExtension(notes);
  notes.lines.push('goal-1: plan A');
  mind.addGoal({ description: 'Find moons of Mars' });
  mind.restore(new Mind().toJSON());
  t.deepEqual(mind.goals.all(), [], 'the goals are replaced');
  t.deepEqual(notes.lines, ['kept from before registration'], 'the extension is as it was registered, not holding what it held for the goals gone');
  const withNotes = mind.toJSON();
  notes.lines = ['later'];
  mind.restore(withNotes);
  t.deepEqual(notes.lines, ['kept from before registration'], 'a state saved with the extension loads its own part, as before');
});

test('an extension put back as it was registered gets its own copy of that state: what it adds later is gone at the next such restore', (t) => {
  const mind = new Mind();
  const notes = new Notes();
  notes.lines.push('as registered');
  mind.registerExtension(notes);
  const without = new Mind().toJSON();
  mind.restore(without);
  notes.lines.push('added after the restore');
  mind.restore(without);
  t.deepEqual(notes.lines, ['as registered']);
});
