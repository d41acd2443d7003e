import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

// `npm run demo` builds only when the sources changed since the last build in the build folder: a
// hash of the files the build reads is stamped there after each successful build.

/** Folders the build never reads: dependencies (package-lock.json stands for them), tests, data, outputs. */
const SKIPPED_FOLDERS = new Set(["node_modules", "tests", "data", "test-results", "playwright-report", "bench-results"]);
const STAMP_FILE = "source-hash";

/**
 * Whether a file is an input of the build: not a database, a key file, a file the build itself writes
 * (next-env.d.ts) or Markdown (README.md; the guide's pages are .mdx).
 */
function isBuildInput(name: string): boolean {
  if (name === "next-env.d.ts" || /\.(db|db-wal|db-shm|key|tsbuildinfo|log|md)$/.test(name) || name.endsWith(".demo-keys.json")) return false;
  // Dot files are left out but for .env files, which Next.js reads at build time.
  return !name.startsWith(".") || name.startsWith(".env");
}

/** SHA-256 of every build input under `root` (paths and contents, in a fixed order). */
export function sourceHash(root: string): string {
  const hash = createHash("sha256");
  const walk = (folder: string, relative: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(folder, entry.name);
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!entry.name.startsWith(".") && !SKIPPED_FOLDERS.has(entry.name)) walk(path, name);
      } else if (entry.isFile() && isBuildInput(entry.name)) {
        hash.update(`${name}\0`).update(readFileSync(path)).update("\0");
      }
    }
  };
  walk(root, "");
  return hash.digest("hex");
}

/** Whether `distDir` holds a finished build of sources with this hash. */
export function buildIsCurrent(distDir: string, hash: string): boolean {
  const stamp = join(distDir, STAMP_FILE);
  return existsSync(join(distDir, "BUILD_ID")) && existsSync(stamp) && readFileSync(stamp, "utf8").trim() === hash;
}

/** Records that the build in `distDir` is of sources with this hash. */
export function stampBuild(distDir: string, hash: string): void {
  writeFileSync(join(distDir, STAMP_FILE), `${hash}\n`);
}
