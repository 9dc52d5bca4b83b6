// The package's README: npm always ships the README.md at the root, which is this repository's (how to work
// on the contract). A partner installing the package needs another one (install, client, webhooks, sandbox,
// test kit, links to the published docs): docs/package-readme.md. `npm pack` and `npm publish` put it in place
// for the time of the packing: `prepack` runs `swap`, `postpack` runs `restore`.
//
//   node scripts/package/readme.ts swap      README.md kept aside in .tmp/package/, docs/package-readme.md in its place
//   node scripts/package/readme.ts restore   README.md back (also run by `swap` first, after a pack that died)
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../lib/paths.ts';
import { runCli, UsageError } from '../lib/cli-parser.ts';

const README = path.join(ROOT, 'README.md');
const PACKAGE_README = path.join(ROOT, 'docs', 'package-readme.md');
const KEPT = path.join(ROOT, '.tmp', 'package', 'README.repository.md');
const USAGE = 'Usage: node scripts/package/readme.ts swap|restore';

function restore(): void {
  if (fs.existsSync(KEPT)) fs.renameSync(KEPT, README);
}

function swap(): void {
  restore();
  fs.mkdirSync(path.dirname(KEPT), { recursive: true });
  fs.copyFileSync(README, KEPT);
  fs.copyFileSync(PACKAGE_README, README);
}

await runCli('package readme', USAGE, async () => {
  const [action, ...rest] = process.argv.slice(2);
  if (rest.length > 0 || (action !== 'swap' && action !== 'restore'))
    throw new UsageError(`expected swap or restore, got "${process.argv.slice(2).join(' ')}"`);
  if (action === 'swap') swap();
  else restore();
  return 0;
});
