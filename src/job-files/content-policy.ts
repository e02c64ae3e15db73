import { createHash } from 'node:crypto';

/**
 * The Content-Security-Policy of a page a job writes to disk (the report's, track's): opened from
 * a file, it has no server to send the header, so the policy goes in a `<meta>` before anything it
 * governs. It allows the page's own inline style and script by their sha256 (computed here, from
 * the very text the page holds), nothing else: no other script, style, image, font, fetch, frame,
 * `<base>` or form target. A meta policy cannot say `frame-ancestors` (browsers ignore it there);
 * a page opened from disk has no origin another page can frame it from anyway.
 */
export function contentPolicyMeta(inline: {
  readonly styles?: readonly string[];
  readonly scripts?: readonly string[];
}): string {
  const hashes = (texts: readonly string[] | undefined) =>
    texts === undefined || texts.length === 0
      ? "'none'"
      : texts.map((text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`).join(' ');
  const policy = [
    "default-src 'none'",
    `style-src ${hashes(inline.styles)}`,
    `script-src ${hashes(inline.scripts)}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<meta http-equiv="Content-Security-Policy" content="${policy}">`;
}
