// Request ids (`meta.request_id`): `req_` and 16 random hex digits, fastify's `genReqId`.
import { randomBytes } from 'node:crypto';

/** Random bytes for request ids, drawn 4 KB at a time (one call into the random source per 512 requests). */
let randomPool = Buffer.alloc(0);
let randomAt = 0;

export function newRequestId(): string {
  if (randomAt + 8 > randomPool.length) {
    randomPool = randomBytes(4096);
    randomAt = 0;
  }
  randomAt += 8;
  return `req_${randomPool.toString('hex', randomAt - 8, randomAt)}`;
}
