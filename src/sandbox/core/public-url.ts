// The `publicUrl` option and the bin's `--public-url`: the https:// address a TLS proxy or tunnel serves the
// sandbox at. Its own file, without node:sqlite, so that the bin checks the flag before loading the sandbox.

/** An `https://` origin, with an optional path, and no query or fragment. */
export function isPublicUrl(value: string): boolean {
  return /^https:\/\/[^/?#]+(\/[^?#]*)?$/.test(value);
}

/** The address links are built on: the public url without its final `/`. */
export function linkBase(publicUrl: string): string {
  return publicUrl.replace(/\/$/, '');
}
