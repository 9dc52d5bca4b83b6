// npm run check:version -- [--tag v<version>]
// The package's version is the contract's: package.json `version` equals `info.version` of both bundles
// (the bump is the one `npm run diff` requires), and a release tag names that version. The tag workflow runs
// it with the pushed tag before publishing; CI runs it without.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError, parseCli, runCli } from '../lib/cli-parser.ts';
import { ROOT } from '../lib/paths.ts';

const USAGE = `Usage: npm run check:version [-- --tag v<version>]
  --tag  the release tag (v2.1.0), which must name package.json's version`;

/** What disagrees: package.json's version, the bundles' info.version and the tag ([] when all agree). */
export function versionProblems(root = ROOT, tag?: string): string[] {
  const read = (file: string) =>
    JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as { version?: string; info?: { version?: string } };
  const version = read('package.json').version;
  const problems: string[] = [];
  for (const bundle of ['generated/openapi.json', 'generated/asyncapi.json']) {
    const contract = read(bundle).info?.version;
    if (contract !== version)
      problems.push(
        `package.json version ${version} is not ${bundle}'s info.version ${contract}: set both to the version npm run diff requires`,
      );
  }
  if (tag !== undefined && tag !== `v${version}`)
    problems.push(`the tag ${tag} does not name the package's version ${version} (expected v${version})`);
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runCli('check:version', USAGE, async () => {
    const args = parseCli(process.argv.slice(2), { usage: USAGE, options: { tag: { type: 'string' } } });
    if (!args) return 0;
    const problems = versionProblems(ROOT, args.values.tag);
    if (problems.length > 0) throw new CliError(problems.join('; '));
    console.log(
      `check:version: package.json, generated/openapi.json and generated/asyncapi.json are at ${JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version}${args.values.tag ? `, as the tag ${args.values.tag} says` : ''}.`,
    );
    return 0;
  });
}
