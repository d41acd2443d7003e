import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";

// Issue 33's edge: a build into another NEXT_DIST_DIR leaves the tracked files as they were. Next.js
// adds the output folder's types to the include of the tsconfig it reads unless that tsconfig extends
// another (next/dist/lib/typescript/writeConfigurationDefaults.js bails on `extends`), so such a build
// reads tsconfig.dist.json, which only extends tsconfig.json. (Checked by hand with a real build: a
// test that builds would take minutes.)

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

async function configWith(distDir: string | undefined) {
  vi.stubEnv("NEXT_DIST_DIR", distDir);
  vi.resetModules();
  return (await import("@/next.config")).default;
}

describe("next.config.ts", () => {
  it("builds into .next with tsconfig.json, whose include already names .next's types", async () => {
    const config = await configWith(undefined);
    expect(config.distDir).toBe(".next");
    expect(config.typescript?.tsconfigPath).toBeUndefined();
    const include = (JSON.parse(readFileSync("tsconfig.json", "utf8")) as { include: string[] }).include;
    expect(include).toEqual(expect.arrayContaining([".next/types/**/*.ts", ".next/dev/types/**/*.ts"]));
  });

  it("builds into another folder with tsconfig.dist.json, which extends tsconfig.json and adds nothing", async () => {
    const config = await configWith(".next-other");
    expect(config.distDir).toBe(".next-other");
    expect(config.typescript?.tsconfigPath).toBe("tsconfig.dist.json");
    expect(JSON.parse(readFileSync("tsconfig.dist.json", "utf8"))).toEqual({ extends: "./tsconfig.json" });
  });

  it("loads better-sqlite3 and postgres (patched at install: db/pg/patches) from node_modules at run time", async () => {
    expect((await configWith(undefined)).serverExternalPackages).toEqual(expect.arrayContaining(["better-sqlite3", "postgres"]));
  });
});
