import { afterAll, beforeAll, expect, it } from "vitest";
import { cliSandbox, type CliSandbox } from "./run-cli";

let cli: CliSandbox;
beforeAll(() => (cli = cliSandbox()));
afterAll(() => cli.remove());

it("waitlists create stores the website in the WHATWG serialization: punycode host, spaces and | percent-encoded", () => {
  const created = cli.json<{ id: string; website: string }>("waitlists", "create", "--name", "IDN", "--website", "https://例え.example/päth a|b");
  expect(created.website).toBe("https://xn--r8jz45g.example/p%C3%A4th%20a%7Cb");
  expect(cli.rows("waitlists")).toEqual([expect.objectContaining({ id: created.id, website: created.website })]);
  const listed = cli.json<{ waitlists: { website: string }[] }>("waitlists", "list");
  expect(listed.waitlists.map((waitlist) => waitlist.website)).toEqual([created.website]);
});
