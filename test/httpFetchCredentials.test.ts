import test, { type ExecutionContext } from 'ava';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MindConfig } from '../mind/config.js';
import { Mind } from '../mind/mind.js';
import { ToolFailure } from '../mind/tool.js';
import { builtinTools } from '../mind/tools/index.js';
import type { Decision } from '../mind/toolSelection.js';
import type { RecordedEffect } from '../streams/effects.js';
import { runDecision } from './mindFixtures.js';

test('http_fetch never repeats the credentials of a URL (user:password@) in its errors, and sends no request with them', async (t) => {
  let asked = 0;
  const server = createServer((_, res) => (asked++, res.end('ok')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => (server.closeAllConnections(), server.close()));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const mind = new Mind({ config: MindConfig.parse({ tools: { httpAllowHosts: [host] } }), tools: builtinTools() });
  const goal = mind.addGoal({ description: 'fetch a page' });
  const fetchUrl = (url: string) => runDecision(mind, goal, { goalId: goal.id, tool: 'http_fetch', input: { url } } as Decision);
  const cases: [string, string][] = [
    [`http://alice:s3cret@${host}/page`, `http_fetch: refused http://***@${host}/page: a URL with credentials (user:password@) is not fetched`],
    [`http://:s3cret@${host}/page`, `http_fetch: refused http://***@${host}/page: a URL with credentials (user:password@) is not fetched`],
    [`ftp://alice:s3cret@${host}/file`, `http_fetch: refused ftp://***@${host}/file: a URL with credentials (user:password@) is not fetched`],
    ['http://alice:s3 cret@exa mple.com/', 'http_fetch: invalid input: url: "http://***@exa mple.com/" is not a URL'],
  ];
  for (const [url, message] of cases) {
    const error = await t.throwsAsync(fetchUrl(url), { instanceOf: ToolFailure });
    t.is(error!.message, message);
    t.notRegex(error!.message, /s3/);
  }
  t.is(asked, 0, 'no request was sent');
});

/** What http_fetch reports of a server on 127.0.0.1 that redirects to `location`. */
async function redirectReport(t: ExecutionContext, location: string): Promise<{ host: string; summary: string; recorded: string }> {
  const server = createServer((_, res) => res.writeHead(302, { location }).end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => (server.closeAllConnections(), server.close()));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const mind = new Mind({ config: MindConfig.parse({ tools: { httpAllowHosts: [host] } }), tools: builtinTools() });
  const goal = mind.addGoal({ description: 'fetch a page' });
  const effects: RecordedEffect[] = [];
  const out = await runDecision(mind, goal, { goalId: goal.id, tool: 'http_fetch', input: { url: `http://${host}/` } } as Decision, { record: (effect) => void effects.push(effect) });
  return { host, summary: out.summary, recorded: JSON.stringify(effects) };
}

test("http_fetch's report of a redirect it does not follow shows the target's credentials as ***@, and so does the effect it records", async (t) => {
  const { host, summary, recorded } = await redirectReport(t, 'https://bob:hunter2@elsewhere.example/login');
  t.is(summary, `GET http://${host}/ → 302 redirect to https://***@elsewhere.example/login (not followed)`);
  t.regex(recorded, /"location":"https:\/\/\*\*\*@elsewhere.example\/login"/);
  t.notRegex(recorded, /hunter2/);
});

test("http_fetch's report of a redirect to a scheme-relative target (//user@host) shows its credentials as ***@ too", async (t) => {
  const { host, summary } = await redirectReport(t, '//ghp_token123:x-oauth@elsewhere.example/login');
  t.is(summary, `GET http://${host}/ → 302 redirect to //***@elsewhere.example/login (not followed)`);
});
