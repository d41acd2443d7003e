// Websites are stored as URLs that any client can use as they are: the WHATWG URL serialization
// (what browsers and `new URL(x).href` produce: an IDN host in punycode, spaces and non-ASCII
// percent-encoded, default ports and dot segments removed), with the few characters WHATWG leaves
// raw but RFC 3986 forbids (`|`, `^`, `[`, `]`, a second `#`, a `%` that starts no escape) escaped
// too, so that the API's `format: uri` holds for every stored value.

/** What RFC 3986 allows in a path, query or fragment besides `%XX`. */
const URI_CHARACTER = /[A-Za-z0-9\-._~!$&'()*+,;=:@/?]/;

/** The stored form of an absolute URL; throws (TypeError) when `input` is not one. Idempotent. */
export function normalizeWebsite(input: string): string {
  const url = new URL(input);
  // http(s) URLs always serialize a path after the authority, which WHATWG has escaped already.
  const authorityEnd = url.href.indexOf("/", url.protocol.length + 2);
  const [authority, rest] = authorityEnd === -1 ? [url.href, ""] : [url.href.slice(0, authorityEnd), url.href.slice(authorityEnd)];
  let escaped = "";
  let inFragment = false;
  for (let index = 0; index < rest.length; index++) {
    const character = rest[index]!;
    if (character === "%" && /^[0-9A-Fa-f]{2}$/.test(rest.slice(index + 1, index + 3))) escaped += character;
    else if (character === "#" && !inFragment) {
      inFragment = true;
      escaped += character;
    } else if (URI_CHARACTER.test(character)) escaped += character;
    else escaped += `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return authority + escaped;
}

/** For rows written before normalization (the data migration): the stored form, or the value as it was when it is not a URL at all. */
export function normalizeStoredWebsite(value: string): string {
  try {
    return normalizeWebsite(value);
  } catch {
    return value;
  }
}
