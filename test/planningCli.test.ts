import test from 'ava';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = process.cwd();
const ooda = ['--import=tsx', join(root, 'bin', 'ooda.ts')];
const knowledge = join(root, 'demo', 'knowledge.ndjson');

test('ooda plan prints the current plan of each active goal', (t) => {
  const out = spawnSync('node', [...ooda, 'plan', '--kg', knowledge, '--goal', 'Find moons of Mars', '--goal', 'compare similar planets'], { encoding: 'utf8', timeout: 30_000 });
  t.is(out.status, 0, out.stderr);
  t.regex(out.stdout, /^goal-1 "Find moons of Mars" \(priority 128, 0 cycle\(s\) worked\)\n  plan-1: attempt 0, Knowledge strategy, explore-first, Active\n    0\. \[Active\] +kg_query /);
  t.regex(out.stdout, /goal-2 "compare similar planets" .*\n  plan-2: attempt 0, Similarity strategy, explore-first, Active/);
});

test('ooda reflect runs a reflection and prints its adjustments', (t) => {
  const out = spawnSync('node', [...ooda, 'reflect', '--kg', knowledge, '--goal', 'Find planets and moons of Jupiter', '--goal', 'Learn what mammals have', '--cycles', '3'], { encoding: 'utf8', timeout: 30_000 });
  t.is(out.status, 0, out.stderr);
  t.regex(out.stdout, /^reflection 1 \(command\) over [1-3] cycle\(s\); memory pressure \d\.\d\d\nadjustments:/);
  t.regex(out.stdout, /\ntools:\n  kg_query +\d+\/\d+ ok/);
  t.regex(out.stdout, /\npsyche: dominant \w+/);
});

test('ooda plan and ooda reflect at --cycles 0 print no max-cycles warning: their goals come from flags, not from input that goes on', (t) => {
  for (const command of ['plan', 'reflect']) {
    const out = spawnSync('node', [...ooda, command, '--kg', knowledge, '--goal', 'Find moons of Mars', '--cycles', '0'], { encoding: 'utf8', timeout: 30_000 });
    t.is(out.status, 0, out.stderr);
    t.regex(out.stdout, command === 'plan' ? /^goal-1 "Find moons of Mars"/ : /^reflection 1 \(command\) over 0 cycle\(s\)/, command);
    t.is(out.stderr, '', command);
  }
});

test('ooda plan names a bad flag and exits 2', (t) => {
  const out = spawnSync('node', [...ooda, 'plan', '--cycles', 'many'], { encoding: 'utf8', timeout: 30_000 });
  t.is(out.status, 2);
  t.regex(out.stderr, /--cycles: expected a whole number, got "many"/);
});

/**
 * Drives `ooda repl` through a real pseudo-terminal (util-linux `script`
 * allocates it), typing one line after the previous answer has appeared.
 */
test('the REPL answers plan and reflect through a pseudo-terminal', async (t) => {
  const command = `node ${ooda.join(' ')} repl --kg ${knowledge} --goal 'Find stars, classify planets, and map orbits'`;
  const child = spawn('script', ['-qfc', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const deadline = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const waitFor = async (pattern: RegExp, from: number): Promise<string> => {
    for (let i = 0; i < 300 && !pattern.test(output.slice(from)); i++) await new Promise((r) => setTimeout(r, 100));
    const seen = output.slice(from);
    t.regex(seen, pattern);
    return seen;
  };
  try {
    await waitFor(/ooda> /, 0);
    const type = (line: string) => {
      const mark = output.length;
      child.stdin.write(`${line}\n`);
      return mark;
    };
    let mark = type('p');
    const plans = await waitFor(/plan-1: attempt 0, \w+ strategy, explore-first, Active[\s\S]*ooda> /, mark);
    t.regex(plans, /\[Active\] +kg_query/);
    mark = type('s 2');
    await waitFor(/decide goal-1: kg_query .* plan=\+0\.20\][\s\S]*act +goal-1: kg_query ok[\s\S]*ooda> /, mark);
    mark = type('reflect');
    const reflection = await waitFor(/reflection \d+ \(command\) over \d+ cycle\(s\)[\s\S]*psyche: dominant[\s\S]*ooda> /, mark);
    t.regex(reflection, /kg_query +\d+\/\d+ ok/);
    type('q');
    t.is(await exited, 0);
    t.regex(output, /session stopped \(quit\)/);
  } finally {
    clearTimeout(deadline);
    child.kill();
  }
});

test('ooda plan and ooda reflect report on stderr a loopDetection setting that fell back to its default', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-plan-warn-'));
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ loopDetection: { windowSize: 0 } }));
  for (const command of ['plan', 'reflect']) {
    const out = spawnSync('node', [...ooda, command, '--config', config, '--goal', 'Find moons of Mars'], { encoding: 'utf8', timeout: 30_000 });
    t.is(out.status, 0, out.stderr);
    t.regex(out.stderr, /warning: loopDetection\.windowSize = 0 is invalid .*; using the default 5/, command);
  }
});

test('ooda plan and ooda reflect name the --kg file and line of a rejected line, as run --format pretty and repl do', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ooda-plan-rejected-'));
  const bad = join(dir, 'bad.ndjson');
  writeFileSync(bad, ['{"type":"fact","subject":"Mars","predicate":"has moon","object":"Phobos"}', '{"type":"fact","subject":"!!","predicate":"b","object":"c"}', 'not json', ''].join('\n'));
  for (const command of ['plan', 'reflect']) {
    const out = spawnSync('node', [...ooda, command, '--kg', bad, '--goal', 'Find moons of Mars', '--cycles', '0'], { encoding: 'utf8', timeout: 30_000 });
    t.is(out.status, 0, out.stderr);
    t.deepEqual(
      out.stderr.split('\n').filter(Boolean),
      [
        `ooda: rejected ${bad}:2: invalid fact signal: subject: "!!" normalises to an empty symbol (symbols keep only letters, digits, ":", "_", "-", "+", "#" and a "." that starts a word)`,
        `ooda: rejected ${bad}:3: not JSON: Unexpected token 'o', "not json" is not valid JSON`,
      ],
      command,
    );
  }
});
