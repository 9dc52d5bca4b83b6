// Runs the code blocks of a markdown guide in order, as a reader would in one terminal, and checks each
// command's output against the output block the guide shows after it. Used by tests/docs/quickstart.test.ts and
// the quickstart journey (tests/journeys/quickstart.test.ts).
//
// The blocks a guide gives, by the info string of their fence:
// - `sh` (or `bash`, `shell`): commands. All of them run in one bash process, in order, with `set -euo
//   pipefail` (a failing command, a failing pipeline or an unset variable stops the run), as a script: without
//   job control, so a guide's stop commands must stop what it started the way they would in a reader's script
//   (by process id, not `kill %1`, which there stops only the job's first process). A curl error on stderr
//   (`curl: (7) Failed to connect`) is a problem even when the block goes on: the reader sees it.
// - `sh install=NAME`: commands that install what the guide needs, one block per way of installing it (the
//   published package, a tarball packed from the repository). A run keeps the blocks of one way, or none when
//   the test installs by itself (`installSteps`). What npm prints changes with npm and the registry: an install
//   block's output is not compared.
// - `<lang> file=NAME`: a file the reader saves; it is written to NAME where it appears.
// - `<lang> output`: what the commands block just before it prints on stdout. Compared line by line, trailing
//   spaces and blank lines aside; `<name>` in a line stands for any non-empty text.
// - any other block is not run; `unrunBlocks` lists them, so a guide meant to run in full can refuse them.

export type Step =
  | { kind: 'commands'; code: string; line: number; output?: { text: string; line: number }; install?: string }
  | { kind: 'file'; name: string; code: string; line: number };

export interface Block {
  info: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
}

const SHELLS = new Set(['sh', 'bash', 'shell']);

/** The fenced code blocks of a markdown text (``` or ~~~ fences, up to three spaces of indentation). */
export function fencedBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !new RegExp(`^ {0,3}${fence[0]}{${fence.length},}\\s*$`).test(lines[j]!)) body.push(lines[j++]!);
    if (j === lines.length) throw new Error(`line ${i + 1}: code block is not closed`);
    blocks.push({ info: open[2]!.trim(), code: body.join('\n'), line: i + 1 });
    i = j;
  }
  return blocks;
}

function words(info: string): { lang: string; attrs: string[] } {
  const [lang = '', ...attrs] = info.split(/\s+/).filter(Boolean);
  return { lang, attrs };
}

/** The steps of a guide, in order. Throws on an output block that follows no commands block. */
export function extractSteps(markdown: string): Step[] {
  const steps: Step[] = [];
  for (const block of fencedBlocks(markdown)) {
    const { lang, attrs } = words(block.info);
    const file = attrs.find((a) => a.startsWith('file='))?.slice(5);
    if (attrs.includes('output')) {
      const last = steps.at(-1);
      if (last?.kind !== 'commands' || last.output)
        throw new Error(`line ${block.line}: an output block must follow a commands block (\`\`\`sh) directly`);
      last.output = { text: block.code, line: block.line };
    } else if (file !== undefined) {
      if (!/^[\w.-]+$/.test(file)) throw new Error(`line ${block.line}: file name "${file}" must be letters, digits, ".", "_" or "-"`);
      steps.push({ kind: 'file', name: file, code: block.code, line: block.line });
    } else if (SHELLS.has(lang)) {
      const install = attrs.find((a) => a.startsWith('install='))?.slice(8);
      steps.push({ kind: 'commands', code: block.code, line: block.line, ...(install === undefined ? {} : { install }) });
    }
  }
  return steps;
}

/**
 * The steps of one way of installing (`sh install=NAME` blocks of that name, and every block that installs
 * nothing); with `undefined`, of none. Throws when the guide has no block of that way.
 */
export function installSteps(steps: Step[], way: string | undefined): Step[] {
  if (way !== undefined && !steps.some((s) => s.kind === 'commands' && s.install === way))
    throw new Error(`no \`sh install=${way}\` block`);
  return steps.filter((s) => s.kind !== 'commands' || s.install === undefined || s.install === way);
}

