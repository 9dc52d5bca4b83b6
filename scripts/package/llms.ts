// The docs the package ships: dist/llms-full.txt, every page of the docs site as markdown (the site's own
// llms-full.txt, scripts/docs/llms.ts), which the package's MCP server searches and quotes (src/mcp/docs.ts).
// `npm run build:lib` runs it after compiling src/ into dist/, so `npm pack` ships it.
//
//   node scripts/package/llms.ts [--out <file>]   (default dist/llms-full.txt)
import fs from 'node:fs';
import path from 'node:path';
import { assistantDocs } from '../docs/llms.ts';
import { readBundles, siteContent } from '../docs/site.ts';
import { ROOT } from '../lib/paths.ts';
import { parseCli, runCli } from '../lib/cli-parser.ts';

const USAGE = `Usage: node scripts/package/llms.ts [--out <file>]
  --out <file>  where to write llms-full.txt (default dist/llms-full.txt)`;

/** The site's llms-full.txt, from generated/ and the guides, without building the site. */
export function packageDocs(): string {
  const { openapi, asyncapi, sandbox } = readBundles();
  return assistantDocs(siteContent(openapi, asyncapi), { openapi, sandbox }).llmsFull;
}

if (import.meta.main) {
  await runCli('package docs', USAGE, async () => {
    const args = parseCli(process.argv.slice(2), { usage: USAGE, options: { out: { type: 'string' } } });
    if (!args) return 0;
    const out = path.resolve(args.values.out ?? path.join(ROOT, 'dist', 'llms-full.txt'));
    fs.mkdirSync(path.dirname(out), { recursive: true });
    // Silent, as tsc before it: `npm pack --json` prints the lifecycle scripts' output into its JSON.
    fs.writeFileSync(out, packageDocs());
    return 0;
  });
}
