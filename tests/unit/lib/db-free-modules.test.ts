import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// Code that runs in the browser must not load the database client, not even through a constant
// it imports (bundlers would try to pack better-sqlite3): these tests walk the import graph. A
// "use server" module stays on the server (the browser gets a reference to its actions).

const ROOT = resolve(__dirname, "../../..");
const RUNTIME_IMPORT = /^\s*(?:import|export)\s+(?!type\s)(?:[^;]*?\s+from\s+)?["']([^"']+)["']/gm;
const DATABASE = [/^db\//, /^better-sqlite3$/, /^drizzle-orm(\/|$)/];

function resolveLocal(specifier: string, from: string): string | undefined {
  const base = specifier.startsWith("@/") ? join(ROOT, specifier.slice(2)) : specifier.startsWith(".") ? resolve(dirname(from), specifier) : undefined;
  if (!base) return undefined;
  return ["", ".ts", ".tsx", "/index.ts", "/index.tsx"].map((suffix) => base + suffix).find((path) => existsSync(path) && statSync(path).isFile());
}

/** Every module (project files relative to the root, packages by name) that loading `entry` runs. */
function runtimeGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const pending = [join(ROOT, entry)];
  while (pending.length > 0) {
    const file = pending.pop()!;
    const name = relative(ROOT, file);
    if (seen.has(name)) continue;
    seen.add(name);
    const source = readFileSync(file, "utf8");
    if (file !== join(ROOT, entry) && /^\s*["']use server["']/.test(source)) continue;
    for (const [, specifier] of source.matchAll(RUNTIME_IMPORT)) {
      const local = resolveLocal(specifier!, file);
      if (local) pending.push(local);
      else seen.add(specifier!);
    }
  }
  return seen;
}

function databaseModules(entry: string): string[] {
  return [...runtimeGraph(entry)].filter((name) => DATABASE.some((pattern) => pattern.test(name)));
}

function clientComponents(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .map((path) => join(folder, path))
    .filter((path) => /\.tsx?$/.test(path) && /^\s*["']use client["']/.test(readFileSync(join(ROOT, path), "utf8")));
}

describe("modules the browser loads", () => {
  it.each(["lib/domain/list-params.ts", "lib/domain/sorting.ts", "lib/domain/session-lifetime.ts", "lib/core/time.ts"])(
    "%s loads no database code",
    (entry) => {
      expect(runtimeGraph(entry).size).toBeGreaterThan(0);
      expect(databaseModules(entry)).toEqual([]);
    },
  );

  it("the walk sees the database behind a query module", () => {
    expect(databaseModules("lib/domain/signups/queries.ts")).toEqual(expect.arrayContaining(["db/client.ts", "drizzle-orm"]));
  });

  it("no client component loads database code", () => {
    const components = [...clientComponents("app"), ...clientComponents("components")];
    expect(components.length).toBeGreaterThan(3);
    expect(components.filter((component) => databaseModules(component).length > 0)).toEqual([]);
  });

  // zod's object schemas probe for `new Function` when they are built, which the dashboard's CSP
  // reports as a violation in the browser: the schemas stay on the server.
  it("no client component loads zod", () => {
    const components = [...clientComponents("app"), ...clientComponents("components")];
    expect(components.filter((component) => runtimeGraph(component).has("zod"))).toEqual([]);
    expect(runtimeGraph("lib/domain/list-params.ts").has("zod")).toBe(true);
  });
});
