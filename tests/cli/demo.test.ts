import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sourceHash, stampBuild } from "@/lib/cli/build-stamp";
import { demoKeysFile } from "@/lib/cli/demo-banner";

// `npm run demo` while something else holds the port: it must stop before building, and touch
// neither the build folder nor the database. Then twice on a build folder stamped with the sources:
// it does not build, keeps the keys of the first run, and prints the start-up summary.
const dir = mkdtempSync(join(tmpdir(), "waitlist-demo-"));
const databasePath = join(dir, "demo.db");
const distDir = `.next-demo-test-${process.pid}`;
let holder: Server;

async function holdPort(host?: string): Promise<number> {
  holder = createServer();
  holder.listen({ port: 0, host });
  await once(holder, "listening");
  return (holder.address() as AddressInfo).port;
}

function runDemo(env: Record<string, string>, timeout = 45_000) {
  return spawnSync("npm", ["run", "--silent", "demo"], {
    encoding: "utf8",
    // The check takes a few seconds; a build would take minutes.
    timeout,
    env: { ...process.env, DATABASE_PATH: databasePath, NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: "1", ...env },
  });
}

beforeAll(() => expect(existsSync(distDir)).toBe(false));
afterEach(() => new Promise<void>((resolve) => (holder.listening ? holder.close(() => resolve()) : resolve())));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(distDir, { recursive: true, force: true });
});

describe("npm run demo", () => {
  it("exits 1 with one line when PORT is taken, before building or opening the database", async () => {
    const port = await holdPort();
    const result = runDemo({ PORT: String(port) });
    expect(result.stderr).toBe(`error: port ${port} is in use: stop the other server or set PORT\n`);
    expect(result.stdout).toBe("");
    expect(result.status).toBe(1);
    expect(existsSync(distDir)).toBe(false);
    expect(existsSync(databasePath)).toBe(false);
  });

  it("checks the interface of HOST", async () => {
    const port = await holdPort("127.0.0.1");
    const result = runDemo({ PORT: String(port), HOST: "127.0.0.1" });
    expect(result.stderr).toBe(`error: port ${port} is in use: stop the other server or set PORT\n`);
    expect(result.status).toBe(1);
    expect(existsSync(distDir)).toBe(false);
    expect(existsSync(databasePath)).toBe(false);
  });
});

describe("npm run demo on a build of these sources, twice on one database", () => {
  /** The key on the banner's line that starts with `label`. */
  const keyOn = (text: string, label: string) => new RegExp(`^  ${label}:\\s+(wl_\\S+)$`, "m").exec(text)?.[1];

  it("does not build again, keeps the first run's keys and says so, and prints email, public URL and database", async () => {
    // A build folder stamped with the current sources. It holds no real build, so the server then
    // fails to start (the demo exits 1): what is checked is everything the demo prints before.
    mkdirSync(distDir);
    writeFileSync(join(distDir, "BUILD_ID"), "not-a-real-build");
    stampBuild(distDir, sourceHash(process.cwd()));
    const port = await holdPort();
    await new Promise<void>((resolve) => holder.close(() => resolve()));
    const env = { PORT: String(port), SMTP_URL: "", PUBLIC_URL: "" };

    const first = runDemo(env, 120_000);
    expect(first.stdout).toContain(`Build: the one in ${distDir} is of these sources: not building again.`);
    expect(first.stdout).not.toContain("next build");
    const admin = keyOn(first.stdout, "Admin key");
    const view = keyOn(first.stdout, "View key");
    expect(admin).toMatch(/^wl_/);
    expect(first.stdout).toContain(`  Kept in ${demoKeysFile(databasePath)} (readable only by you): the next run on this database shows these same keys.`);
    expect(statSync(demoKeysFile(databasePath)).mode & 0o777).toBe(0o600);
    for (const line of [
      "  Email:       not configured: emails are kept as not sent; set SMTP_URL (and MAIL_FROM) to send them",
      `  Public URL:  http://localhost:${port}, which works only on this machine, in every link of an email; set PUBLIC_URL to where people reach this server`,
      `  Database:    SQLite, ${databasePath} (DATABASE_PATH)`,
    ]) expect(first.stdout.split("\n")).toContain(line);

    const second = runDemo(env, 120_000);
    expect(second.stdout).toContain("not building again");
    expect([keyOn(second.stdout, "Admin key"), keyOn(second.stdout, "View key")]).toEqual([admin, view]);
    expect(second.stdout).toContain(`The keys of the previous run, kept (in ${demoKeysFile(databasePath)}; delete it for new ones)`);
    expect(second.stdout).toContain("demo data already present");

    // Without the file, new keys, and the banner says the old ones were replaced.
    rmSync(demoKeysFile(databasePath));
    const third = runDemo(env, 120_000);
    expect(keyOn(third.stdout, "Admin key")).not.toBe(admin);
    expect(third.stdout).toMatch(/New keys: the previous ones \(wl_\S+…, wl_\S+…\) were replaced and revoked; sign in again with the admin key\./);
  }, 360_000);
});
