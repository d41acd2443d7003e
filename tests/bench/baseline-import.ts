// The import's baseline: the raw insert into the same schema. The same signups as the import file,
// made in memory (no file, no parsing, no validation), go through the import's own bulk writer in
// one transaction, so the ratio app ÷ baseline is what reading and validating the file costs.
//   DATABASE_PATH=/tmp/x.db node --import tsx tests/bench/baseline-import.ts <waitlist-id> <rows>
import { getDb } from "@/db/client";
import { startSqliteBulkInsert } from "@/lib/domain/signups/bulk-insert";
import { importFileSignups } from "./import-file";

function main() {
  const [waitlistId, rows] = process.argv.slice(2);
  if (!waitlistId || !rows) throw new Error("usage: baseline-import.ts <waitlist-id> <rows>");
  const db = getDb();
  const createdAt = Date.now();
  let imported = 0;
  db.$client.transaction(() => {
    const bulk = startSqliteBulkInsert(waitlistId, db);
    for (const signup of importFileSignups(Number(rows))) if (bulk.add(signup, createdAt)) imported++;
    bulk.finish();
  })();
  console.log(JSON.stringify({ imported }));
}

main();
