#!/usr/bin/env node
// The MCP server's bin: `npx partner-api-mcp [options]` (see ./mcp-flags.ts), which an assistant starts and talks to
// over stdin and stdout (MCP's stdio transport). stdout carries the protocol only; every failure before it is
// connected is one line `partner-api-mcp: <what and how to fix it>` on stderr: a mistyped flag (exit 2, with the
// usage), a Node older than package.json's engines for the in-process sandbox, a busy --port, a --docs file that
// is not there. It stops, and stops its sandbox, when the assistant closes stdin or sends SIGINT or SIGTERM.
import { CliError, portProblem, runCli } from '../cli-parser.js';
import { PACKAGE } from '../package-info.js';
import { TOOL, USAGE, parseCli } from './mcp-flags.js';

async function main(): Promise<number> {
  const args = parseCli(process.argv.slice(2));
  if (!args) return 0;
  if (args.version) {
    console.log(PACKAGE.version);
    return 0;
  }
  // Loaded after the flags are read: the server and the sandbox's readers load the contract.
  const [{ StdioServerTransport }, { createMcpServer }, { loadDocs }, { startTarget }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('./server.js'),
    import('./docs.js'),
    import('./target.js'),
  ]);
  let docs: ReturnType<typeof loadDocs>;
  try {
    docs = loadDocs(args.docs);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  const target = await startTarget(args).catch((error: unknown) => {
    const port =
      args.target.kind === 'in-process'
        ? portProblem(error, '127.0.0.1', args.target.port, 'pass --port <port> to use another one (--port 0 picks a free one)')
        : undefined;
    throw port ? new CliError(port) : error;
  });
  const server = createMcpServer({ target, docs });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void server
      .close()
      .catch(() => undefined)
      .then(() => target.close())
      .finally(() => process.exit(0));
  };
  server.server.onclose = stop;
  process.stdin.once('end', stop);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await server.connect(new StdioServerTransport());
  console.error(`${TOOL}: MCP server on stdio; ${target.description}${docs ? '' : '; no docs to search (see --help: --docs)'}`);
  return 0;
}

await runCli(TOOL, USAGE, main);
