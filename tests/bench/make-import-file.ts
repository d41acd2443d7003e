// Writes a large signup file for measuring `signups import`; the format follows the extension:
//   npx tsx tests/bench/make-import-file.ts /tmp/signups-1m.csv 1000000
//   npx tsx tests/bench/make-import-file.ts /tmp/signups-1m.json 1000000   (also .ndjson)
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { extname } from "node:path";

const ROLES = ["Engineer", "Designer", "Founder", "Student"];

function signup(index: number) {
  const customInputs = index % 3 === 0 ? [] : [{ label: "role", value: ROLES[index % ROLES.length] }];
  if (index % 2) customInputs.push({ label: "company", value: "Acme" });
  return { email: `user${index}.bench@example${index % 97}.com`, verified: index % 5 < 3, referral: index % 4 === 0, custom_inputs: customInputs };
}

function csvLine(index: number): string {
  const inputs = index % 3 === 0 ? "[]" : `"[{""label"":""role"",""value"":""${ROLES[index % ROLES.length]}""}]"`;
  return `user${index}.bench@example${index % 97}.com,${index % 5 < 3},${index % 4 === 0 ? "yes" : "no"},${inputs},${index % 2 ? "Acme" : ""}\n`;
}

async function main() {
  const [path = "/tmp/signups-1m.csv", countText = "1000000"] = process.argv.slice(2);
  const count = Number(countText);
  const format = extname(path);
  const out = createWriteStream(path);
  if (format === ".csv") out.write("email,verified,referral,custom_inputs,company\n");
  if (format === ".json") out.write("[\n");
  for (let index = 0; index < count; index++) {
    const text =
      format === ".csv" ? csvLine(index) : format === ".json" ? `${index ? ",\n" : ""}${JSON.stringify(signup(index))}` : `${JSON.stringify(signup(index))}\n`;
    if (!out.write(text)) await once(out, "drain");
  }
  if (format === ".json") out.write("\n]\n");
  out.end();
  await once(out, "finish");
  console.log(`wrote ${count} rows to ${path}`);
}

void main();
