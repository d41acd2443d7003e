import { request as httpRequest, type IncomingMessage } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { expect, test } from "@playwright/test";
import { createSession } from "@/lib/domain/sessions";
import { createApiKey } from "@/lib/domain/keys/queries";
import { SESSION_COOKIE } from "@/lib/dashboard/session-cookie";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { Contract } from "../support/api-contract";
import { bearer, insertSignups, makeKeys, makeSignups, nextLink, waitlistWithSignups } from "../support/api-fixtures";

// What /v1 and the CSV export put on the wire: content codings, Vary, entity tags, Cache-Control,
// and no framework headers. Read with node:http, which (unlike Playwright's client) hands over the
// bytes as they came.

interface Wire {
  status: number;
  headers: IncomingMessage["headers"];
  bytes: Buffer;
  /** The body with its content coding undone. */
  text: string;
}

function fetchWire(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Wire> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(new URL(path, process.env.E2E_BASE_URL), { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        const bytes = Buffer.concat(chunks);
        const coding = response.headers["content-encoding"];
        const decoded = coding === "br" ? brotliDecompressSync(bytes) : coding === "gzip" ? gunzipSync(bytes) : bytes;
        resolve({ status: response.statusCode!, headers: response.headers, bytes, text: decoded.toString() });
      });
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

let contract: Contract;
let auth: Record<string, string>;
let bigListId: string;

test.beforeAll(async ({ request }) => {
  contract = await Contract.load(request);
  auth = bearer((await makeKeys()).viewer);
  bigListId = (await waitlistWithSignups(3000)).waitlist.id;
});

test.describe("compression", () => {
  test("a streamed signup list is sent with br or gzip as Accept-Encoding says, and decodes to the same JSON", async () => {
    const path = `/v1/waitlist/${bigListId}/signup`;
    const plain = await fetchWire(path, auth);
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers["vary"]).toBe("Accept-Encoding");
    expect(JSON.parse(plain.text)).toHaveLength(3000);
    const cases: [string, string | undefined][] = [
      ["gzip, deflate, br, zstd", "br"],
      ["gzip", "gzip"],
      ["br;q=0.5, gzip", "gzip"],
      ["identity", undefined],
      ["gzip;q=0, br;q=0", undefined],
      ["identity;q=0", undefined],
    ];
    for (const [acceptEncoding, coding] of cases) {
      const response = await fetchWire(path, { ...auth, "Accept-Encoding": acceptEncoding });
      expect(response.headers["content-encoding"], acceptEncoding).toBe(coding);
      expect(response.headers["vary"]).toBe("Accept-Encoding");
      expect(response.text, acceptEncoding).toBe(plain.text);
      if (coding) expect(response.bytes.length, acceptEncoding).toBeLessThan(plain.bytes.length / 5);
    }
  });

  test("pages, waitlists and problems over 1 KB are compressed with their Content-Length; smaller bodies are not", async () => {
    const page = await fetchWire(`/v1/waitlist/${bigListId}/signup?limit=100`, { ...auth, "Accept-Encoding": "br" });
    expect(page.headers["content-encoding"]).toBe("br");
    expect(Number(page.headers["content-length"])).toBe(page.bytes.length);
    expect(JSON.parse(page.text)).toHaveLength(100);
    for (const path of [`/v1/waitlist/${bigListId}`, `/v1/waitlist/${bigListId}/signup?limit=1`]) {
      const small = await fetchWire(path, { ...auth, "Accept-Encoding": "gzip, br" });
      expect(small.status).toBe(200);
      expect(small.headers["content-encoding"], path).toBeUndefined();
      expect(small.headers["vary"]).toBe("Accept-Encoding");
      expect(Number(small.headers["content-length"])).toBe(small.bytes.length);
    }
    const problem = await fetchWire(`/v1/waitlist/${bigListId}/signup?verfied=true`, { ...auth, "Accept-Encoding": "gzip" });
    expect(problem.status).toBe(400);
    expect(problem.headers["content-encoding"]).toBeUndefined();
    // A HEAD says nothing of a coding: its size decides, and it has no body.
    const head = await fetchWire(`/v1/waitlist/${bigListId}/signup`, { ...auth, "Accept-Encoding": "br" }, "HEAD");
    expect(head.headers["content-encoding"]).toBeUndefined();
    expect(head.headers["vary"]).toBe("Accept-Encoding");
  });

  test("openapi.json is compressed", async () => {
    const plain = await fetchWire("/v1/openapi.json");
    const compressed = await fetchWire("/v1/openapi.json", { "Accept-Encoding": "gzip, br" });
    expect(compressed.headers["content-encoding"]).toBe("br");
    expect(compressed.text).toBe(plain.text);
    expect(compressed.bytes.length).toBeLessThan(plain.bytes.length / 3);
  });

  test("the dashboard's CSV export is compressed, and decodes to the same file", async () => {
    const key = await createApiKey({ name: "wire export", roles: ["waitlist:view"] });
    const cookie = `${SESSION_COOKIE}=${(await createSession(key.id)).token}`;
    const path = `/waitlists/${bigListId}/export`;
    const plain = await fetchWire(path, { cookie });
    expect(plain.status).toBe(200);
    expect(plain.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(plain.text.split("\r\n")).toHaveLength(3002);
    for (const coding of ["br", "gzip"]) {
      const response = await fetchWire(path, { cookie, "Accept-Encoding": coding });
      expect(response.headers["content-encoding"]).toBe(coding);
      expect(response.headers["vary"]).toContain("Accept-Encoding");
      expect(response.headers["content-disposition"]).toBe(plain.headers["content-disposition"]);
      expect(response.text).toBe(plain.text);
      expect(response.bytes.length).toBeLessThan(plain.bytes.length / 4);
    }
  });
});

test.describe("conditional requests", () => {
  test("the waitlist list and one waitlist carry an ETag, answer 304 to If-None-Match, and change when the data does", async ({ request }) => {
    const waitlist = await createWaitlist({ name: `ETag ${Date.now()}`, website: "https://etag.example/" });
    for (const [path, template] of [
      ["/v1/waitlist", "/waitlist"],
      [`/v1/waitlist/${waitlist.id}`, "/waitlist/{id}"],
    ] as const) {
      const first = await request.get(path, { headers: auth });
      await contract.check(first, template);
      const etag = first.headers()["etag"]!;
      expect(etag).toMatch(/^W\/"[\w-]+"$/);
      expect(first.headers()["cache-control"]).toBe("private, no-cache");
      const again = await request.get(path, { headers: { ...auth, "If-None-Match": etag } });
      expect(again.status()).toBe(304);
      expect(await again.text()).toBe("");
      expect(again.headers()["etag"]).toBe(etag);
      expect(again.headers()["cache-control"]).toBe("private, no-cache");
      expect(again.headers()["ratelimit"]).toBeDefined();
      await contract.check(again, template);
      expect((await request.head(path, { headers: { ...auth, "If-None-Match": `"x", ${etag}` } })).status()).toBe(304);
      expect((await request.get(path, { headers: { ...auth, "If-None-Match": '"other"' } })).status()).toBe(200);
      // Authentication still comes first: a stale copy never reveals anything to a wrong key.
      expect((await request.get(path, { headers: { "If-None-Match": etag } })).status()).toBe(401);
    }
    const before = (await request.get("/v1/waitlist", { headers: auth })).headers()["etag"]!;
    await createWaitlist({ name: `ETag later ${Date.now()}`, website: "https://etag.example/later" });
    const after = await request.get("/v1/waitlist", { headers: { ...auth, "If-None-Match": before } });
    expect(after.status()).toBe(200);
    expect(after.headers()["etag"]).not.toBe(before);
  });

  test("a signup page's ETag covers its Link: the last page changes when a signup arrives after it", async ({ request }) => {
    const { waitlist } = await waitlistWithSignups(5);
    const path = `/v1/waitlist/${waitlist.id}/signup?limit=5`;
    const last = await request.get(path, { headers: auth });
    expect(nextLink(last)).toBeNull();
    expect(last.headers()["cache-control"]).toBe("private, no-store");
    const etag = last.headers()["etag"]!;
    const unchanged = await request.get(path, { headers: { ...auth, "If-None-Match": etag } });
    expect(unchanged.status()).toBe(304);
    await contract.check(unchanged, "/waitlist/{id}/signup");
    await insertSignups(waitlist.id, makeSignups(1, `late${Date.now()}`, Date.UTC(2027, 0, 1)));
    // Same five signups on the page, but now there is a next page.
    const changed = await request.get(path, { headers: { ...auth, "If-None-Match": etag } });
    expect(changed.status()).toBe(200);
    expect(nextLink(changed)).not.toBeNull();
    expect(changed.headers()["etag"]).not.toBe(etag);
  });

  test("a complete (streamed) signup list has no ETag and is never stored", async ({ request }) => {
    const response = await request.get(`/v1/waitlist/${bigListId}/signup`, { headers: { ...auth, "If-None-Match": "*" } });
    expect(response.status()).toBe(200);
    expect(response.headers()["etag"]).toBeUndefined();
    expect(response.headers()["cache-control"]).toBe("private, no-store");
  });

  test("openapi.json is public, revalidated, and takes no query parameters", async ({ request }) => {
    const response = await request.get("/v1/openapi.json");
    expect(response.headers()["cache-control"]).toBe("public, no-cache");
    const etag = response.headers()["etag"]!;
    expect((await request.get("/v1/openapi.json", { headers: { "If-None-Match": etag } })).status()).toBe(304);
    const refused = await request.get("/v1/openapi.json?x=1");
    expect(refused.status()).toBe(400);
    expect(await refused.json()).toMatchObject({ code: "invalid_parameter", parameter: "x" });
    await contract.check(refused, "/openapi.json");
  });
});

test.describe("no framework headers on /v1", () => {
  const nextVary = /rsc|next-router/i;

  test("404, 405, OPTIONS and every documented response carry no Next.js Vary", async () => {
    const cases: [string, string][] = [
      ["/v1/nope", "GET"],
      ["/v1/waitlist", "POST"],
      ["/v1/waitlist", "OPTIONS"],
      [`/v1/waitlist/${bigListId}`, "DELETE"],
      ["/v1/openapi.json", "PUT"],
      ["/v1/waitlist", "GET"],
      ["/v1/openapi.json", "GET"],
    ];
    for (const [path, method] of cases) {
      const response = await fetchWire(path, auth, method);
      expect(response.headers["vary"] ?? "", `${method} ${path}`).not.toMatch(nextVary);
      expect(response.headers["x-nextjs-cache"], `${method} ${path}`).toBeUndefined();
    }
  });

  test("the trailing-slash redirect is a 308 with Cache-Control and a Content-Type, without Refresh", async () => {
    for (const path of ["/v1/waitlist/?limit=1", `/v1/waitlist/${bigListId}/`, "/v1/openapi.json/"]) {
      const response = await fetchWire(path, auth);
      expect(response.status, path).toBe(308);
      expect(response.headers["location"]).toBe(path.replace(/\/(\?|$)/, "$1"));
      expect(response.headers["cache-control"]).toBe("no-store");
      expect(response.headers["content-type"]).toBe("text/plain; charset=utf-8");
      expect(response.headers["refresh"]).toBeUndefined();
      expect(response.headers["vary"] ?? "").not.toMatch(nextVary);
      expect(response.headers["request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
