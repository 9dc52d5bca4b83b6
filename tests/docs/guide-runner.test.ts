// The runner of tests/docs/quickstart.test.ts on small guides: what it extracts, and that a broken command,
// a wrong output, an unset variable or a hang fails the run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commandLines, compareOutput, extractSteps, installSteps, runSteps, substitute, unrunBlocks } from './guide-runner.ts';

const fence = '```';
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** Whether a process runs (a zombie, killed but not yet reaped, does not). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Whether the process ends within two seconds (a signal takes a moment to end it). */
async function ends(pid: number): Promise<boolean> {
  for (let i = 0; i < 40 && running(pid); i++) await new Promise((r) => setTimeout(r, 50));
  return !running(pid);
}

async function run(markdown: string, timeoutMs = 10_000) {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'guide-runner-'));
  dirs.push(cwd);
  return { cwd, ...(await runSteps(extractSteps(markdown), { cwd, env: process.env, timeoutMs })) };
}

const guide = (...blocks: string[]) => `# A guide\n\nSome text.\n\n${blocks.join('\n\nMore text.\n\n')}\n`;
const sh = (code: string) => `${fence}sh\n${code}\n${fence}`;
const output = (text: string, lang = 'text') => `${fence}${lang} output\n${text}\n${fence}`;

describe('extracting the steps of a guide', () => {
  it('takes commands, files and the output shown after commands, in order, and lists the other blocks', () => {
    const md = guide(
      sh('A=1\necho "$A"'),
      output('1'),
      `${fence}ts file=hello.ts\nconsole.log('hi');\n${fence}`,
      `${fence}bash\nnpx tsx hello.ts\n${fence}`,
      `${fence}json\n{ "shown": "only" }\n${fence}`,
    );
    const steps = extractSteps(md);
    expect(steps).toEqual([
      { kind: 'commands', code: 'A=1\necho "$A"', line: 5, output: { text: '1', line: 12 } },
      { kind: 'file', name: 'hello.ts', code: "console.log('hi');", line: 18 },
      { kind: 'commands', code: 'npx tsx hello.ts', line: 24 },
    ]);
    expect(unrunBlocks(md).map((b) => [b.info, b.line])).toEqual([['json', 30]]);
  });

  it('refuses an output that follows no commands, a second output, an odd file name and an unclosed block', () => {
    expect(() => extractSteps(guide(output('x')))).toThrow('line 5: an output block must follow a commands block');
    expect(() => extractSteps(guide(sh('echo 1'), output('1'), output('1')))).toThrow('must follow a commands block');
    expect(() => extractSteps(guide(`${fence}ts file=../x.ts\n${fence}`))).toThrow('file name "../x.ts"');
    expect(() => extractSteps(`${fence}sh\necho 1\n`)).toThrow('line 1: code block is not closed');
  });

  it('keeps the install blocks of one way, or of none, and refuses a way the guide does not give', () => {
    const md = guide(
      `${fence}sh install=published\nnpm install pkg\n${fence}`,
      `${fence}sh install=tarball\nnpm install ./pkg.tgz\n${fence}`,
      sh('echo run'),
    );
    const steps = extractSteps(md);
    expect(steps.map((s) => s.kind === 'commands' && s.install)).toEqual(['published', 'tarball', undefined]);
    expect(installSteps(steps, 'tarball').map((s) => s.code)).toEqual(['npm install ./pkg.tgz', 'echo run']);
    expect(installSteps(steps, undefined).map((s) => s.code)).toEqual(['echo run']);
    expect(() => installSteps(steps, 'git')).toThrow('no `sh install=git` block');
  });

  it('counts the commands of a block: continued lines once, no blanks or comments', () => {
    expect(commandLines('# start\nA=1\n\ncurl -sS x \\\n  | jq .\n')).toEqual(['A=1', 'curl -sS x    | jq .']);
  });
});

describe('comparing an output with the guide', () => {
  it('matches line by line, <name> standing for any text', () => {
    expect(compareOutput('{"code":"<code>","n":1}\nok', '{"code":"7c9e-1","n":1}\nok\n')).toBeUndefined();
    expect(compareOutput('a  \n\n', 'a')).toBeUndefined();
    expect(compareOutput('{"n":1}', '{"n":2}')).toBe('line 1: expected "{"n":1}", got "{"n":2}"');
    expect(compareOutput('a\nb', 'a')).toBe('line 2: expected "b", got nothing');
    expect(compareOutput('a', 'a\nb')).toBe('line 2: unexpected "b"');
    expect(compareOutput('id <id>', 'id ')).toBe('line 1: expected "id <id>", got "id"');
    expect(compareOutput('x.y', 'xzy')).toBeDefined();
  });
});

