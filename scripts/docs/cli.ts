// npm run docs: builds the contract (npm run build), then the rendered docs site into site/ (gitignored).
// Here only the site step; the npm script runs the build first. Options:
//   --out <dir>          where to write the site (default site/)
//   --generated <dir>    where the bundles are (default generated/)
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildSite, SITE_DIR } from './site.ts';
import { ROOT } from '../lib/paths.ts';

const { values } = parseArgs({ options: { out: { type: 'string' }, generated: { type: 'string' } } });

try {
  const site = await buildSite(
    values.out ? path.resolve(values.out) : SITE_DIR,
    values.generated ? path.resolve(values.generated) : undefined,
  );
  for (const missing of site.missingGuides) console.warn(`warning: ${missing} is missing; the site is built without it`);
  console.log(
    `Docs site written to ${path.relative(ROOT, site.outDir) || '.'}/ (${site.files.join(', ')}); ` +
      `${site.pages} pages; ${site.provisionalCount} provisional parts listed, ${site.badgeCount} operations badged "Provisional"; ` +
      `${site.seconds.toFixed(1)} s`,
  );
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
