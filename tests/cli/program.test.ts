import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliSandbox, expectOneLineError, type CliSandbox } from "./run-cli";

let cli: CliSandbox;
beforeAll(() => (cli = cliSandbox()));
afterAll(() => cli.remove());


describe("usage errors", () => {
  it.each([
    [["bogus"], /^error: unknown command 'bogus'/],
    [["waitlists", "create", "--name", "x"], /^error: required option '--website <url>' not specified/],
    [["signups", "import", "--waitlist", "x"], /^error: missing required argument 'file'/],
    [["keys", "list", "--nope"], /^error: unknown option '--nope'/],
  ])("%j exits 2 with one line", (args, message) => {
    const result = cli.run(...args);
    expect(result.status).toBe(2);
    expect(expectOneLineError(result)).toMatch(message);
  });

  it("prints help for every command", () => {
    for (const args of [[], ["waitlists", "create"], ["waitlists", "list"], ["signups", "import"], ["keys", "create"], ["keys", "list"], ["keys", "revoke"], ["audit", "list"], ["db", "migrate"], ["db", "seed-demo"]]) {
      const result = cli.run(...args, "--help");
      expect(result.status, args.join(" ")).toBe(0);
      expect(result.stdout).toContain("Usage: waitlist");
      if (args.length > 0) expect(result.stdout).toContain("--json");
    }
  });
});