/** The blocks that are neither commands, a file nor an output. */
export function unrunBlocks(markdown: string): Block[] {
  return fencedBlocks(markdown).filter((b) => {
    const { lang, attrs } = words(b.info);
    return !SHELLS.has(lang) && !attrs.includes('output') && !attrs.some((a) => a.startsWith('file='));
  });
}

/**
 * Gives each variable of `values` a new value: its one assignment in the commands (`NAME=old`) gets the new
 * value, and every output shows the new value where it showed the old one. Throws when a variable is not
 * assigned exactly once, or when its old value appears in a command or file other than through the variable.
 */
export function substitute(steps: Step[], values: Record<string, string>): Step[] {
  let out = steps.map((s) => ({ ...s, ...(s.kind === 'commands' && s.output ? { output: { ...s.output } } : {}) })) as Step[];
  for (const [name, value] of Object.entries(values)) {
    const assignment = new RegExp(`(?<![\\w$])${name}=([\\w.:/-]+)`, 'g');
    const found = out.flatMap((s) => (s.kind === 'commands' ? [...s.code.matchAll(assignment)].map((m) => m[1]!) : []));
    if (found.length !== 1) throw new Error(`${name} must be assigned exactly once in the commands (found ${found.length})`);
    const old = found[0]!;
    const literal = new RegExp(`(?<![\\w.])${old.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?![\\w])`, 'g');
    for (const s of out) {
      const rest = s.kind === 'commands' ? s.code.replace(assignment, '') : s.code;
      if (literal.test(rest)) throw new Error(`line ${s.line}: ${old} is written out; use $${name}`);
      literal.lastIndex = 0;
    }
    out = out.map((s) => {
      if (s.kind !== 'commands') return s;
      return {
        ...s,
        code: s.code.replace(assignment, `${name}=${value}`),
        ...(s.output ? { output: { ...s.output, text: s.output.text.replace(literal, value) } } : {}),
      };
    });
  }
  return out;
}

/**
 * Compares what a step printed with the output the guide shows. Returns undefined when they match, else a
 * message naming the first line that differs.
 */
export function compareOutput(expected: string, actual: string): string | undefined {
  const clean = (text: string) =>
    text
      .split('\n')
      .map((l) => l.trimEnd())
      .join('\n')
      .replace(/^\n+|\n+$/g, '')
      .split('\n');
  const want = clean(expected);
  const got = clean(actual);
  for (let i = 0; i < Math.max(want.length, got.length); i++) {
    const w = want[i];
    const g = got[i];
    if (w === undefined) return `line ${i + 1}: unexpected "${g}"`;
    if (g === undefined) return `line ${i + 1}: expected "${w}", got nothing`;
    const pattern = new RegExp(
      `^${w
        .split(/<[\w-]+>/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.+?')}$`,
    );
    if (!pattern.test(g)) return `line ${i + 1}: expected "${w}", got "${g}"`;
  }
  return undefined;
}

const MARK = '@@guide-step';

/** The bash script of the steps: each step between markers on stdout and stderr. */
export function script(steps: Step[]): string {
  const parts = ['set -euo pipefail', 'trap "exit 143" TERM', "trap 'for j in $(jobs -p); do kill $j 2> /dev/null || true; done' EXIT"];
  steps.forEach((step, i) => {
    parts.push(`printf '${MARK} ${i} begin@@\\n'; printf '${MARK} ${i} begin@@\\n' >&2`);
    if (step.kind === 'file') {
      const eof = `__GUIDE_FILE_${i}__`;
      if (step.code.includes(eof)) throw new Error(`line ${step.line}: the file contains ${eof}`);
      parts.push(`cat > '${step.name}' <<'${eof}'\n${step.code}\n${eof}`);
    } else {
      parts.push(step.code);
    }
    parts.push(`printf '\\n${MARK} ${i} end@@\\n'`);
  });
  return `${parts.join('\n')}\n`;
}

export interface StepResult {
  step: Step;
  stdout: string;
  stderr: string;
  /** The step ran to its end. */
  finished: boolean;
}

