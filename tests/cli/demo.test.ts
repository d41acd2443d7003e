import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type AddressInfo, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

// `npm run demo` while something else holds the port: it must stop before building, and touch
// neither the build folder nor the database.
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

function runDemo(env: Record<string, string>) {
  return spawnSync("npm", ["run", "--silent", "demo"], {
    encoding: "utf8",
    // The check takes a few seconds; a build would take minutes.
    timeout: 45_000,
    env: { ...process.env, DATABASE_PATH: databasePath, NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: "1", ...env },
  });
}

beforeAll(() => expect(existsSync(distDir)).toBe(false));
afterEach(() => new Promise<void>((resolve) => holder.close(() => resolve())));
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
