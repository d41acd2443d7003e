import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The `next` command, found through the `bin` field next publishes (its path inside the package is its own business). */
export function nextCli(): string {
  const manifest = createRequire(join(process.cwd(), "package.json")).resolve("next/package.json");
  const { bin } = JSON.parse(readFileSync(manifest, "utf8")) as { bin: { next: string } };
  return join(dirname(manifest), bin.next);
}
