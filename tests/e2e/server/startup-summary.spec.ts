import { resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { startTestServer, type TestServer } from "../support/test-server";

// `npm start` says once, at start-up, whether email is configured (and through which host), the public
// URL the emails' links use, and the engine and file in use: one JSON log line each, from the process
// that starts the workers (not one per worker).

let server: TestServer | undefined;
test.afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** The `msg` of each JSON line the server wrote, once it answers. */
const messages = (lines: string[]) => lines.flatMap((line) => (line.startsWith("{") ? [(JSON.parse(line) as { msg: string }).msg] : []));

test("with SMTP_URL and PUBLIC_URL set, two workers: the mail host (never its password), the public URL, SQLite and the file, once each", async () => {
  server = await startTestServer({
    portOffset: 46,
    name: "startup-configured",
    env: { WEB_CONCURRENCY: "2", REQUEST_LOG: "off", SMTP_URL: "smtp://launch:s3cret@mail.example.com:2525", MAIL_FROM: "Launch <launch@example.com>", PUBLIC_URL: "https://waitlist.example.com" },
  });
  await expect.poll(() => messages(server!.stdout).includes("listening")).toBe(true);
  expect(messages(server.stdout).filter((msg) => /^(email|public URL|database): /.test(msg))).toEqual([
    "email: sent through mail.example.com:2525 (SMTP_URL), from Launch <launch@example.com>",
    "public URL: https://waitlist.example.com (PUBLIC_URL), in every link of an email",
    `database: SQLite, ${resolve(server.databasePath)} (DATABASE_PATH)`,
  ]);
  expect(server.stdout.join("\n")).not.toContain("s3cret");
});

test("with neither: email not configured and what to set, and the local public URL that works only on this machine", async () => {
  server = await startTestServer({ portOffset: 47, name: "startup-bare", env: { WEB_CONCURRENCY: "1", REQUEST_LOG: "off", SMTP_URL: "", PUBLIC_URL: "" } });
  await expect.poll(() => messages(server!.stdout).includes("listening")).toBe(true);
  expect(messages(server.stdout).filter((msg) => /^(email|public URL|database): /.test(msg))).toEqual([
    "email: not configured: emails are kept as not sent; set SMTP_URL (and MAIL_FROM) to send them",
    `public URL: http://localhost:${server.port}, which works only on this machine, in every link of an email; set PUBLIC_URL to where people reach this server`,
    `database: SQLite, ${resolve(server.databasePath)} (DATABASE_PATH)`,
  ]);
});
