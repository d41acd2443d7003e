import { once } from "node:events";
import { createWriteStream, existsSync, renameSync } from "node:fs";
import { join } from "node:path";
import type { NewSignup } from "@/lib/domain/signups/queries";
import { fakeCustomInputs, fakeEmail, seededRandom } from "./random";

const csvQuote = (text: string) => `"${text.replace(/"/g, '""')}"`;

/** The signups of the import file, in its order: what the baseline inserts without reading a file. */
export function* importFileSignups(count: number): Generator<NewSignup> {
  const random = seededRandom(4_242);
  for (let n = 0; n < count; n++) yield { email: fakeEmail(random, n), verified: random() < 0.6, referral: random() < 0.25, customInputs: fakeCustomInputs(random) };
}

/**
 * A deterministic CSV of `count` signups in the import format (email,verified,referral,custom_inputs),
 * written once into `cacheDir` and reused.
 */
export async function prepareImportFile(cacheDir: string, count: number): Promise<string> {
  const path = join(cacheDir, `import-${count}-v1.csv`);
  if (existsSync(path)) return path;
  const partial = `${path}.partial-${process.pid}`;
  const out = createWriteStream(partial);
  out.write("email,verified,referral,custom_inputs\n");
  for (const signup of importFileSignups(count)) {
    if (!out.write(`${signup.email},${signup.verified},${signup.referral},${csvQuote(signup.customInputs)}\n`)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  renameSync(partial, path);
  return path;
}

/** The same signups as an NDJSON file (one object per line, custom_inputs as JSON), written once into `cacheDir` and reused. */
export async function prepareNdjsonImportFile(cacheDir: string, count: number): Promise<string> {
  const path = join(cacheDir, `import-${count}-v1.ndjson`);
  if (existsSync(path)) return path;
  const partial = `${path}.partial-${process.pid}`;
  const out = createWriteStream(partial);
  for (const signup of importFileSignups(count)) {
    const line = JSON.stringify({ email: signup.email, verified: signup.verified, referral: signup.referral, custom_inputs: JSON.parse(signup.customInputs) as unknown });
    if (!out.write(`${line}\n`)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  renameSync(partial, path);
  return path;
}
