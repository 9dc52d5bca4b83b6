// YAML syntax errors of a workspace's spec/, one line each: a typo is reported once, where it is, instead
// of through every tool that reads the file (the lint's code frames, the bundler's unresolved $refs).
import fs from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';

/** `spec/<file>:<line>:<column>: <what>` for the first syntax error of each file that has one. */
export function yamlSyntaxErrors(workspace: string): string[] {
  const spec = path.join(workspace, 'spec');
  const problems: string[] = [];
  for (const entry of fs.readdirSync(spec, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.ya?ml$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const [first] = parseDocument(fs.readFileSync(file, 'utf8'), { prettyErrors: true }).errors;
    if (!first) continue;
    const what = first.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    const at = first.linePos?.[0];
    problems.push(`${path.relative(workspace, file)}:${at ? `${at.line}:${at.col}` : '1'}: YAML syntax error: ${what}`);
  }
  return problems.sort();
}
