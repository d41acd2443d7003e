// Uploads one file to the dashboard's import (POST /waitlists/{id}/import/upload), as the browser
// does, in a process of its own (so its reading and sending cost the measuring process nothing).
// Prints one JSON line: the seconds until the body was sent... and the final event of the import.
//   npx tsx tests/bench/load/upload-file.ts <origin> <cookie header> <waitlist id> <file>
import { createReadStream, statSync } from "node:fs";
import { basename } from "node:path";
import { Readable } from "node:stream";

async function main() {
  const [origin, cookie, waitlistId, file] = process.argv.slice(2) as [string, string, string, string];
  const started = performance.now();
  const response = await fetch(`${origin}/waitlists/${waitlistId}/import/upload?name=${encodeURIComponent(basename(file))}`, {
    method: "POST",
    headers: { cookie, origin, "content-type": "application/octet-stream", "content-length": String(statSync(file).size) },
    body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>,
    duplex: "half",
  } as RequestInit);
  if (response.status !== 200) throw new Error(`upload: status ${response.status}: ${await response.text()}`);
  let receivedAt = 0;
  let last = "";
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    for (const line of lines) {
      if (line.includes('"received"')) receivedAt = performance.now();
      last = line;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({ seconds, uploadSeconds: (receivedAt - started) / 1000, outcome: JSON.parse(last) as unknown }));
}

void main();
