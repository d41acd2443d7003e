import { parseAndValidateFlightRouterState } from "next/dist/server/app-render/parse-and-validate-flight-router-state";
import { describe, expect, it } from "vitest";
import { seededRandom } from "@/lib/seed/random";
import { isValidRouterState } from "@/lib/server/router-state";

// lib/server/router-state.ts re-implements Next.js's check of the Next-Router-State-Tree header with
// public tools: both must agree on every header, valid or not. Tests may import next/dist.

function nextAccepts(header: string | string[] | undefined): boolean {
  try {
    parseAndValidateFlightRouterState(header);
    return true;
  } catch {
    return false;
  }
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

describe("isValidRouterState", () => {
  it.each(VALID.map((state) => [JSON.stringify(state)]))("accepts %s, as Next.js does", (text) => {
    expect(nextAccepts(encodeURIComponent(text))).toBe(true);
    expect(isValidRouterState(encodeURIComponent(text))).toBe(true);
  });

  it.each(INVALID.map((state) => [JSON.stringify(state)]))("refuses %s, as Next.js does", (text) => {
    expect(nextAccepts(encodeURIComponent(text))).toBe(false);
    expect(isValidRouterState(encodeURIComponent(text))).toBe(false);
  });

  it("agrees with Next.js on absent, repeated, oversized, unencoded and badly encoded headers", () => {
    for (const header of HEADERS) expect(isValidRouterState(header), String(header).slice(0, 40)).toBe(nextAccepts(header));
    expect(isValidRouterState(undefined)).toBe(true);
    expect(isValidRouterState("%FF")).toBe(false);
  });

  it("agrees with Next.js on 5,000 seeded mutations of valid states", () => {
    const random = seededRandom(10);
    let accepted = 0;
    for (let index = 0; index < 5000; index++) {
      const header = encode(mutated(random));
      const next = nextAccepts(header);
      expect(isValidRouterState(header), decodeURIComponent(header)).toBe(next);
      if (next) accepted++;
    }
    // The mutations reach both sides of the line.
    expect(accepted).toBeGreaterThan(500);
    expect(accepted).toBeLessThan(4500);
  });

  it("accepts states as deep as real ones and refuses, before Next.js would overflow its stack, deeper ones", () => {
    expect(nextAccepts(nested(99))).toBe(true);
    expect(isValidRouterState(nested(99))).toBe(true);
    expect(isValidRouterState(nested(100))).toBe(false);
    expect(nextAccepts(nested(3000))).toBe(false);
    expect(isValidRouterState(nested(3000))).toBe(false);
  });
});
