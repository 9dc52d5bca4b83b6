// Load the contract (OpenAPI root + AsyncAPI) at a git ref or from the working tree, with every $ref
// dereferenced. The spec is multi-file, so a ref is materialised with `git archive` into a temp dir first.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import $RefParser, { type ParserOptions } from '@apidevtools/json-schema-ref-parser';
import { assembleSpec } from '../build/assemble.ts';
import { EventsError, hasEventsIndex } from '../build/spec-events.ts';
import type { Schema } from './normalise.ts';

export interface LoadedContract {
  /** What was loaded: a ref name or "working tree". */
  label: string;
  openapi: Schema;
  /** null when the spec has no asyncapi.yaml */
  asyncapi: Schema | null;
  /** $refs that point at files that do not exist (the diff still runs; they read as empty). */
  unresolved: string[];
}

export class DiffError extends Error {}

const git = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** The default base: the merge base of HEAD with `main` (or `origin/main` in a CI checkout). */
export function defaultBaseRef(repo: string): string {
  for (const main of ['main', 'origin/main']) {
    try {
      return git(repo, ['merge-base', 'HEAD', main]);
    } catch {
      // try the next candidate
    }
  }
  throw new DiffError('No base ref given and no merge base with `main` (or `origin/main`) was found. Pass one: npm run diff -- <base-ref>');
}

/**
 * Dereferences spec/openapi.yaml and spec/asyncapi.yaml (when present) under `specDir`, as the build reads
 * them: with the lists of events written in when the spec lists its events in spec/events/index.yaml.
 */
export async function loadSpecDir(specDir: string, label: string): Promise<LoadedContract> {
  const root = path.join(specDir, 'openapi.yaml');
  if (!existsSync(root)) throw new DiffError(`${label} has no spec/openapi.yaml.`);
  if (!hasEventsIndex(specDir)) return loadDocuments(specDir, label);
  const dir = mkdtempSync(path.join(tmpdir(), 'contract-diff-'));
  try {
    assembleSpec(specDir, path.join(dir, 'spec'));
    return await loadDocuments(path.join(dir, 'spec'), label);
  } catch (error) {
    if (error instanceof EventsError) throw new DiffError(`${label}: cannot list the events: ${error.problems.join('; ')}`);
    throw error;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function loadDocuments(specDir: string, label: string): Promise<LoadedContract> {
  const asyncRoot = path.join(specDir, 'asyncapi.yaml');
  return loadFiles(path.join(specDir, 'openapi.yaml'), existsSync(asyncRoot) ? asyncRoot : null, label);
}

/** Dereferences an OpenAPI root file and an optional AsyncAPI root file. */
export async function loadFiles(openapiFile: string, asyncapiFile: string | null, label: string): Promise<LoadedContract> {
  const base = path.dirname(openapiFile);
  const unresolved: string[] = [];
  const options: ParserOptions = {
    resolve: {
      http: false as const,
      file: {
        order: 1,
        canRead: (file: { url: string }) => !/^https?:/.test(file.url),
        read(file: { url: string }) {
          const p = decodeURIComponent(file.url.replace(/^file:\/\//, ''));
          try {
            return readFileSync(p);
          } catch {
            unresolved.push(path.relative(base, p));
            return JSON.stringify({ 'x-unresolved-ref': path.relative(base, p) });
          }
        },
      },
    },
    dereference: { circular: 'ignore' as const },
  };
  const deref = async (file: string) => {
    try {
      return await new $RefParser().dereference(file, options);
    } catch (err) {
      const msg = (err as Error).message.split('\n')[0] ?? String(err);
      throw new DiffError(`${label}: cannot read the contract: ${msg.replaceAll(`${base}/`, '')}`);
    }
  };
  const openapi = await deref(openapiFile);
  const asyncapi = asyncapiFile ? await deref(asyncapiFile) : null;
  return { label, openapi, asyncapi, unresolved: [...new Set(unresolved)].sort() };
}

/** Loads the contract as committed at `ref` in the repository `repo`. */
export async function loadAtRef(repo: string, ref: string): Promise<LoadedContract> {
  let sha: string;
  try {
    sha = git(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    throw new DiffError(`Unknown git ref: ${ref}`);
  }
  try {
    git(repo, ['cat-file', '-e', `${sha}:spec/openapi.yaml`]);
  } catch {
    throw new DiffError(`The base ref ${ref} (${sha.slice(0, 7)}) has no spec/openapi.yaml: there is no contract to compare against.`);
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'contract-diff-'));
  try {
    execFileSync('sh', ['-c', `git archive ${sha} spec | tar -x -C "${dir}"`], { cwd: repo, stdio: ['ignore', 'ignore', 'pipe'] });
    return await loadSpecDir(path.join(dir, 'spec'), `${ref} (${sha.slice(0, 7)})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The repository root of `cwd`. */
export function repoRoot(cwd: string): string {
  try {
    return git(cwd, ['rev-parse', '--show-toplevel']);
  } catch {
    throw new DiffError(`${cwd} is not inside a git repository.`);
  }
}
