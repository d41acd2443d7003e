import { once } from "node:events";
import { createWriteStream, existsSync, renameSync } from "node:fs";
import { join } from "node:path";
import { fakeCustomInputs, fakeEmail, seededRandom } from "./random";

const csvQuote = (text: string) => `"${text.replace(/"/g, '""')}"`;

/**
 * A deterministic CSV of `count` signups in the import format (email,verified,referral,custom_inputs),
 * written once into `cacheDir` and reused.
 */
export async function prepareImportFile(cacheDir: string, count: number): Promise<string> {
  const path = join(cacheDir, `import-${count}-v1.csv`);
  if (existsSync(path)) return path;
  const partial = `${path}.partial-${process.pid}`;
  const out = createWriteStream(partial);
  const random = seededRandom(4_242);
  out.write("email,verified,referral,custom_inputs\n");
  for (let n = 0; n < count; n++) {
    const line = `${fakeEmail(random, n)},${random() < 0.6},${random() < 0.25},${csvQuote(fakeCustomInputs(random))}\n`;
    if (!out.write(line)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  renameSync(partial, path);
  return path;
}
