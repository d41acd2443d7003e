import { request as httpRequest } from "node:http";
import { expect, test } from "@playwright/test";
import { seededRandom } from "@/lib/seed/random";
import { isValidRouterState } from "@/lib/server/router-state";
import { startTestServer, type TestServer } from "../support/test-server";

// lib/server/router-state.ts re-implements Next.js's check of the Next-Router-State-Tree header with
// public tools, so that our server answers a malformed one with a 400 where Next.js would fail with a
// 500. Both must agree on every header, valid or not: each header here goes to Next.js's own
// `next start` on the e2e build (no lib/server in front), as the client router sends it (RSC: 1),
// and Next.js's answer (200, or 500 when its check throws) is compared with isValidRouterState.
// A Next.js upgrade that changes the format fails here.

let next: TestServer;

test.beforeAll(async () => {
  // Headers up to the 40,000 characters Next.js reads, and deeper: Node's 16 KB default would cut them off first.
  next = await startTestServer({ portOffset: 21, name: "router-state", bareNext: true, env: { NODE_OPTIONS: "--max-http-header-size=1048576" } });
});

test.afterAll(async () => {
  await next?.stop();
});

function get(path: string, header: string | string[] | undefined): Promise<{ status: number; location?: string }> {
  const headers: Record<string, string | string[]> = { RSC: "1", ...(header !== undefined && { "Next-Router-State-Tree": header }) };
  return new Promise((resolve, reject) => {
    httpRequest({ host: "127.0.0.1", port: next.port, path, headers }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode!, location: response.headers.location }));
    })
      .on("error", reject)
      .end();
  });
}

/** Whether Next.js renders the page with this header: it first redirects to add its `_rsc` cache-busting parameter. */
async function nextAccepts(header: string | string[] | undefined): Promise<boolean> {
  const first = await get("/signin", header);
  expect(first.status, "Next.js redirects an RSC request to its _rsc URL").toBe(307);
  const { status } = await get(first.location!, header);
  expect([200, 500], `status for ${String(header).slice(0, 60)}`).toContain(status);
  return status === 200;
}

/** Runs `check` over `items`, a few at a time. */
async function eachConcurrently<T>(items: T[], check: (item: T) => Promise<void>, concurrency = 8) {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await check(items[next++]!);
  }));
}

const encode = (state: unknown) => encodeURIComponent(JSON.stringify(state));

// States as the client router sends them (Next's prepareFlightRouterStateForRequest), and the corners of the format.
const VALID: unknown[] = [
  ["", {}],
  ["", { children: ["__PAGE__", {}] }],
  ["", { children: ["(dashboard)", { children: ["waitlists", { children: [["id", "5c1e0b8e", "d", null], { children: ["__PAGE__?{\"verified\":\"true\"}", {}] }] }] }] }, null, "refetch"],
  ["", { children: [["path", "a/b", "oc", ["x", "y"]], {}, ["/a", "/b"], "inside-shared-layout", 3, "extra"] }],
  ["", { children: ["x", {}, null, null, null] }, null, "metadata-only", 0],
  ["", [["", {}]]],
  // An own "__proto__" key, as JSON.parse makes it (an object literal would set the prototype instead).
  JSON.parse('["", { "": ["", {}], "__proto__": ["", {}] }]'),
];

const INVALID: unknown[] = [
  [],
  [""],
  ["", {}, null, null, null, "x", "too long"],
  ["", null],
  ["", { children: 1 }],
  JSON.parse('["", { "children": ["", {}], "__proto__": 1 }]'),
  [1, {}],
  [["id", "x", "unknown type", null], {}],
  [["id", "x", "d"], {}],
  ["", {}, ["/a"]],
  ["", {}, null, "reload"],
  ["", {}, null, null, "1"],
  ["", {}, null, null, null, 1],
  { children: ["", {}] },
  "",
  null,
];