describe('giving variables new values', () => {
  const steps = extractSteps(guide(sh('export PORT=4020\ncurl "http://127.0.0.1:$PORT/"'), output('http://127.0.0.1:4020/ 14020')));

  it('changes the assignment and the outputs, not other numbers', () => {
    const [step] = substitute(steps, { PORT: '51234' });
    expect(step).toMatchObject({
      code: 'export PORT=51234\ncurl "http://127.0.0.1:$PORT/"',
      output: { text: 'http://127.0.0.1:51234/ 14020' },
    });
    expect(steps[0]).toMatchObject({ code: 'export PORT=4020\ncurl "http://127.0.0.1:$PORT/"' });
  });

  it('refuses a variable assigned twice or never, and a value written out instead of the variable', () => {
    expect(() => substitute(steps, { OTHER: '1' })).toThrow('OTHER must be assigned exactly once in the commands (found 0)');
    expect(() => substitute(extractSteps(guide(sh('PORT=1\nPORT=2'))), { PORT: '3' })).toThrow('found 2');
    expect(() => substitute(extractSteps(guide(sh('PORT=4020\ncurl http://127.0.0.1:4020/'))), { PORT: '5' })).toThrow(
      'line 5: 4020 is written out; use $PORT',
    );
  });
});

describe('running a guide', () => {
  it('runs the blocks in one shell, writes the files, and passes when every output matches', async () => {
    const result = await run(
      guide(
        sh('NAME=world'),
        `${fence}txt file=greeting.txt\nhello\n${fence}`,
        sh('echo "$(cat greeting.txt) $NAME"\necho "id $RANDOM"'),
        output('hello world\nid <n>'),
      ),
    );
    expect(result.problems).toEqual([]);
    expect(result.results.map((r) => r.finished)).toEqual([true, true, true]);
    expect(fs.readFileSync(path.join(result.cwd, 'greeting.txt'), 'utf8')).toBe('hello\n');
    expect(result.commands).toBe(3);
  });

  it('fails on a broken command, names its block, and runs nothing after it', async () => {
    const result = await run(
      guide(sh('echo one'), output('one'), sh('echo two\ncurl -sS --fail http://127.0.0.1:9/nothing\necho three'), sh('touch after')),
    );
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatch(/^the block at line 17 failed \(exit 7\):\necho two\ncurl/);
    expect(result.problems[0]).toContain('--- stdout\ntwo');
    expect(result.problems[0]).toMatch(/--- stderr\ncurl: \(7\)/);
    expect(fs.existsSync(path.join(result.cwd, 'after'))).toBe(false);
  });

  it('fails on a command not found, a failure inside a pipeline and an unset variable', async () => {
    for (const code of ['no-such-command --flag', 'false | cat', 'echo "$MISPELT_VARIABLE"']) {
      const result = await run(guide(sh(code)));
      expect(result.problems, code).toHaveLength(1);
      expect(result.problems[0], code).toMatch(/^the block at line 5 failed/);
    }
  });

  it('fails when an output differs from the guide, or when a block prints what the guide does not show', async () => {
    const wrong = await run(guide(sh('echo \'{"balance":130}\''), output('{"balance":131}', 'json')));
    expect(wrong.problems).toEqual([
      'the output at line 11 differs, line 1: expected "{"balance":131}", got "{"balance":130}"\n--- stdout\n{"balance":130}\n\n--- stderr\n',
    ]);
    const unshown = await run(guide(sh('echo surprise')));
    expect(unshown.problems).toEqual(['the block at line 5 printed output the guide does not show:\nsurprise\n']);
  });

  it('fails on a curl error the reader sees, even when the block goes on', async () => {
    const result = await run(guide(sh('curl -sS http://127.0.0.1:9/ || echo "not yet"'), output('not yet')));
    expect(result.results.map((r) => r.finished)).toEqual([true]);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatch(/^the block at line 5 printed curl errors:\ncurl: \(7\) /);
  });

  it("does not compare an install block's output, which is npm's", async () => {
    const result = await run(guide(`${fence}sh install=tarball\necho "added 1 package in 1s"\n${fence}`));
    expect(result.problems).toEqual([]);
  });

  it('stops a run that hangs, and the background jobs it started', async () => {
    const result = await run(guide(sh('sleep 30 &\necho $! > job.pid'), sh('until false; do sleep 0.1; done')), 1_500);
    expect(result.problems[0]).toMatch(/^the block at line 12 failed \(exit 143\)/);
    expect(result.problems[0]).toContain('(stopped after 1500 ms)');
    const pid = Number(fs.readFileSync(path.join(result.cwd, 'job.pid'), 'utf8'));
    expect(await ends(pid)).toBe(true);
  });

  it('stops the background jobs of a run that ends, as a terminal closing would', async () => {
    const result = await run(guide(sh('sleep 30 &\necho $! > job.pid')));
    expect(result.problems).toEqual([]);
    const pid = Number(fs.readFileSync(path.join(result.cwd, 'job.pid'), 'utf8'));
    expect(await ends(pid)).toBe(true);
  });
});
