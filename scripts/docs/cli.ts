// npm run docs: builds the contract (npm run build), then the docs site into site/ (gitignored).
// Here only the site step; the npm script runs the build first.
import path from 'node:path';
import { buildSite, SITE_DIR } from './site.ts';
import { ROOT } from '../lib/paths.ts';
import { parseCli, runCli } from '../lib/cli-parser.ts';

const USAGE = `Usage: npm run docs [-- --out <dir>] [--generated <dir>]
  --out <dir>        where to write the site (default site/)
  --generated <dir>  where the bundles are (default generated/)`;

async function main(): Promise<number> {
  const args = parseCli(process.argv.slice(2), { usage: USAGE, options: { out: { type: 'string' }, generated: { type: 'string' } } });
  if (!args) return 0;
  const site = await buildSite(
    args.values.out ? path.resolve(args.values.out) : SITE_DIR,
    args.values.generated ? path.resolve(args.values.generated) : undefined,
  );
  for (const missing of site.missingGuides) console.warn(`warning: ${missing} is missing; the site is built without it`);
  console.log(
    `Docs site written to ${path.relative(ROOT, site.outDir) || '.'}/ (${site.files.join(', ')}); ` +
      `${site.pages} pages; ${site.provisionalCount} provisional parts listed, ${site.badgeCount} operations badged "Provisional"; ` +
      `${site.seconds.toFixed(1)} s`,
  );
  return 0;
}

await runCli('docs', USAGE, main);
