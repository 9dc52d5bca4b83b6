// Where a place of a bundle was written in spec/: a JSON pointer into generated/<api>.json is walked through
// the source documents, following each external $ref into its file, so an error found in the bundle names
// `spec/<file>:<line>` instead of the generated file. Components the bundler hoisted
// (`#/components/schemas/Card`) are found by name: one component per file, named after its key
// (docs/structure.md), which is also the name Redocly gives them.
import fs from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';

interface Loaded {
  root: unknown;
  lines: LineCounter;
}

export interface SourceLocation {
  /** Relative to the workspace: spec/components/schemas/Card.yaml */
  file: string;
  line: number;
}

/** Splits `#/paths/~1cards/get` (or `/paths/...`) into unescaped segments. */
export function pointerSegments(pointer: string): string[] {
  const body = pointer.replace(/^#/, '');
  if (body === '' || body === '/') return [];
  return body
    .slice(1)
    .split('/')
    .map((s) => decodeURIComponent(s).replaceAll('~1', '/').replaceAll('~0', '~'));
}

export class SourceMap {
  private readonly cache = new Map<string, Loaded>();
  private filesByName?: Map<string, string[]>;
  private readonly workspace: string;
  constructor(workspace: string) {
    this.workspace = workspace;
  }

  private load(file: string): Loaded {
    let loaded = this.cache.get(file);
    if (!loaded) {
      const lines = new LineCounter();
      const doc = parseDocument(fs.readFileSync(file, 'utf8'), { lineCounter: lines });
      loaded = { root: doc.contents, lines };
      this.cache.set(file, loaded);
    }
    return loaded;
  }

  /** Files under spec/ by base name without extension ("Card" → [".../schemas/Card.yaml"]). */
  private byName(name: string): string[] {
    if (!this.filesByName) {
      this.filesByName = new Map();
      const spec = path.join(this.workspace, 'spec');
      for (const entry of fs.readdirSync(spec, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !/\.ya?ml$/.test(entry.name)) continue;
        const key = entry.name.replace(/\.ya?ml$/, '');
        const list = this.filesByName.get(key) ?? [];
        list.push(path.join(entry.parentPath, entry.name));
        this.filesByName.set(key, list);
      }
    }
    return this.filesByName.get(name) ?? [];
  }

  /** Follows an external `$ref` (a map whose only meaningful key is $ref to another file). */
  private follow(file: string, node: unknown): { file: string; node: unknown } {
    for (let hops = 0; hops < 20 && isMap(node); hops++) {
      const ref = node.get('$ref');
      if (typeof ref !== 'string' || ref.startsWith('#')) break;
      const [target = '', fragment = ''] = ref.split('#');
      file = path.resolve(path.dirname(file), target);
      if (!fs.existsSync(file)) break;
      node = this.at(this.load(file).root, pointerSegments(fragment)) ?? this.load(file).root;
    }
    return { file, node };
  }

  private at(node: unknown, segments: string[]): unknown {
    for (const s of segments) {
      node = child(node, s);
      if (node === undefined) return undefined;
    }
    return node;
  }

  /** The source file and line of a bundle pointer, or null when the root file cannot be read. */
  locate(rootFile: string, pointer: string | string[]): SourceLocation | null {
    const segments = typeof pointer === 'string' ? pointerSegments(pointer) : pointer;
    let file = path.resolve(this.workspace, rootFile);
    if (!fs.existsSync(file)) return null;
    let node: unknown = this.load(file).root;
    let found: { file: string; at: unknown } = { file, at: node };
    for (let i = 0; i < segments.length; i++) {
      ({ file, node } = this.follow(file, node));
      const next = entry(node, segments[i]!);
      if (next === undefined && segments[0] === 'components' && i <= 2 && segments.length >= 3) {
        const hoisted = this.hoisted(segments[1]!, segments[2]!);
        if (hoisted) {
          ({ file, node } = hoisted);
          found = { file, at: node };
          i = 2;
          continue;
        }
      }
      if (next === undefined) break;
      node = next.node;
      found = { file, at: next.at };
    }
    return { file: path.relative(this.workspace, found.file), line: lineOf(found.at, this.load(found.file).lines) };
  }

  /** A component the bundler hoisted from its own file: components/<type>/<Name> → the file Name.yaml. */
  private hoisted(type: string, name: string): { file: string; node: unknown } | null {
    const candidates = this.byName(name);
    const file = candidates.find((f) => f.split(path.sep).includes(type)) ?? candidates[0];
    return file ? { file, node: this.load(file).root } : null;
  }
}

/** The child of a map or sequence node, with the node whose line names it (a map entry's key). */
function entry(node: unknown, segment: string): { node: unknown; at: unknown } | undefined {
  if (isMap(node)) {
    const pair = node.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === segment);
    return pair ? { node: pair.value, at: pair.key } : undefined;
  }
  if (isSeq(node) && /^\d+$/.test(segment) && Number(segment) < node.items.length) {
    const item = node.items[Number(segment)];
    return { node: item, at: item };
  }
  return undefined;
}

function child(node: unknown, segment: string): unknown {
  return entry(node, segment)?.node;
}

function lineOf(node: unknown, lines: LineCounter): number {
  const range = (node as Node | null)?.range;
  return range ? lines.linePos(range[0]).line : 1;
}
