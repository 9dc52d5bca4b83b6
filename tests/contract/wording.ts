// Partner-facing wording of the contract (DECISIONS-1.1 section 8): what tests/contract/wording.test.ts checks.
// - No description or summary speaks of "the document" the contract was written from, or of what it does not
//   show or confirm: that account belongs in `x-provisional-note`. "document" in its own senses (the identity
//   document KYC reads, the proof-of-address document) is allowed.
// - A provisional part says so in one form: a sentence starting "Provisional:". Every other way of writing
//   it ("(provisional)", "Provisional.", "is provisional") is refused.
// - Every node marked `x-provisional: true` with a description has that sentence, and an `x-provisional-note`.
import type { JsonObject } from '../../scripts/lib/pointer.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Reviewer talk: phrases a partner cannot place. */
export const BANNED: { name: string; pattern: RegExp }[] = [
  { name: 'interface document', pattern: /\binterface\s+document\b/i },
  { name: 'the document', pattern: /\b(?:the|this|that)\s+document(?:['’]s)?\b/i },
  { name: 'not shown', pattern: /\bnot\s+shown\b(?!\s+again)/i },
  { name: 'not confirmed', pattern: /\b(?:not\s+|un)confirmed\b/i },
  { name: 'this contract', pattern: /\bthis\s+contract\b/i },
];

/**
 * The words in their own senses: the identity document KYC reads, the proof-of-address document, a payout
 * quote that was not confirmed.
 */
const ALLOWED_DOCUMENT = [
  /\bidentity\s+(?:read|verified)\s+on\s+the\s+document\b/gi,
  /\bthe\s+one\s+read\s+on\s+the\s+document\b/gi,
  /\b(?:file\s+name|media\s+type|content)\s+of\s+the\s+document\b/gi,
  /\bquote\s+was\s+not\s+confirmed\b/gi,
  /\bthe\s+document\s+(?:was|is)\s+(?:not\s+)?(?:rejected|approved|uploaded|received|reviewed)\b/gi,
];

/** Where "Provisional:" may open a sentence: the start, after a sentence, a list marker or a line break. */
const PROVISIONAL_SENTENCE = /(?:^|[.!?]\s+|\n\s*(?:[-*]\s+|\d+\.\s+)?)Provisional: /g;

export interface WordingProblem {
  pointer: string;
  problem: string;
}

const encode = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every description and summary of a bundle (not example values), with the node that holds it. */
export function texts(doc: JsonObject): { pointer: string; key: string; text: string; node: JsonObject }[] {
  const found: { pointer: string; key: string; text: string; node: JsonObject }[] = [];
  const walk = (node: Json, pointer: string) => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, `${pointer}/${i}`);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'description' || key === 'summary') && typeof value === 'string') {
        found.push({ pointer: `${pointer}/${key}`, key, text: value, node: node as JsonObject });
      } else if (key !== 'examples' && key !== 'example' && key !== 'x-provisional-note') {
        walk(value, `${pointer}/${encode(key)}`);
      }
    }
  };
  walk(doc as Json, '#');
  return found;
}

/** The problems of one description or summary. */
export function textProblems(text: string): string[] {
  const problems: string[] = [];
  let partner = text;
  for (const allowed of ALLOWED_DOCUMENT) partner = partner.replace(allowed, '');
  for (const { name, pattern } of BANNED) {
    const match = pattern.exec(partner);
    if (match) problems.push(`says "${name}": "${context(partner, match.index)}"`);
  }
  // Every "provisional" is the opening of a "Provisional:" sentence (headings and `x-provisional` aside).
  const rest = text
    .replace(/^#+ .*$/gm, '')
    .replace(/x-provisional|"Provisional:?"/g, '')
    .replace(PROVISIONAL_SENTENCE, (m) => m.replace('Provisional: ', ''));
  const variant = /provisional/i.exec(rest);
  if (variant) problems.push(`writes "provisional" other than as a sentence starting "Provisional:": "${context(rest, variant.index)}"`);
  return problems;
}

function context(text: string, index: number): string {
  return text
    .slice(Math.max(0, index - 40), index + 50)
    .replace(/\s+/g, ' ')
    .trim();
}

/** Every wording problem of a bundle. */
export function checkWording(doc: JsonObject): WordingProblem[] {
  const problems: WordingProblem[] = [];
  for (const { pointer, key, text, node } of texts(doc)) {
    for (const problem of textProblems(text)) problems.push({ pointer, problem });
    if (key === 'description' && node['x-provisional'] === true && !new RegExp(PROVISIONAL_SENTENCE.source).test(text)) {
      problems.push({ pointer, problem: 'marked x-provisional: true, but has no sentence starting "Provisional:"' });
    }
  }
  const walk = (node: Json, pointer: string) => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, `${pointer}/${i}`);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const note = (node as JsonObject)['x-provisional-note'];
    if ((node as JsonObject)['x-provisional'] === true && (typeof note !== 'string' || note.trim() === '')) {
      problems.push({ pointer, problem: 'marked x-provisional: true without an x-provisional-note' });
    }
    if (note !== undefined && (node as JsonObject)['x-provisional'] !== true) {
      problems.push({ pointer, problem: 'has an x-provisional-note but no x-provisional: true' });
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'examples' && key !== 'example') walk(value, `${pointer}/${encode(key)}`);
  };
  walk(doc as Json, '#');
  return problems;
}
