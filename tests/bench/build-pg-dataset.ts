// Builds the bench's dataset in PostgreSQL and says how long it took: in the database at --url (kept
// there for later runs), or in a throw-away PostgreSQL 15 (thrown away after).
//   node --import tsx tests/bench/build-pg-dataset.ts [--scale 1m|10m|<count>] [--url postgres://…]
import { parseArgs } from "node:util";
import { preparePgDataset } from "./pg-dataset";

const SCALES: Record<string, number> = { "1m": 1_000_000, "10m": 10_000_000 };

async function main() {
  const { values } = parseArgs({ options: { scale: { type: "string", default: "1m" }, url: { type: "string" } } });
  const bigCount = SCALES[values.scale] ?? Number(values.scale);
  if (!Number.isSafeInteger(bigCount) || bigCount < 2) throw new Error(`--scale: 1m, 10m or a count of signups (got ${values.scale})`);
  process.env.SECRETS_KEY ??= "a".repeat(64);
  const started = performance.now();
  let next = 100_000;
  const dataset = await preparePgDataset({
    url: values.url,
    bigCount,
    onProgress: (inserted) => {
      if (inserted < next) return;
      console.error(`${inserted} signups, ${((performance.now() - started) / 1000).toFixed(0)} s`);
      next += 100_000;
    },
  });
  try {
    const { close: _close, url: _url, db: _db, ...shown } = dataset;
    console.log(JSON.stringify(shown, null, 2));
  } finally {
    await dataset.close();
  }
}

void main();
