// The JSON request body, read with the bounds of the edge (src/sandbox/core/bounds.ts) before anything else
// sees it:
// - bytes that are not UTF-8 are not JSON (422 naming `body`): decoding them would put U+FFFD in their place;
// - a body nested deeper than BODY_MAX_DEPTH is refused before it is parsed (413, as a body too large): the
//   idempotency fingerprint and validation walk a body recursively, and one nested thousands deep would
//   overflow the stack (a 500);
// - a string holding a lone surrogate (`"\ud800"`, valid JSON but not Unicode) is refused, naming its field
//   (422): SQLite stores UTF-8, which cannot hold one, and would keep U+FFFD instead. Only where the route
//   takes a body: elsewhere the body is not read, and the route may document no 422.
// Then fastify's own parser, with its prototype-poisoning checks.
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BODY_MAX_DEPTH } from '../core/bounds.js';
import { apiError, outsideOperations } from '../core/errors.js';

/** Whether the arrays and objects of a JSON text nest deeper than `max` (brackets inside strings do not count). */
export function nestsDeeperThan(text: string, max: number): boolean {
  // A text of `max` characters cannot open more than `max` levels.
  if (text.length <= max) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Jump to the closing quote: the first one after an even run of backslashes.
      let end = i;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end === -1) return false; // an unterminated string: the parser refuses the text
        let backslashes = 0;
        while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++;
        if (backslashes % 2 === 0) break;
      }
      i = end;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** An escaped surrogate code unit (`\ud800`): the cheap test before looking for a lone one. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** The field (`first_name`, `address.street`, `events.0`) of the first string or key that is not well-formed Unicode, or undefined. */
export function loneSurrogateField(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') return value.isWellFormed() ? undefined : path.join('.') || 'body';
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = loneSurrogateField(value[i], [...path, String(i)]);
      if (found !== undefined) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (!key.isWellFormed()) return [...path, key].join('.');
      const found = loneSurrogateField(item, [...path, key]);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

export const jsonBody = fp(
  async (app: FastifyInstance) => {
    const parse = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request: FastifyRequest, body: Buffer, done) => {
      if (!isUtf8(body)) {
        return done(
          apiError('VALIDATION_ERROR', 'The request body is not valid JSON: it is not UTF-8.', {
            fields: [{ field: 'body', message: 'is not valid JSON (not UTF-8)' }],
          }),
        );
      }
      const text = body.toString('utf8');
      if (nestsDeeperThan(text, BODY_MAX_DEPTH)) {
        return done(
          outsideOperations(413, `The request body nests arrays and objects more than ${BODY_MAX_DEPTH} levels deep.`, {
            fields: [{ field: 'body', message: `must be nested at most ${BODY_MAX_DEPTH} levels deep` }],
          }),
        );
      }
      parse(request, text, (error, parsed) => {
        if (error) return done(error);
        if (request.routeOptions.schema?.body !== undefined && SURROGATE_ESCAPE.test(text)) {
          const field = loneSurrogateField(parsed);
          if (field !== undefined) {
            return done(
              apiError(
                'VALIDATION_ERROR',
                `The request is invalid: ${field} holds a lone surrogate (an escape such as \\ud800 without its pair), which is not Unicode text.`,
                {
                  fields: [{ field, message: 'must be valid Unicode text (a lone surrogate escape such as \\ud800 is not)' }],
                },
              ),
            );
          }
        }
        done(null, parsed);
      });
    });
  },
  { name: 'sandbox-json-body' },
);
