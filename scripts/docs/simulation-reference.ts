// The simulation API's reference (site/reference/simulation/): generated/sandbox.json (spec/sandbox.yaml)
// rendered by Redoc like the API reference (reference.ts: Redoc's server-rendered HTML, the site's header, the
// page style), with the same "Try it" console (try-it.ts) sending each call to the sandbox's /sandbox.
// - It sits under reference/ and loads Redoc's script from the API reference's directory (one copy of 2 MB).
// - The docs copy gives the one server as the address `npm start` serves it at, with a plain description
//   (Redoc shows descriptions as typed), and the API's description links the sandbox guide.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { finishReferencePage, hashLinks, redocScript } from './reference.ts';
import { plainText, SANDBOX_ORIGIN } from './servers.ts';
import { tryItData, withTryIt } from './try-it.ts';
import { redocly } from '../lib/redocly.ts';

type JsonObject = { [key: string]: unknown };

/** Where the page is served, and its entry in the site's header (site-links.ts). */
export const SIMULATION_ROUTE = '/reference/simulation/';

/** The docs copy of the simulation API: its server as an address, its guide as a link. */
export function simulationDocsDocument(sandbox: JsonObject): JsonObject {
  const copy = structuredClone(sandbox);
  const info = (copy.info ?? {}) as JsonObject;
  info.description = [
    String(info.description ?? '')
      // What a partner runs (the npm script is the repository's), and the guide as a link below.
      .replace('`npm run sandbox`', '`npx partner-api-sandbox`')
      .replace(/See docs\/sandbox\.md\.?/, '')
      .trim(),
    '',
    'The [sandbox guide](/guides/sandbox/) says how to run the sandbox and what each simulation does. Every operation ' +
      'has a **Try it** button: it sends the call from this page to your sandbox (`npx partner-api-sandbox --seed examples` ' +
      `runs it at ${SANDBOX_ORIGIN}) with the key you give, and shows the answer. The partner API's operations are in the ` +
      '[API reference](/reference/).',
  ].join('\n');
  copy.info = info;
  copy.servers = [
    {
      url: `${SANDBOX_ORIGIN}/sandbox`,
      description: plainText(
        `The simulation API of the sandbox on your machine (npx partner-api-sandbox), at ${SANDBOX_ORIGIN}/sandbox; ` +
          'another port or host: its address followed by /sandbox.',
      ),
    },
  ];
  return copy;
}

/** Builds site/reference/simulation/index.html, under the site's header (`siteTitle`); Redoc's script is the API reference's (`../redoc.standalone.js`). */
export async function buildSimulationReference(sandbox: JsonObject, outDir: string, siteTitle: string): Promise<void> {
  fs.mkdirSync(outDir, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-simulation-'));
  try {
    const docs = simulationDocsDocument(sandbox);
    const docsJson = path.join(work, 'sandbox.docs.json');
    fs.writeFileSync(docsJson, JSON.stringify(docs));
    fs.writeFileSync(
      path.join(work, 'redocly.yaml'),
      JSON.stringify({ openapi: { hideDownloadButtons: false, jsonSamplesExpandLevel: 3 } }),
    );
    const index = path.join(outDir, 'index.html');
    const title = String((docs.info as JsonObject).title ?? 'Simulation API');
    const result = await redocly(['build-docs', docsJson, '--output', index, '--title', title], work);
    if (result.code !== 0) throw new Error(`redocly build-docs failed:\n${result.output}`);
    const page = hashLinks(finishReferencePage(fs.readFileSync(index, 'utf8'), siteTitle, redocScript().integrity))
      .replaceAll('./redoc.standalone.js', '../redoc.standalone.js')
      // The header marks the API reference as the current page; here it is this one.
      .replace('<a href="/reference/" aria-current="page">', '<a href="/reference/">')
      .replace(`<a href="${SIMULATION_ROUTE}">`, `<a href="${SIMULATION_ROUTE}" aria-current="page">`);
    fs.writeFileSync(index, withTryIt(page, tryItData(docs)));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
