// npm run bench:docs: how fast an operation link and a guide page of the docs site paint, and what they weigh,
// in headless Chromium, offline (scripts/docs/paint.ts). Two sites are measured in the same run, alternately,
// and the ratios printed: timings on a shared machine are only comparable within one run. The "before" site is
// by default a copy of the site whose reference is built again without the early heading of a linked
// operation (early-heading.ts): the page as Redoc alone renders it; with --before <dir>, a copy of an older
// build. Run `npm run docs` first.
//
//   npm run bench:docs -- [--site site] [--before <dir>] [--runs 5]
//
// A site built before the guides became pages of their own (one Redoc page, index.html) is measured at its
// own addresses of the same two pages: index.html#/cards/withdrawfromcard and
// index.html#/section/getting-started.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import { launchChromium } from './chromium.ts';
import { measurePaint, median, type Awaited, type Paint } from './paint.ts';
import { serveStatic } from './static-site.ts';
import { SITE_DIR } from './site.ts';
import { buildReference } from './reference.ts';
import { parseCli, runCli, UsageError } from '../lib/cli-parser.ts';

const USAGE = `Usage: npm run bench:docs -- [--site <dir>] [--before <dir>] [--runs <n>]
  --site <dir>    the site to measure (default site/, built by npm run docs)
  --before <dir>  another build of the site, measured in the same run for the ratios (default: this site
                  with its reference built without the early heading of a linked operation)
  --runs <n>      measurements of each page of each site (default 5; the median is shown)`;

interface Target {
  name: string;
  /** The address in a site of this layout, and the heading a reader came for. */
  path: (legacy: boolean) => string;
  awaited: Awaited;
}

const TARGETS: Target[] = [
  {
    name: 'operation link',
    path: (legacy) => (legacy ? 'index.html#/cards/withdrawfromcard' : 'reference/#/cards/withdrawfromcard'),
    awaited: { selector: 'h2', text: 'Withdraw from a card' },
  },
  {
    name: 'guide page',
    path: (legacy) => (legacy ? 'index.html#/section/getting-started' : 'guides/getting-started/'),
    awaited: { selector: 'h1, h2', text: 'Getting started' },
  },
];

interface Measured {
  site: string;
  target: string;
  runs: Paint[];
}

function row(m: Measured): string {
  const fcp = median(m.runs.map((r) => r.fcp));
  const lcp = median(m.runs.map((r) => r.lcp));
  const ready = median(m.runs.map((r) => r.ready));
  const range = (values: number[]) => `${Math.min(...values)}-${Math.max(...values)}`;
  const bytes = m.runs[0]!.bytes;
  return (
    `| ${m.site} | ${m.target} | ${fcp} | ${lcp} (${range(m.runs.map((r) => r.lcp))}) | ${ready} | ` +
    `${(bytes / 1024).toFixed(0)} KiB in ${m.runs[0]!.requests} |`
  );
}

/** A copy of `site` in `work` whose reference is the page as Redoc alone renders it, without the early heading. */
async function redocAlone(site: string, work: string): Promise<string> {
  const dir = path.join(work, 'site');
  fs.cpSync(site, dir, { recursive: true });
  // The site's copy of the bundle, from which its reference was built.
  const openapi = JSON.parse(fs.readFileSync(path.join(site, 'openapi.json'), 'utf8'));
  await buildReference(openapi, path.join(dir, 'reference'), { earlyHeading: false });
  return dir;
}

async function main(argv: string[]): Promise<number> {
  const args = parseCli(argv, {
    usage: USAGE,
    options: { site: { type: 'string' }, before: { type: 'string' }, runs: { type: 'string' } },
  });
  if (!args) return 0;
  const runs = Number(args.values.runs ?? 5);
  if (!Number.isInteger(runs) || runs < 1) throw new UsageError(`--runs must be a whole number of at least 1, got ${args.values.runs}`);
  const site = path.resolve(args.values.site ?? SITE_DIR);
  if (!fs.existsSync(path.join(site, 'index.html'))) throw new Error(`${site}/index.html is missing: build the site first (npm run docs)`);
  const work = args.values.before ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'bench-docs-'));
  const before = args.values.before ? path.resolve(args.values.before) : await redocAlone(site, work!);
  if (!fs.existsSync(path.join(before, 'index.html'))) throw new Error(`${before}/index.html is missing`);
  const sites = [
    { label: args.values.before ? 'before' : 'before (Redoc alone)', dir: before },
    { label: 'after', dir: site },
  ];
  const servers: Server[] = [];
  const browser = await launchChromium();
  try {
    const bases = await Promise.all(
      sites.map(async ({ dir }) => {
        const server = await serveStatic(dir, '127.0.0.1', 0);
        servers.push(server);
        const address = server.address();
        return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      }),
    );
    const measured: Measured[] = sites.flatMap((s) => TARGETS.map((t) => ({ site: s.label, target: t.name, runs: [] as Paint[] })));
    const load = [os.loadavg()[0]!];
    // One warm-up load of each page (the server's and the disk's caches), then the runs, alternating sites.
    for (let run = -1; run < runs; run++) {
      for (const [i, site] of sites.entries()) {
        const legacy = !fs.existsSync(path.join(site.dir, 'reference', 'index.html'));
        for (const [j, target] of TARGETS.entries()) {
          const paint = await measurePaint(browser, `${bases[i]}/${target.path(legacy)}`, target.awaited);
          if (run >= 0) measured[i * TARGETS.length + j]!.runs.push(paint);
        }
      }
      load.push(os.loadavg()[0]!);
    }
    console.log(`Docs site paint times, ms from the navigation's start (median of ${runs}, Chromium headless, 1280 x 900, nothing cached)`);
    console.log(
      `load average (1 min) during the run: ${Math.min(...load).toFixed(1)} to ${Math.max(...load).toFixed(1)}, ${os.cpus().length} cores\n`,
    );
    console.log('| site | page | first paint | largest paint (range) | heading in view | weight |');
    console.log('|---|---|---:|---:|---:|---:|');
    for (const m of measured) console.log(row(m));
    console.log('');
    for (const target of TARGETS) {
      const [then, now] = sites.map((s) => measured.find((m) => m.site === s.label && m.target === target.name)!);
      const lcp = (m: Measured) => median(m.runs.map((r) => r.lcp));
      const ready = (m: Measured) => median(m.runs.map((r) => r.ready));
      console.log(
        `${target.name}: largest paint after/before ${(lcp(now!) / lcp(then!)).toFixed(2)}, ` +
          `heading in view after/before ${(ready(now!) / ready(then!)).toFixed(2)}, ` +
          `weight after/before ${(now!.runs[0]!.bytes / then!.runs[0]!.bytes).toFixed(2)}`,
      );
    }
  } finally {
    await browser.close();
    for (const server of servers) server.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  }
  return 0;
}

await runCli('bench:docs', USAGE, () => main(process.argv.slice(2)));
