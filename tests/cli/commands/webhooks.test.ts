import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { fanOutEvents } from "@/lib/domain/deliveries/fan-out";
import { claimDue, recordOutcome } from "@/lib/domain/deliveries/sending";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { insertSignups } from "@/tests/support/insert-signups";
import { cliSandbox, expectOneLineError, type CliSandbox } from "../run-cli";

// webhooks add, list, update, disable, remove, rotate-secret, send-test, deliveries and resend, and
// emails show, set and preview, as the real CLI on a real database.

interface Endpoint {
  id: string;
  url: string;
  waitlist_id: string | null;
  events: string[] | null;
  enabled: boolean;
  disabled_reason: string | null;
  secret?: string;
}

let cli: CliSandbox;
let waitlistId: string;
beforeAll(() => {
  cli = cliSandbox();
  waitlistId = cli.json<{ id: string }>("waitlists", "create", "--name", "Hooks", "--website", "https://hooks.example").id;
});
afterAll(() => cli.remove());

describe("webhooks add, list, update, disable, rotate-secret, remove", () => {
  it("shows the secret once, never in list; refuses http, unknown types and unknown waitlists; audits every change", () => {
    const added = cli.json<Endpoint>("webhooks", "add", "--url", "https://receiver.example/hook", "--events", "signup.invited,signup.completed", "--waitlist", waitlistId);
    expect(added).toMatchObject({ url: "https://receiver.example/hook", waitlist_id: waitlistId, events: ["signup.invited", "signup.completed"], enabled: true });
    expect(added.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const human = cli.run("webhooks", "add", "--url", "https://second.example/hook");
    expect(human.stdout).toMatch(/^Added webhook endpoint [0-9a-f-]{36}: https:\/\/second\.example\/hook \(every waitlist; every event\)\.\nCopy its signing secret now; it cannot be shown again:\n\n {2}whsec_/);

    const listed = cli.run("webhooks", "list");
    expect(listed.stdout).toContain(added.id);
    expect(listed.stdout).not.toContain("whsec_");
    expect(JSON.stringify(cli.json("webhooks", "list"))).not.toContain(added.secret);

    expect(expectOneLineError(cli.run("webhooks", "add", "--url", "http://receiver.example/hook"))).toBe(
      'error: invalid --url: must be an https:// URL (http:// only with WEBHOOK_ALLOW_HTTP=1) (got "http://receiver.example/hook")',
    );
    expect(cli.runWithEnv({ WEBHOOK_ALLOW_HTTP: "1" }, "webhooks", "add", "--url", "http://receiver.example/hook").status).toBe(0);
    expect(expectOneLineError(cli.run("webhooks", "add", "--url", "https://x.example", "--events", "signup.invited,signup.bogus"))).toMatch(/^error: invalid --events: unknown event type "signup\.bogus"/);
    expect(expectOneLineError(cli.run("webhooks", "add", "--url", "https://x.example", "--waitlist", "00000000-0000-4000-8000-000000000000"))).toMatch(/^error: .*00000000-0000-4000-8000-000000000000/);

    const widened = cli.json<Endpoint>("webhooks", "update", added.id, "--events", "all", "--waitlist", "all");
    expect(widened).toMatchObject({ events: null, waitlist_id: null });
    expect(cli.json<Endpoint>("webhooks", "disable", added.id)).toMatchObject({ enabled: false, disabled_reason: "disabled by an admin" });
    expect(cli.json<Endpoint>("webhooks", "update", added.id, "--enable")).toMatchObject({ enabled: true, disabled_reason: null });
    const rotated = cli.json<Endpoint>("webhooks", "rotate-secret", added.id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(added.secret);
    expect(cli.json("webhooks", "remove", added.id)).toMatchObject({ id: added.id, removed: true });
    expect(expectOneLineError(cli.run("webhooks", "remove", added.id))).toBe(`error: No webhook endpoint has the id ${added.id}.`);

    const audit = cli.rows("audit_log").filter((row) => String(row.action).startsWith("webhook.") && row.target === added.id);
    expect(audit.map((row) => [row.actor, row.action])).toEqual([
      ["cli", "webhook.create"],
      ["cli", "webhook.update"],
      ["cli", "webhook.disable"],
      ["cli", "webhook.enable"],
      ["cli", "webhook.rotate_secret"],
      ["cli", "webhook.remove"],
    ]);
    expect(JSON.stringify(cli.rows("audit_log"))).not.toContain("whsec_");
  });
});

describe("webhooks send-test", () => {
  let receiver: Server;
  let url: string;
  const arrived: { headers: IncomingMessage["headers"]; body: string }[] = [];
  beforeAll(async () => {
    receiver = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        arrived.push({ headers: request.headers, body });
        response.writeHead(request.url === "/refuse" ? 503 : 200).end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  const local = { WEBHOOK_ALLOW_HTTP: "1", WEBHOOK_ALLOW_PRIVATE: "1" };

  it("posts a signed test event the receiver verifies, reports a refusal, and refuses a loopback address without WEBHOOK_ALLOW_PRIVATE=1", async () => {
    const added = JSON.parse(cli.runWithEnv(local, "webhooks", "add", "--url", `${url}/hook`, "--json").stdout) as Endpoint;
    const sent = await cli.startWithEnv(local, "webhooks", "send-test", added.id, "--json").result;
    expect(sent.status).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({ id: added.id, delivered: true, response: "200", webhook_id: expect.stringMatching(/^evt_test_/) });
    const request = arrived.at(-1)!;
    expect(new Webhook(added.secret!).verify(request.body, request.headers as Record<string, string>)).toMatchObject({ type: "webhook.test", data: { endpoint_id: added.id } });

    const refusing = JSON.parse(cli.runWithEnv(local, "webhooks", "add", "--url", `${url}/refuse`, "--json").stdout) as Endpoint;
    const refused = await cli.startWithEnv(local, "webhooks", "send-test", refusing.id).result;
    expect(expectOneLineError(refused)).toBe(`error: the test event was not delivered to ${url}/refuse: HTTP 503: ok`);

    const count = arrived.length;
    const blocked = await cli.startWithEnv({ WEBHOOK_ALLOW_HTTP: "1" }, "webhooks", "send-test", added.id).result;
    expect(expectOneLineError(blocked)).toMatch(/^error: the test event was not delivered to .*: 127\.0\.0\.1 resolves to 127\.0\.0\.1, a loopback, private, link-local or reserved address \(set WEBHOOK_ALLOW_PRIVATE=1 to allow it\)$/);
    expect(arrived).toHaveLength(count);
  });
});

describe("webhooks deliveries and resend", () => {
  it("lists the log with filters, and resends a failed delivery (audited)", async () => {
    const endpoint = cli.json<Endpoint>("webhooks", "add", "--url", "https://log.example/hook");
    const db = openDatabase(cli.databasePath);
    try {
      insertSignups(waitlistId, [{ email: "one@example.com", verified: true, referral: false, customInputs: "[]" }, { email: "two@example.com", verified: true, referral: false, customInputs: "[]" }], db);
      await applyStatusAction("cli", { action: "invite", selection: { waitlistId, emails: ["one@example.com", "two@example.com"] } }, db);
      await fanOutEvents({ limit: 100, emailConfigured: false }, db);
      const [failing, succeeding] = await claimDue(endpoint.id, 2, 30_000, Date.now(), db);
      await recordOutcome(failing!, { kind: "failed", response: "500", error: "HTTP 500: down" }, { schedule: [], disableAfterMs: 1e9 }, db);
      await recordOutcome(succeeding!, { kind: "sent", response: "200" }, { schedule: [], disableAfterMs: 1e9 }, db);
    } finally {
      db.$client.close();
    }
    const failed = cli.json<{ deliveries: { id: number; state: string; last_response: string; last_error: string; target: string; type: string }[] }>("webhooks", "deliveries", "--failed").deliveries;
    expect(failed.map((row) => [row.state, row.last_response, row.last_error, row.target, row.type])).toEqual([["failed", "500", "HTTP 500: down", "https://log.example/hook", "signup.invited"]]);
    expect(cli.json<{ deliveries: unknown[] }>("webhooks", "deliveries", "--state", "succeeded", "--endpoint", endpoint.id).deliveries).toHaveLength(1);
    expect(cli.run("webhooks", "deliveries").stdout).toMatch(/^ID\s+EVENT\s+TYPE\s+TO\s+STATE\s+ATTEMPTS\s+LAST ANSWER\s+NEXT ATTEMPT\n/);
    expect(expectOneLineError(cli.run("webhooks", "deliveries", "--state", "lost"))).toMatch(/^error: invalid --state/);

    expect(cli.json("webhooks", "resend", String(failed[0]!.id))).toMatchObject({ id: failed[0]!.id, state: "pending", attempts: 0 });
    expect(cli.json<{ deliveries: unknown[] }>("webhooks", "deliveries", "--failed").deliveries).toEqual([]);
    expect(cli.rows("audit_log").filter((row) => row.action === "delivery.resend").map((row) => row.target)).toEqual([String(failed[0]!.id)]);
    expect(expectOneLineError(cli.run("webhooks", "resend", "999999"))).toBe("error: No delivery has the id 999999.");
  });
});

describe("emails show, set and preview", () => {
  it("turns invitation emails on with a template from a file, and previews a real signup", () => {
    expect(cli.json("emails", "show", waitlistId)).toMatchObject({ enabled: false, smtp_configured: false });
    const bodyFile = cli.file("body.txt", "Hello {{email}},\nwelcome to {{waitlist.name}} ({{waitlist.website}}).\n");
    expect(cli.json("emails", "set", waitlistId, "--on", "--subject", "You're in, {{email}}", "--body-file", bodyFile)).toMatchObject({ enabled: true, subject: "You're in, {{email}}" });
    expect(cli.run("emails", "show", waitlistId).stdout).toContain("SMTP_URL is not set: emails are rendered and kept as not sent");

    const signupId = String(cli.rows("signups")[0]!.id);
    const preview = cli.run("emails", "preview", waitlistId, "--signup", signupId);
    const email = String(cli.rows("signups")[0]!.email);
    expect(preview.stdout).toBe(`To: ${email}\nSubject: You're in, ${email}\n\nHello ${email},\nwelcome to Hooks (https://hooks.example/).\n\n`);
    expect(cli.json("emails", "preview", waitlistId, "--signup", signupId, "--subject", "Draft {{waitlist.name}}")).toMatchObject({ subject: "Draft Hooks" });

    expect(expectOneLineError(cli.run("emails", "set", waitlistId, "--subject", "Hi {{name}}"))).toMatch(/^error: invalid --subject: .*unknown placeholder \{\{name\}\}/);
    expect(expectOneLineError(cli.run("emails", "set", waitlistId, "--on", "--off"))).toBe("error: --on and --off cannot be combined");
    expect(cli.rows("audit_log").filter((row) => row.action === "waitlist.invitation_email").map((row) => row.summary)).toEqual(["invitation emails on; subject changed; body changed"]);
  });
});
