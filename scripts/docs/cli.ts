// npm run docs: builds the contract (npm run build), then the rendered docs site into site/ (gitignored).
// Here only the site step; the npm script runs the build first. Options:
//   --out <dir>          where to write the site (default site/)
//   --generated <dir>    where the bundles are (default generated/)
import path from 'node:path';
import { buildSite, SITE_DIR } from './site.ts';
import { parseCli, reportCliError } from '../lib/cli-args.ts';
import { ROOT } from '../lib/paths.ts';

const USAGE = `Usage: npm run docs [-- --out <dir>] [--generated <dir>]
  --out <dir>        where to write the site (default site/)
  --generated <dir>  where the bundles are (default generated/)`;

try {
  const args = parseCli(process.argv.slice(2), { usage: USAGE, options: { out: { type: 'string' }, generated: { type: 'string' } } });
  if (!args) process.exit(0);
  const { values } = args;
  const site = await buildSite(
    values.out ? path.resolve(values.out) : SITE_DIR,
    values.generated ? path.resolve(values.generated) : undefined,
  );
  for (const missing of site.missingGuides) console.warn(`warning: docs/${missing} is missing; the site is built without it`);
  console.log(
    `Docs site written to ${path.relative(ROOT, site.outDir) || '.'}/ (${site.files.join(', ')}); ` +
      `${site.provisionalCount} provisional parts listed, ${site.badgeCount} operations badged "Provisional"; ${site.seconds.toFixed(1)} s`,
  );
} catch (error) {
  process.exitCode = reportCliError('docs', USAGE, error);
}
