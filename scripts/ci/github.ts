// One pull request comment kept up to date through GitHub's REST API: the comment whose body starts with a
// marker is edited in place, or created when there is none. Used by scripts/ci/diff-comment.ts (the contract
// diff on a pull request); tested against a local stand-in of the API (tests/ci/diff-comment.test.ts).

export interface CommentTarget {
  /** `https://api.github.com`, or GITHUB_API_URL on GitHub Enterprise. */
  api: string;
  /** `owner/repo` (GITHUB_REPOSITORY). */
  repository: string;
  /** The pull request's number. */
  pullRequest: number;
  token: string;
}

export type CommentResult =
  | { action: 'created' | 'updated'; id: number; url: string }
  | { action: 'refused'; status: number; message: string };

interface IssueComment {
  id: number;
  body?: string;
  html_url: string;
}

async function call(target: CommentTarget, method: string, url: string, body?: unknown): Promise<Response> {
  return fetch(url.startsWith('http') ? url : `${target.api.replace(/\/$/, '')}${url}`, {
    method,
    headers: {
      Accept: 'application/vnd.github+json',
      Authorization: `Bearer ${target.token}`,
      'X-GitHub-Api-Version': '2022-11-28',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
}

/** The next page of a list, from the `Link` header. */
const nextPage = (response: Response) => /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];

/**
 * Creates the comment `body` on the pull request, or edits the one whose body starts with `marker`. A refusal
 * (a pull request from a fork gets a read-only token: 403) is returned, not thrown: the caller says so and
 * goes on; any other failure throws.
 */
export async function upsertComment(target: CommentTarget, marker: string, body: string): Promise<CommentResult> {
  if (!body.startsWith(marker)) throw new Error('the comment body must start with its marker');
  let url: string | undefined = `/repos/${target.repository}/issues/${target.pullRequest}/comments?per_page=100`;
  let existing: IssueComment | undefined;
  while (url && !existing) {
    const page = await call(target, 'GET', url);
    if (!page.ok) throw new Error(`GET ${url}: HTTP ${page.status} ${await page.text()}`);
    existing = ((await page.json()) as IssueComment[]).find((c) => c.body?.startsWith(marker));
    url = nextPage(page);
  }
  const response = existing
    ? await call(target, 'PATCH', `/repos/${target.repository}/issues/comments/${existing.id}`, { body })
    : await call(target, 'POST', `/repos/${target.repository}/issues/${target.pullRequest}/comments`, { body });
  if (response.status === 403 || response.status === 404)
    return { action: 'refused', status: response.status, message: await response.text() };
  if (!response.ok) throw new Error(`${existing ? 'PATCH' : 'POST'} comment: HTTP ${response.status} ${await response.text()}`);
  const saved = (await response.json()) as IssueComment;
  return { action: existing ? 'updated' : 'created', id: saved.id, url: saved.html_url };
}