/** Splits the run's stdout and stderr at the markers: what each step printed, and whether it finished. */
export function splitOutput(steps: Step[], stdout: string, stderr: string): StepResult[] {
  const parse = (text: string) => {
    const parts = new Map<number, { text: string; finished: boolean }>();
    const re = new RegExp(`${MARK} (\\d+) (begin|end)@@\\n`, 'g');
    let current: number | undefined;
    let from = 0;
    for (const m of text.matchAll(re)) {
      if (current !== undefined) parts.get(current)!.text += text.slice(from, m.index);
      const index = Number(m[1]);
      if (m[2] === 'begin') {
        parts.set(index, { text: '', finished: false });
        current = index;
      } else {
        const part = parts.get(index)!;
        part.finished = true;
        part.text = part.text.replace(/\n$/, ''); // the newline printed before the end marker
        current = undefined;
      }
      from = m.index + m[0].length;
    }
    if (current !== undefined) parts.get(current)!.text += text.slice(from);
    return parts;
  };
  const out = parse(stdout);
  const err = parse(stderr);
  return steps.flatMap((step, i) => {
    const o = out.get(i);
    return o ? [{ step, stdout: o.text, stderr: err.get(i)?.text ?? '', finished: o.finished }] : [];
  });
}

/** Problems of a run: the step that did not finish, and every output that differs from the guide's. */
export function problems(results: StepResult[], steps: Step[], exit: { code: number | null; signal: string | null }): string[] {
  const found: string[] = [];
  for (const r of results) {
    if (!r.finished) {
      found.push(
        `the block at line ${r.step.line} failed (exit ${exit.code ?? exit.signal}):\n${r.step.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`,
      );
      continue;
    }
    if (r.step.kind === 'commands' && r.step.output) {
      const diff = compareOutput(r.step.output.text, r.stdout);
      if (diff) found.push(`the output at line ${r.step.output.line} differs, ${diff}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`);
    } else if (r.step.kind === 'commands' && r.step.install === undefined && r.stdout.trim() !== '') {
      found.push(`the block at line ${r.step.line} printed output the guide does not show:\n${r.stdout}`);
    }
    const curl = r.stderr.split('\n').filter((l) => /^curl: \(\d+\)/.test(l));
    if (curl.length > 0) found.push(`the block at line ${r.step.line} printed curl errors:\n${curl.join('\n')}`);
  }
  if (results.length < steps.length && results.every((r) => r.finished)) {
    found.push(`the run stopped (exit ${exit.code ?? exit.signal}) before the block at line ${steps[results.length]!.line}`);
  }
  if (found.length === 0 && exit.code !== 0) found.push(`the run exited with ${exit.code ?? exit.signal}`);
  return found;
}

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The whole run is stopped (SIGTERM to bash, whose exit stops its background jobs) after this long. */
  timeoutMs: number;
}

export interface RunResult {
  results: StepResult[];
  problems: string[];
  /** Commands run: the non-blank, non-comment lines of the commands blocks that ran (a continued line counts once). */
  commands: number;
  ms: number;
}

/** The commands of a block: its lines, with `\`-continued lines joined, blank lines and comments left out. */
export function commandLines(code: string): string[] {
  return code
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/** Runs the steps in one bash process in `cwd`, and checks them (see `problems`). */
export async function runSteps(steps: Step[], options: RunOptions): Promise<RunResult> {
  const { spawn } = await import('node:child_process');
  const started = performance.now();
  const child = spawn('bash', ['-c', script(steps)], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => {
    stderr += `\n(stopped after ${options.timeoutMs} ms)\n`;
    child.kill('SIGTERM');
  }, options.timeoutMs);
  const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  clearTimeout(timer);
  // Whatever the guide left running is still in bash's process group (no job control): stop it, so that a
  // failing guide leaves no server behind. The guide's own test checks its stop commands before this.
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // the group is empty
  }
  const results = splitOutput(steps, stdout, stderr);
  const commands = results.filter((r) => r.step.kind === 'commands').reduce((n, r) => n + commandLines(r.step.code).length, 0);
  return { results, problems: problems(results, steps, exit), commands, ms: performance.now() - started };
}
