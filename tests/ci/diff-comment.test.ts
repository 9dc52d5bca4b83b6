// The contract diff comment of a pull request (scripts/ci/diff-comment.ts, scripts/ci/github.ts), against a
// local stand-in of GitHub's REST API: one comment, created on the first push and edited in place after,
// other comments untouched, the list read page by page; a read-only token (a fork) is said, not fatal.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertComment, type CommentTarget } from '../../scripts/ci/github.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const MARKER = '<!-- marker -->';

interface Comment {
  id: number;
  body: string;
  html_url: string;
}

/** GitHub's issue comment endpoints for one pull request (#7 of o/r), two comments a page. */
function fakeGitHub() {
  const state = { comments: [] as Comment[], calls: [] as string[], refuse: false, next: 100 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://x');
      state.calls.push(`${req.method} ${url.pathname}${url.search}`);
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
        res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
      if (req.headers.authorization !== 'Bearer t0ken') return json(401, { message: 'Bad credentials' });
      const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as { body: string }).body : '';
      if (req.method === 'GET' && url.pathname === '/repos/o/r/issues/7/comments') {
        const page = Number(url.searchParams.get('page') ?? '1');
        const more = state.comments.length > page * 2;
        const link: Record<string, string> = more
          ? { Link: `<http://${req.headers.host}/repos/o/r/issues/7/comments?per_page=100&page=${page + 1}>; rel="next"` }
          : {};
        return json(200, state.comments.slice((page - 1) * 2, page * 2), link);
      }
      if (state.refuse) return json(403, { message: 'Resource not accessible by integration' });
      if (req.method === 'POST' && url.pathname === '/repos/o/r/issues/7/comments') {
        const comment = { id: state.next++, body, html_url: `https://github.test/o/r/pull/7#issuecomment-${state.next}` };
        state.comments.push(comment);
        return json(201, comment);
      }
      const edit = /^\/repos\/o\/r\/issues\/comments\/(\d+)$/.exec(url.pathname);
      const comment = edit && state.comments.find((c) => c.id === Number(edit[1]));
      if (req.method === 'PATCH' && comment) {
        comment.body = body;
        return json(200, comment);
      }
      json(404, { message: 'Not Found' });
    });
  });
  return { state, server };
}

const github = fakeGitHub();
let target: CommentTarget;
beforeAll(async () => {
  await new Promise<void>((resolve) => github.server.listen(0, '127.0.0.1', resolve));
  target = { api: `http://127.0.0.1:${(github.server.address() as AddressInfo).port}`, repository: 'o/r', pullRequest: 7, token: 't0ken' };
});
afterAll(() => github.server.close());

describe('upsertComment', () => {
  it('creates the comment once, then edits that one, past other comments on other pages', async () => {
    github.state.comments.push(
      { id: 1, body: 'LGTM', html_url: '' },
      { id: 2, body: 'nit', html_url: '' },
      { id: 3, body: 'ok', html_url: '' },
    );
    const first = await upsertComment(target, MARKER, `${MARKER}\nfirst`);
    expect(first).toMatchObject({ action: 'created' });
    const second = await upsertComment(target, MARKER, `${MARKER}\nsecond`);
    expect(second).toMatchObject({ action: 'updated', id: (first as { id: number }).id });
    expect(github.state.comments.map((c) => c.body)).toEqual(['LGTM', 'nit', 'ok', `${MARKER}\nsecond`]);
    expect(github.state.calls).toContain('GET /repos/o/r/issues/7/comments?per_page=100&page=2');
  });

  it('a read-only token (a pull request from a fork) is returned as refused, not thrown', async () => {
    github.state.refuse = true;
    try {
      expect(await upsertComment(target, MARKER, `${MARKER}\nthird`)).toMatchObject({ action: 'refused', status: 403 });
    } finally {
      github.state.refuse = false;
    }
  });

  it('a bad token or a body without its marker throws', async () => {
    await expect(upsertComment({ ...target, token: 'nope' }, MARKER, `${MARKER}\nx`)).rejects.toThrow(/HTTP 401/);
    await expect(upsertComment(target, MARKER, 'no marker')).rejects.toThrow(/marker/);
  });
});

describe('npm run diff:comment', () => {
  it('posts npm run diff as markdown under its marker, as on a GitHub pull request', { timeout: 120_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'diff-comment-'));
    const event = path.join(dir, 'event.json');
    fs.writeFileSync(event, JSON.stringify({ pull_request: { number: 7 } }));
    const summary = path.join(dir, 'summary.md');
    github.state.comments = [];
    const env = {
      ...process.env,
      GITHUB_TOKEN: 't0ken',
      GITHUB_REPOSITORY: 'o/r',
      GITHUB_EVENT_PATH: event,
      GITHUB_API_URL: target.api,
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_SHA: 'abcdef1234567890',
    };
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['scripts/ci/diff-comment.ts', 'HEAD'], { cwd: ROOT, env });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    const summarised = fs.readFileSync(summary, 'utf8');
    fs.rmSync(dir, { recursive: true, force: true });
    expect(summarised).toBe(result.stdout);
    expect(result.stderr).toMatch(/^diff:comment: created https:\/\/github\.test\/o\/r\/pull\/7#issuecomment-\d+$/m);
    expect(result.code).toBe(0);
    expect(github.state.comments).toHaveLength(1);
    const body = github.state.comments[0]!.body;
    expect(body.split('\n')[0]).toBe('<!-- partner-api: contract diff -->');
    expect(body).toContain('## Contract diff');
    expect(body).toContain('at abcdef123456');
    expect(result.stdout).toBe(body);
  });
});
