import test from 'ava';
import { ConfigError, resolveConfig } from '../streams/config.js';
import { createAgent } from '../streams/createAgent.js';

for (const workspace of ['', '   ']) {
  test(`tools.workspace ${JSON.stringify(workspace)} is refused by the config schema, naming the key`, (t) => {
    const error = t.throws(() => resolveConfig([{ origin: 'file ooda.json', values: { tools: { workspace } } }]), { instanceOf: ConfigError });
    t.is(
      error?.message,
      `config file ooda.json: tools.workspace: must name a folder (empty would let file_io use the working directory); use e.g. "./workspace" (got ${JSON.stringify(workspace)})`,
    );
  });
}

test('createAgent refuses an empty tools.workspace', (t) => {
  const error = t.throws(() => createAgent({ config: { tools: { workspace: '' } } }));
  t.regex(error!.message, /must name a folder/);
});

test('a named workspace is still accepted', (t) => {
  t.is(resolveConfig([{ origin: 'flags', values: { tools: { workspace: 'ws' } } }]).tools.workspace, 'ws');
});
