import test from 'ava';
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

test('state restored before an extension is registered loads into it when it is', (t) => {
  const saved = new Mind();
  const notes = saved.attachExtension('notes', Notes, () => new Notes());
  notes.lines.push('remember the milk');
  const restored = Mind.fromJSON(JSON.parse(JSON.stringify(saved.toJSON())));
  t.deepEqual(restored.attachExtension('notes', Notes, () => new Notes()).lines, ['remember the milk']);
});
