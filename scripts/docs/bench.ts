// npm run bench:docs: how fast an operation link and a guide page of the docs site paint, and what they weigh,
// in headless Chromium, offline (scripts/docs/paint.ts). With --before <dir> (a copy of an older build of the
// site), both sites are measured in the same run, alternately, and the ratios printed: timings on a shared
// machine are only comparable within one run. Run `npm run docs` first.
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
import { parseCli, runCli, UsageError } from '../lib/cli-args.ts';

const USAGE = `Usage: npm run bench:docs -- [--site <dir>] [--before <dir>] [--runs <n>]
  --site <dir>    the site to measure (default site/, built by npm run docs)
  --before <dir>  another build of the site, measured in the same run for the ratios
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

async function main(argv: string[]): Promise<number> {
  const args = parseCli(argv, {
    usage: USAGE,
    options: { site: { type: 'string' }, before: { type: 'string' }, runs: { type: 'string' } },
  });
  if (!args) return 0;
  const runs = Number(args.values.runs ?? 5);
  if (!Number.isInteger(runs) || runs < 1) throw new UsageError(`--runs must be a whole number of at least 1, got ${args.values.runs}`);
  const sites = [{ label: 'after', dir: path.resolve(args.values.site ?? SITE_DIR) }];
  if (args.values.before) sites.unshift({ label: 'before', dir: path.resolve(args.values.before) });
  for (const { dir } of sites) {
    if (!fs.existsSync(path.join(dir, 'index.html'))) throw new Error(`${dir}/index.html is missing: build the site first (npm run docs)`);
  }
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
    if (sites.length === 2) {
      console.log('');
      for (const target of TARGETS) {
        const [before, after] = sites.map((s) => measured.find((m) => m.site === s.label && m.target === target.name)!);
        const lcp = (m: Measured) => median(m.runs.map((r) => r.lcp));
        console.log(
          `${target.name}: largest paint after/before ${(lcp(after!) / lcp(before!)).toFixed(2)}, ` +
            `weight after/before ${(after!.runs[0]!.bytes / before!.runs[0]!.bytes).toFixed(2)}`,
        );
      }
    }
  } finally {
    await browser.close();
    for (const server of servers) server.close();
  }
  return 0;
}

await runCli('bench:docs', USAGE, () => main(process.argv.slice(2)));
