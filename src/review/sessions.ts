import { createHash, randomBytes } from 'node:crypto';

/**
 * The page's sessions: the printed token is exchanged, once, for a random id that the browser
 * keeps in a cookie (docs/review.md, "Security"). The token itself is never a cookie: browsers
 * send a cookie of 127.0.0.1 to every port of it, so any other local server would receive it.
 * An id is known by its sha256 only, so that looking one up leaks nothing of a real id's bytes.
 */
export class ReviewSessions {
  /**
   * One reviewer opens the printed address a handful of times; a script looping on it would grow
   * the map without end. The oldest session goes first, far older than any tab still in use.
   */
  static readonly most = 100;
  readonly #known = new Set<string>();

  /** A fresh session id (32 random bytes, base64url): the cookie's value. */
  open(): string {
    const id = randomBytes(32).toString('base64url');
    this.#known.add(digest(id));
    if (this.#known.size > ReviewSessions.most) {
      const [oldest] = this.#known;
      if (oldest !== undefined) this.#known.delete(oldest);
    }
    return id;
  }

  has(id: string): boolean {
    return this.#known.has(digest(id));
  }
}

const digest = (id: string) => createHash('sha256').update(id).digest('hex');
