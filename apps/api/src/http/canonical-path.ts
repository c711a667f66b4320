/** RFC 3986 unreserved characters: `%61` and `a` are the same path (§6.2.2.2). */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
/** An escape, upper-cased; one of a character that is not unreserved is kept as it is (it means something else than the character). */
const ESCAPE = /^%[0-9A-F]{2}$/;
/** Never in a path here: a backslash (a separator to some), a path parameter (`;`), anything not printable ASCII. */
const refusedRaw = (path: string): boolean => [...path].some((char) => char === '\\' || char === ';' || char <= ' ' || char > '~');

/**
 * The one spelling of a request path that routing and every path-based decision (CORS, admin, web, rate
 * limits, in-flight caps, the terminal socket) see: unreserved characters decoded, other escapes in
 * upper case (`%2F` stays one: inside a segment, as the router sees it too), empty segments (`//`, a
 * trailing `/`) dropped, `.` and `..` resolved (never above the root). Case is kept (the router matches
 * case-sensitively: `/EXP/...` is no route). Undefined for a path that has no one meaning: a bad escape,
 * an encoded NUL, a `\` or a `;` parameter, or a target that is not a path (`*`, an absolute URL).
 */
export function canonicalPath(path: string): string | undefined {
  if (!path.startsWith('/') || refusedRaw(path)) return undefined;
  const segments: string[] = [];
  for (const raw of path.split('/')) {
    const segment = decodeUnreserved(raw);
    if (segment === undefined) return undefined;
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

function decodeUnreserved(segment: string): string | undefined {
  let out = '';
  for (let at = 0; at < segment.length; at++) {
    if (segment[at] !== '%') {
      out += segment[at];
      continue;
    }
    const escape = segment.slice(at, at + 3).toUpperCase();
    if (!ESCAPE.test(escape)) return undefined;
    const char = String.fromCharCode(parseInt(escape.slice(1), 16));
    if (char === '\0') return undefined;
    out += UNRESERVED.test(char) ? char : escape;
    at += 2;
  }
  return out;
}

/** `canonicalPath` of a request target (`/path?query`), the query kept as sent. */
export function canonicalTarget(target: string): string | undefined {
  const query = target.indexOf('?');
  const path = canonicalPath(query < 0 ? target : target.slice(0, query));
  return path === undefined ? undefined : path + (query < 0 ? '' : target.slice(query));
}
