import { hash } from "node:crypto";

// Conditional GET (RFC 9110 §13.1.2): an entity tag computed from what the response says, and the
// If-None-Match check. The tag is weak (W/"…"): it names the content whatever its content coding.

/** A weak entity tag of everything that makes up the response (its body, and headers such as Link). */
export function weakEtag(...parts: string[]): string {
  // One-shot crypto.hash: a Hash object costs more than hashing a small body.
  return `W/"${hash("sha1", parts.join("\0") + "\0", "base64url")}"`;
}

/** Whether If-None-Match names this tag (weak comparison), or is `*`: the client's copy is current. */
export function ifNoneMatchMatches(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  const wanted = opaque(etag);
  // Entity tags are quoted and hold no commas in what this server sends; split on commas outside quotes all the same.
  return (ifNoneMatch.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => opaque(tag) === wanted);
}
