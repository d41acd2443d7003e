// Content-coding negotiation from Accept-Encoding (RFC 9110 §12.5.3), for the codings this server
// produces. Kept free of Node imports: a pure function of the header.

export type ContentCoding = "br" | "gzip";

export interface CodingChoice {
  /** The coding to send, or null for the body as it is (identity). */
  coding: ContentCoding | null;
  /** Whether identity is acceptable: when it is, a body too small to gain from compression is sent as it is. */
  identityAcceptable: boolean;
}

/** Our order among codings of equal q: brotli is smaller at the same cost (see lib/http/compression.ts). */
const OFFERED: readonly ContentCoding[] = ["br", "gzip"];

/** `gzip;q=0.8` → ["gzip", 0.8]; a malformed q makes the entry count as absent. */
function parseEntry(entry: string): [string, number] | null {
  const [name, ...params] = entry.split(";").map((part) => part.trim());
  if (!name) return null;
  let q = 1;
  for (const param of params) {
    const match = /^q\s*=\s*([01](?:\.\d{0,3})?)$/i.exec(param);
    if (match) q = Number(match[1]);
    else if (/^q\s*=/i.test(param)) return null;
  }
  if (q > 1) return null;
  // RFC 9110 §8.4.1.3: x-gzip is gzip.
  const coding = name.toLowerCase();
  return [coding === "x-gzip" ? "gzip" : coding, q];
}

/**
 * The coding to answer a request with. No header: identity (RFC 9110 lets a server choose; most
 * clients that decode say so). Otherwise q-values are honoured (q=0 refuses), `*` stands for any
 * coding not listed, and identity is acceptable unless refused by `identity;q=0` or by `*;q=0`
 * without an `identity` entry. Of equal q, compression wins over identity and br over gzip. When
 * nothing is acceptable, the body goes as it is (RFC 9110 lets a server ignore the header rather
 * than answer 406).
 */
export function negotiateContentCoding(acceptEncoding: string | null | undefined): CodingChoice {
  if (acceptEncoding === null || acceptEncoding === undefined) return { coding: null, identityAcceptable: true };
  const listed = new Map<string, number>();
  for (const entry of acceptEncoding.split(",")) {
    const parsed = parseEntry(entry);
    // The first mention of a coding counts.
    if (parsed && !listed.has(parsed[0])) listed.set(parsed[0], parsed[1]);
  }
  const star = listed.get("*");
  const qOf = (coding: string) => listed.get(coding) ?? star ?? 0;
  // Not listed (nor covered by `*`), identity ranks below every coding the client did list, as in
  // the `negotiator` package: `gzip;q=0.5` still prefers gzip to an uncompressed body.
  const identityQ = listed.get("identity") ?? star ?? Math.min(1, ...[...listed.values()].filter((q) => q > 0));
  let best: { coding: ContentCoding; q: number } | null = null;
  for (const coding of OFFERED) {
    const q = qOf(coding);
    if (q > 0 && (!best || q > best.q)) best = { coding, q };
  }
  const identityAcceptable = identityQ > 0;
  if (best && best.q >= identityQ) return { coding: best.coding, identityAcceptable };
  return { coding: null, identityAcceptable };
}
