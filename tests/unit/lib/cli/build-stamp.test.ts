import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildIsCurrent, sourceHash, stampBuild } from "@/lib/cli/build-stamp";

// The demo's "no rebuild when nothing changed": the hash of the build's inputs, stamped in the build folder.

let root: string;
const write = (path: string, text: string) => {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), text);
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "waitlist-stamp-"));
  write("app/page.tsx", "export default function Page() {}");
  write("lib/core/env.ts", "export {}");
  write("package-lock.json", "{}");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("sourceHash", () => {
  it("changes with a source's content, a new source (an MDX page too) or a .env file", () => {
    const before = sourceHash(root);
    write("app/page.tsx", "export default function Page() { return null; }");
    const edited = sourceHash(root);
    expect(edited).not.toBe(before);
    write("components/new.tsx", "export {}");
    expect(sourceHash(root)).not.toBe(edited);
    const withComponent = sourceHash(root);
    write("app/docs/guide/page.mdx", "# Guide");
    const withPage = sourceHash(root);
    expect(withPage).not.toBe(withComponent);
    write(".env.local", "NEXT_PUBLIC_X=1");
    expect(sourceHash(root)).not.toBe(withPage);
  });

  it("ignores what the build does not read: build folders, dependencies, tests, data, databases, next-env.d.ts, Markdown", () => {
    const before = sourceHash(root);
    for (const path of [".next/BUILD_ID", ".next-other/x.js", "node_modules/a/index.js", "tests/unit/a.test.ts", "data/waitlist.db", "demo.db-wal", "next-env.d.ts", "data/waitlist.db.demo-keys.json", ".git/HEAD", "README.md", "tests/bench/README.md"]) write(path, "changed");
    expect(sourceHash(root)).toBe(before);
  });
});

describe("buildIsCurrent", () => {
  it("holds for a finished build stamped with the same sources, and no longer once a source changes", () => {
    const dist = join(root, ".next-test");
    const hash = sourceHash(root);
    expect(buildIsCurrent(dist, hash)).toBe(false);
    write(".next-test/BUILD_ID", "abc");
    expect(buildIsCurrent(dist, hash)).toBe(false);
    stampBuild(dist, hash);
    expect(buildIsCurrent(dist, hash)).toBe(true);
    write("lib/core/env.ts", "export const x = 1;");
    expect(buildIsCurrent(dist, sourceHash(root))).toBe(false);
  });
});
