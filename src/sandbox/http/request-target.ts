/**
 * A request's path and query, as `new URL(target, 'http://sandbox')` reads them, without building a
 * URL for the common target (parsing one cost a new_claim more than its routing). A target of plain
 * path segments (letters, digits, `_`, `-`, `~`, a dot inside a segment) and a query of printable
 * ASCII is its own pathname, and its query reads the same through URLSearchParams alone: the URL
 * parser would only percent-encode what URLSearchParams decodes again. Anything else (dot segments,
 * percent-encoding, `//`, `#`, other characters) is the URL parser's.
 */
export interface RequestTarget {
  pathname: string;
  query: URLSearchParams;
}

const plainTarget = /^(?:\/|(?:\/[\w~-][\w.~-]*)+\/?)(?:\?[\x21-\x22\x24-\x7e]*)?$/;

export function requestTarget(target: string): RequestTarget {
  if (plainTarget.test(target)) {
    const queryAt = target.indexOf('?');
    if (queryAt === -1) return { pathname: target, query: new URLSearchParams() };
    // With its `?`: URLSearchParams drops one leading `?`, and a second one is the query's own.
    return { pathname: target.slice(0, queryAt), query: new URLSearchParams(target.slice(queryAt)) };
  }
  const url = new URL(target, 'http://sandbox');
  return { pathname: url.pathname, query: url.searchParams };
}
