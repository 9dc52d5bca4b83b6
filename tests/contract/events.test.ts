// (d) Every event has a schema and a valid example in both documents: an OpenAPI webhook and an
// AsyncAPI message, from the one file spec/events/<event>.yaml.
import { expect, it } from 'vitest';
import { checkEvents } from './checklist.ts';
import { built, checklist, expectNoProblems } from './helpers.ts';

it('every event of the document is in both documents, with its fields and a valid example', () => {
  const { openapi, asyncapi } = built();
  expectNoProblems(checkEvents(openapi, asyncapi, checklist));
});