const HEADERS: (string | string[] | undefined)[] = [
  undefined,
  ["%5B%5D", "%5B%5D"],
  "%5B%5D",
  "garbage",
  "%FF",
  "%E0%A4%A",
  "",
  "[\"\",{}]",
  encode(["", {}]).repeat(1),
  `${encode(["", { children: ["x".repeat(39_980), {}] }])}`,
  encode(["", { children: ["x".repeat(40_000), {}] }]),
  JSON.stringify(["", { children: ["x".repeat(39_980), {}] }]),
];

/** A router state nested `levels` segments deep, as a header (built as text: JSON.stringify would overflow the stack). */
function nested(levels: number): string {
  return encodeURIComponent(`${'["",{"children":'.repeat(levels)}["",{}]${"}]".repeat(levels)}`);
}

const REPLACEMENTS: unknown[] = [1, 1.5, -0, "x", "", null, true, [], {}, ["", {}], ["id", "v", "c", null], ["id", "v", "ci(..)(..)", []], ["a", "b"], "refetch"];

/** A valid state with one or two random parts replaced, removed or added. */
function mutated(random: ReturnType<typeof seededRandom>): unknown {
  const state: unknown = structuredClone(random.pick(VALID));
  for (let round = random.int(1, 2); round > 0; round--) {
    let node = state as unknown[] | Record<string, unknown>;
    for (let depth = random.int(0, 6); depth > 0; depth--) {
      const children = Object.values(node).filter((child) => typeof child === "object" && child !== null);
      if (children.length === 0) break;
      node = random.pick(children) as typeof node;
    }
    const keys = Object.keys(node);
    const roll = random.next();
    if (Array.isArray(node) && roll < 0.2) node.push(structuredClone(random.pick(REPLACEMENTS)));
    else if (Array.isArray(node) && roll < 0.35) node.pop();
    else if (keys.length > 0) (node as Record<string, unknown>)[random.pick(keys)] = structuredClone(random.pick(REPLACEMENTS));
  }
  return state;
}

test("accepts the states Next.js accepts and refuses the ones it refuses", async () => {
  for (const state of VALID) {
    expect(await nextAccepts(encode(state)), JSON.stringify(state)).toBe(true);
    expect(isValidRouterState(encode(state)), JSON.stringify(state)).toBe(true);
  }
  for (const state of INVALID) {
    expect(await nextAccepts(encode(state)), JSON.stringify(state)).toBe(false);
    expect(isValidRouterState(encode(state)), JSON.stringify(state)).toBe(false);
  }
});

test("agrees with Next.js on absent, repeated, oversized, unencoded and badly encoded headers", async () => {
  for (const header of HEADERS) {
    // Node hands a repeated header to both as one value, joined by ", ".
    const received = Array.isArray(header) ? header.join(", ") : header;
    expect(isValidRouterState(received), String(header).slice(0, 40)).toBe(await nextAccepts(header));
  }
  expect(isValidRouterState(["%5B%5D", "%5B%5D"])).toBe(false);
  expect(isValidRouterState(undefined)).toBe(true);
  expect(isValidRouterState("%FF")).toBe(false);
});

test("agrees with Next.js on 5,000 seeded mutations of valid states", async () => {
  test.setTimeout(300_000);
  const random = seededRandom(10);
  const headers = Array.from({ length: 5000 }, () => encode(mutated(random)));
  let accepted = 0;
  await eachConcurrently(headers, async (header) => {
    const accepts = await nextAccepts(header);
    expect(isValidRouterState(header), decodeURIComponent(header)).toBe(accepts);
    if (accepts) accepted++;
  });
  // The mutations reach both sides of the line.
  expect(accepted).toBeGreaterThan(500);
  expect(accepted).toBeLessThan(4500);
});

test("accepts states as deep as real ones and refuses, before Next.js would overflow its stack, deeper ones", async () => {
  expect(await nextAccepts(nested(99))).toBe(true);
  expect(isValidRouterState(nested(99))).toBe(true);
  expect(isValidRouterState(nested(100))).toBe(false);
  expect(await nextAccepts(nested(3000))).toBe(false);
  expect(isValidRouterState(nested(3000))).toBe(false);
});
