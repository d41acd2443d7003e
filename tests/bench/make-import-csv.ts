// Writes a large signup CSV for measuring `signups import`:
//   npx tsx tests/bench/make-import-csv.ts /tmp/signups-1m.csv 1000000
import { once } from "node:events";
import { createWriteStream } from "node:fs";

const ROLES = ["Engineer", "Designer", "Founder", "Student"];

async function main() {
  const [path = "/tmp/signups-1m.csv", countText = "1000000"] = process.argv.slice(2);
  const count = Number(countText);
  const out = createWriteStream(path);
  out.write("email,verified,referral,custom_inputs,company\n");
  for (let index = 0; index < count; index++) {
    const inputs = index % 3 === 0 ? "[]" : `"[{""label"":""role"",""value"":""${ROLES[index % ROLES.length]}""}]"`;
    const line = `user${index}.bench@example${index % 97}.com,${index % 5 < 3},${index % 4 === 0 ? "yes" : "no"},${inputs},${index % 2 ? "Acme" : ""}\n`;
    if (!out.write(line)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  console.log(`wrote ${count} rows to ${path}`);
}

void main();
