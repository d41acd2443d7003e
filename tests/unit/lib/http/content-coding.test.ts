import { describe, expect, it } from "vitest";
import { negotiateContentCoding } from "@/lib/http/content-coding";
import { codingFor, MIN_COMPRESSED_BYTES } from "@/lib/http/compression";

describe("negotiateContentCoding (Accept-Encoding, RFC 9110 §12.5.3)", () => {
  it.each([
    // [header, coding, identity acceptable]
    [undefined, null, true],
    ["", null, true],
    ["gzip", "gzip", true],
    ["br", "br", true],
    ["x-gzip", "gzip", true],
    ["GZIP", "gzip", true],
    ["gzip, deflate, br, zstd", "br", true],
    ["deflate, gzip, br, zstd", "br", true],
    ["gzip, deflate", "gzip", true],
    ["br;q=0.5, gzip", "gzip", true],
    ["br;q=0.5, gzip;q=0.8", "gzip", true],
    ["br;q=1.0, gzip;q=1", "br", true],
    ["gzip;q=0.5, identity", null, true],
    ["gzip;q=0.5, identity;q=0.5", "gzip", true],
    ["identity", null, true],
    ["identity;q=0", null, false],
    ["gzip, identity;q=0", "gzip", false],
    ["*", "br", true],
    ["*;q=0", null, false],
    ["*;q=0, identity", null, true],
    ["*;q=0, gzip", "gzip", false],
    ["gzip;q=0, *", "br", true],
    ["br;q=0, gzip;q=0", null, true],
    ["deflate, zstd", null, true],
    ["gzip;q=2", null, true],
    ["gzip;q=abc, br", "br", true],
    ["gzip;q=0.001", "gzip", true],
    [" gzip ; q=0.7 ,, br ; q = 0.6 ", "gzip", true],
    ["br, br;q=0", "br", true],
  ] as const)("%j → %s (identity acceptable: %s)", (header, coding, identityAcceptable) => {
    expect(negotiateContentCoding(header)).toEqual({ coding, identityAcceptable });
  });
});

describe("codingFor: which responses are compressed", () => {
  const json = { method: "GET", status: 200, contentType: "application/json; charset=utf-8", contentEncoding: undefined, length: undefined };

  it("compresses JSON, problem+json and CSV of unknown or large size", () => {
    expect(codingFor("gzip", json)).toBe("gzip");
    expect(codingFor("br", { ...json, length: MIN_COMPRESSED_BYTES })).toBe("br");
    expect(codingFor("gzip", { ...json, contentType: "application/problem+json" })).toBe("gzip");
    expect(codingFor("br", { ...json, contentType: ["text/csv; charset=utf-8"] })).toBe("br");
  });

  it("leaves small bodies alone, unless identity is refused", () => {
    expect(codingFor("gzip", { ...json, length: MIN_COMPRESSED_BYTES - 1 })).toBeNull();
    expect(codingFor("gzip, identity;q=0", { ...json, length: 10 })).toBe("gzip");
    expect(codingFor("*;q=0", { ...json, length: 10 })).toBeNull();
  });

  it("never encodes HEAD, 204, 304, an encoded body or another type", () => {
    expect(codingFor("gzip", { ...json, method: "HEAD" })).toBeNull();
    expect(codingFor("gzip", { ...json, status: 204 })).toBeNull();
    expect(codingFor("gzip", { ...json, status: 304 })).toBeNull();
    expect(codingFor("gzip", { ...json, contentEncoding: "gzip" })).toBeNull();
    expect(codingFor("gzip", { ...json, contentType: "text/html; charset=utf-8" })).toBeNull();
    expect(codingFor("gzip", { ...json, contentType: "application/jsonx" })).toBeNull();
    expect(codingFor("gzip", { ...json, contentType: undefined })).toBeNull();
    expect(codingFor(undefined, json)).toBeNull();
  });
});
