// One fresh process of npm run bench:start (scripts/bench/start.ts): imports the sandbox's compiled entry
// (`sandbox <file>`) or fastify (`fastify`), starts it on a free port and closes it, and prints one JSON line:
// the milliseconds of the import and of the start, measured in this process, which has loaded nothing else, and
// the CPU milliseconds of both (user and system: what a loaded machine's waiting adds to the others leaves it out).
//   node scripts/bench/fresh-start.ts sandbox dist/sandbox/index.js | fastify
import { pathToFileURL } from 'node:url';

type Server = { close(): Promise<unknown> };

const [what, file] = process.argv.slice(2);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
let start: () => Promise<Server>;
if (what === 'sandbox' && file) {
  const { startSandbox } = (await import(pathToFileURL(file).href)) as typeof import('../../src/sandbox/index.ts');
  start = () => startSandbox({ port: 0 });
} else if (what === 'fastify') {
  const { default: Fastify } = await import('fastify');
  start = async () => {
    const app = Fastify({ logger: false });
    app.get('/', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    return app;
  };
} else {
  console.error('usage: node scripts/bench/fresh-start.ts sandbox <file> | fastify');
  process.exit(2);
}
const t1 = performance.now();
const server = await start();
const t2 = performance.now();
const cpu = process.cpuUsage(cpu0);
await server.close();
console.log(JSON.stringify({ import: t1 - t0, start: t2 - t1, cpu: (cpu.user + cpu.system) / 1000 }));
