// The import's baseline: the same CSV parser and the same INSERT as `signups import`, in one pass
// and one transaction, with no validation, progress or second pass.
//   DATABASE_PATH=/tmp/x.db node --import tsx tests/bench/baseline-import.ts <waitlist-id> <file.csv>
import { createReadStream } from "node:fs";
import { parse } from "csv-parse";
import { getDb } from "@/db/client";
import { prepareSignupInsert } from "@/lib/domain/signups/queries";

async function main() {
  const [waitlistId, path] = process.argv.slice(2);
  if (!waitlistId || !path) throw new Error("usage: baseline-import.ts <waitlist-id> <file.csv>");
  const db = getDb();
  const insert = prepareSignupInsert(waitlistId, db);
  const createdAt = Date.now();
  let imported = 0;
  db.$client.exec("BEGIN IMMEDIATE");
  const records = createReadStream(path, { highWaterMark: 1 << 20 }).pipe(parse({ from_line: 2 }));
  for await (const [email, verified, referral, customInputs] of records as AsyncIterable<string[]>) {
    if (insert({ email: email!, verified: verified === "true", referral: referral === "true", customInputs: customInputs! }, createdAt)) imported++;
  }
  db.$client.exec("COMMIT");
  console.log(JSON.stringify({ imported }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
