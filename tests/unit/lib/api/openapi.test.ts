import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import addFormats from "ajv-formats";
import { Ajv2020 } from "ajv/dist/2020";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { JsonSchema, OpenApiDocument } from "@/lib/api/openapi-types";
import { openApiDocument } from "@/lib/api/route-table";
import { INPUT_PARAM_PREFIX, MAX_INPUT_FILTERS } from "@/lib/domain/signups/filter";
import { SIGNUP_FIELDS, signupResponseSchema, signupWithFieldsSchema } from "@/lib/domain/signups/response";
import { waitlistResponseSchema } from "@/lib/domain/waitlists/response";
import { servedOpenApiText } from "@/tests/support/openapi-served";

describe("the OpenAPI document", () => {
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);

  const WAITLISTS: unknown[] = [
    { id: "5c1e0b8e-1f0a-4c3e-9a57-0c6f1d2e3a4b", name: "Nimbus beta", website: "https://nimbus.example" },
    { id: "5C1E0B8E-1F0A-4C3E-9A57-0C6F1D2E3A4B", name: "Upper-case id", website: "https://nimbus.example" },
    { id: "5c1e0b8e-1f0a-4c3e-9a57-0c6f1d2e3a4b", name: "", website: "https://nimbus.example" },
    { id: "5c1e0b8e-1f0a-4c3e-9a57-0c6f1d2e3a4b", name: "No website" },
    { id: "5c1e0b8e-1f0a-4c3e-9a57-0c6f1d2e3a4b", name: "Extra field", website: "https://nimbus.example", created_at: "2026-01-01" },
    { id: 1, name: "Numeric id", website: "https://nimbus.example" },
  ];
  const SIGNUPS: unknown[] = [
    { email: "ada@example.com", verified: true, referral: false, custom_inputs: [] },
    { email: "ada@example.com", verified: true, referral: false, custom_inputs: [{ label: "company", value: "Acme", n: 1 }] },
    { email: "ada@example.com", verified: "true", referral: false, custom_inputs: [] },
    { email: "ada@example.com", verified: true, referral: false, custom_inputs: [[]] },
    { email: "ada@example.com", verified: true, referral: false, custom_inputs: ["x"] },
    { email: "ada@example.com", verified: true, referral: false },
    { email: "ada@example.com", verified: true, referral: false, custom_inputs: [], id: 7 },
    { email: "ada@example.com", verified: true, referral: false, custom_inputs: [], created_at: "2026-10-01T09:30:00.000Z", id: "12" },
  ];
  const SIGNUPS_WITH_FIELDS: unknown[] = [
    ...SIGNUPS,
    { id: "12" },
    { created_at: "2026-10-01T09:30:00.000Z", id: "12" },
    { email: "ada@example.com", created_at: "2026-10-01T09:30:00.000Z" },
    { id: 12 },
    { email: "ada@example.com", phone: "555" },
    { created_at: 1790847000000 },
  ];

  describe("the OpenAPI components of the resources", () => {
    it.each([
      ["Waitlist", waitlistResponseSchema, WAITLISTS],
      ["Signup", signupResponseSchema, SIGNUPS],
      ["SignupWithFields", signupWithFieldsSchema, SIGNUPS_WITH_FIELDS],
    ] as const)("%s is the JSON Schema of the zod response schema, descriptions included, and agrees with it", (name, schema, samples) => {
      const component = openApiDocument.components.schemas[name]!;
      const { $schema: _dialect, ...fromZod } = z.toJSONSchema(schema, { target: "draft-2020-12", io: "output" });
      expect(component).toEqual(fromZod);
      for (const property of Object.values(component.properties as Record<string, { description?: string }>)) expect(property.description).toBeTruthy();
      const validate = ajv.compile(component);
      for (const sample of samples) expect(validate(sample), JSON.stringify(sample)).toBe(schema.safeParse(sample).success);
    });
  });

  describe("the signup list's parameters as clients write them", () => {
    const parameters = openApiDocument.paths["/waitlist/{id}/signup"]!.get!.parameters;
    const parameter = (name: string) => parameters.find((entry) => entry.name === name)!;

    it("describes input.<label> filters as an exploded form object whose property names are the parameter names", () => {
      const inputs = parameter("inputs");
      expect(inputs).toMatchObject({ in: "query", style: "form", explode: true, schema: { type: "object", additionalProperties: { type: "string" }, maxProperties: MAX_INPUT_FILTERS } });
      const names = ajv.compile({ type: "object", propertyNames: inputs.schema.propertyNames });
      for (const name of [`${INPUT_PARAM_PREFIX}company`, `${INPUT_PARAM_PREFIX}a.b`, `${INPUT_PARAM_PREFIX} `]) expect(names({ [name]: "x" }), name).toBe(true);
      for (const name of [INPUT_PARAM_PREFIX, "inputs", "company", "inputXcompany"]) expect(names({ [name]: "x" }), name).toBe(false);
    });

    it("describes fields as a comma-separated list of the known fields, and the range as dates or date-times", () => {
      expect(parameter("fields")).toMatchObject({ style: "form", explode: false, schema: { type: "array", items: { enum: [...SIGNUP_FIELDS] } } });
      const instant = ajv.compile(parameter("created_since").schema);
      for (const text of ["2026-10-01", "2026-10-01T09:30:00Z", "2026-10-01T11:30:00.250+02:00"]) expect(instant(text), text).toBe(true);
      for (const text of ["2026-02-30", "2026-10-01T09:30:00", "yesterday"]) expect(instant(text), text).toBe(false);
      expect(parameter("created_until").schema).toEqual(parameter("created_since").schema);
    });

    it("answers with Signup objects, or SignupWithFields objects when fields is given", () => {
      const media = openApiDocument.paths["/waitlist/{id}/signup"]!.get!.responses["200"]!.content!["application/json"]!;
      expect(media.schema).toEqual({ type: "array", items: { anyOf: [{ $ref: "#/components/schemas/Signup" }, { $ref: "#/components/schemas/SignupWithFields" }] } });
    });
  });
});

describe("the served document, linted", () => {
  // The served OpenAPI document passes both common linters with their default rule sets, without
  // a warning: Redocly CLI's `recommended` and Spectral's `spectral:oas`. Both run offline on a file.

  const run = promisify(execFile);
  let dir: string;
  let documentPath: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "waitlist-openapi-lint-"));
    documentPath = join(dir, "openapi.json");
    writeFileSync(documentPath, await servedOpenApiText());
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs a linter's CLI; both exit non-zero when they find errors, which the JSON report shows too. */
  async function lint(cli: string, args: string[]): Promise<string> {
    const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };
    try {
      return (await run(process.execPath, [cli, ...args], { cwd: dir, env, maxBuffer: 16 * 1024 * 1024 })).stdout;
    } catch (error) {
      return (error as { stdout: string }).stdout;
    }
  }

  describe("the OpenAPI document is lint-clean", () => {
    it("Redocly CLI (recommended rules): no error, no warning", async () => {
      const report = JSON.parse(await lint(join(process.cwd(), "node_modules/@redocly/cli/bin/cli.js"), ["lint", documentPath, "--format=json", "--extends=recommended"])) as {
        totals: { errors: number; warnings: number };
        problems: { ruleId: string; message: string }[];
      };
      expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    });

    it("Spectral (spectral:oas): no error, no warning", async () => {
      const ruleset = join(dir, ".spectral.yaml");
      writeFileSync(ruleset, 'extends: ["spectral:oas"]\n');
      const output = await lint(join(process.cwd(), "node_modules/@stoplight/spectral-cli/dist/index.js"), ["lint", documentPath, "--ruleset", ruleset, "--format", "json", "--quiet"]);
      const results = JSON.parse(output) as { code: string; message: string; path: string[] }[];
      expect(results.map((result) => `${result.code}: ${result.message} at ${result.path.join(".")}`)).toEqual([]);
    });
  });
});

describe("client types generated from the served document", () => {
  // A client generated from the served document with openapi-typescript, as a TypeScript user of the
  // API would generate it, and code that reads every field of every resource with the types a
  // client needs: a field typed `never` (what an empty object schema gives) or a wrong type fails.

  const CLIENT_CODE = `
import type { components, operations } from "./schema";

type Waitlist = components["schemas"]["Waitlist"];
type Signup = components["schemas"]["Signup"];
type SignupWithFields = components["schemas"]["SignupWithFields"];
type Problem = components["schemas"]["Problem"];
type SignupWithStatus = components["schemas"]["StatusActionResult"]["signups"][number];
type StatusActionResult = components["schemas"]["StatusActionResult"];
type Event = components["schemas"]["Event"];
type IsNever<T> = [T] extends [never] ? true : false;
const notNever = <T>(value: T, _check: IsNever<T> extends false ? true : never) => value;

// Exactly these fields: a field added to or dropped from the document fails here.
const waitlistFields: Record<keyof Waitlist, true> = { id: true, name: true, website: true };
const signupFields: Record<keyof Signup, true> = { email: true, verified: true, referral: true, custom_inputs: true };

export function readWaitlist(waitlist: Waitlist): string {
  const id: string = waitlist.id;
  const name: string = waitlist.name;
  const website: string = waitlist.website;
  return [id, name, website, Object.keys(waitlistFields)].join();
}

export function readSignup(signup: Signup): string[] {
  const email: string = signup.email;
  const verified: boolean = signup.verified;
  const referral: boolean = signup.referral;
  const lines = [email, String(verified), String(referral), ...Object.keys(signupFields)];
  for (const input of signup.custom_inputs) {
    const label = notNever(input.label, true);
    const value = notNever(input.value, true);
    const other = notNever(input["company"], true);
    if (typeof label === "string") lines.push(label.toUpperCase());
    lines.push(JSON.stringify(value), JSON.stringify(other));
  }
  return lines;
}

export function readStatusActionResult(result: StatusActionResult): string[] {
  const changed: number = result.changed;
  const skipped: number = result.skipped;
  return [String(changed), String(skipped), ...result.signups.map(readSignupWithStatus)];
}

export function readSignupWithStatus(signup: SignupWithStatus): string {
  const status: "waiting" | "invited" | "completed" | "rejected" = signup.status;
  return [signup.email, signup.verified, signup.referral, signup.custom_inputs.length, status].join();
}
export const invited: StatusActionResult = {} as Json<operations["inviteSignups"], 200>;

// A join's answer: the four fields, then its id, status, place in line and referral code.
export function readJoinedSignup(signup: components["schemas"]["JoinedSignup"]): string {
  const position: number | null = signup.position;
  const code: string = signup.referral_code;
  return [signup.email, signup.verified, signup.referral, signup.custom_inputs.length, signup.id, signup.status, position, code].join();
}
export const joined: components["schemas"]["JoinedSignup"] = {} as Json<operations["joinWaitlist"], 201>;
// An address already on the list: that it is, and whether a link went to it; nothing stored about the person.
const alreadyOnListFields: Record<keyof components["schemas"]["AlreadyOnList"], true> = { email: true, already_on_list: true, email_sent: true };
export function readAlreadyOnList(answer: components["schemas"]["AlreadyOnList"]): string {
  const already: true = answer.already_on_list;
  const sent: boolean = answer.email_sent;
  return [answer.email, already, sent, Object.keys(alreadyOnListFields)].join();
}
export const alreadyOnList: components["schemas"]["AlreadyOnList"] = {} as Json<operations["joinWaitlist"], 200>;

export function readProblem(problem: Problem): string {
  const code: "unauthenticated" | "forbidden" | "invalid_parameter" | "not_found" | "method_not_allowed" | "conflict" | "unprocessable" | "rate_limited" | "internal" | "unavailable" = problem.code;
  const status: number = problem.status;
  const parameter: string | undefined = problem.parameter;
  return [problem.type, problem.title, problem.detail, problem.request_id, code, status, parameter].join();
}

// What the operations answer, as a generated client (openapi-fetch) would type them.
type Json<Operation, Status extends number> = Operation extends { responses: { [S in Status]: { content: { "application/json": infer Body } } } } ? Body : never;
export const list: Waitlist[] = [] as Json<operations["listWaitlists"], 200>;
export const one: Waitlist = {} as Json<operations["getWaitlist"], 200>;
export const signups: (Signup | SignupWithFields)[] = [] as Json<operations["listSignups"], 200>;
// With \`fields\`, every field is optional; created_at and id exist only there.
export function readSignupWithFields(signup: SignupWithFields): (string | boolean | number | null | undefined)[] {
  return [signup.email, signup.verified, signup.referral, signup.custom_inputs?.length, signup.created_at, signup.id, signup.status, signup.status_changed_at, signup.utm_source, signup.utm_medium, signup.utm_campaign, signup.referrer];
}
export const etag: string = "" as operations["getWaitlist"]["responses"][200]["headers"]["ETag"];
export const cached: string = "" as operations["listWaitlists"]["responses"][304]["headers"]["ETag"];
export const query: { verified?: "true" | "false"; limit?: number } = {} as NonNullable<operations["listSignups"]["parameters"]["query"]>;
export const ifNoneMatch: string | undefined = undefined as NonNullable<operations["getWaitlist"]["parameters"]["header"]>["If-None-Match"];

// An event of the feed: the body a webhook carries, and its id.
export function readEvent(event: Event): (string | number | undefined)[] {
  const type: "signup.created" | "signup.verified" | "signup.invited" | "signup.rejected" | "signup.invitation_withdrawn" | "signup.restored" | "signup.completed" | "signup.erased" | "signups.imported" | "signup.updated" | "signup.flag_approved" | "signup.flag_discounted" | "signup.milestone_reached" | "signup.invitation_expired" | "signup.invitation_reminder" | "invitations.batch_sent" = event.type;
  const signup: SignupWithFields | undefined = event.data.signup;
  const previous: "waiting" | "invited" | "completed" | "rejected" | undefined = event.data.previous_status;
  const imported: number | undefined = event.data.imported;
  const skipped: number | undefined = event.data.skipped_duplicates;
  const format: string | undefined = event.data.format;
  const milestone: { referrals: number; label: string } | undefined = event.data.milestone;
  return [event.id, type, event.timestamp, event.data.waitlist_id, signup?.id, previous, imported, skipped, format, milestone?.referrals, milestone?.label];
}
export const events: Event[] = [] as Json<operations["listEvents"], 200>;

// An invitation by its token: its state, the signup, its waitlist and its times; the same object when redeemed.
type Invitation = components["schemas"]["Invitation"];
const invitationFields: Record<keyof Invitation, true> = { state: true, waitlist_id: true, signup: true, invited_at: true, expires_at: true };
export function readInvitation(invitation: Invitation): string {
  const state: "valid" | "redeemed" = invitation.state;
  return [state, invitation.waitlist_id, readSignupWithStatus(invitation.signup), invitation.invited_at, invitation.expires_at, Object.keys(invitationFields)].join();
}
export const looked: Invitation = {} as Json<operations["getInvitation"], 200>;
export const redeemed: Invitation = {} as Json<operations["redeemInvitation"], 200>;
export const after: string | undefined = undefined as NonNullable<operations["listEvents"]["parameters"]["query"]>["after"];

// A waitlist's funnel over a range of days of joining.
type FunnelStats = components["schemas"]["FunnelStats"];
export function readFunnel(stats: FunnelStats): (string | number | null)[] {
  const joined: number = stats.totals.joined;
  const views: number = stats.totals.views;
  const rate: number | null = stats.rates.join_to_completed;
  const week: string = stats.cohorts[0]!.week;
  const source: string | null = stats.sources[0]!.source;
  return [stats.from, stats.to, joined, views, rate, stats.referral_factor, stats.median_hours.join_to_invite, stats.days[0]!.day, week, source];
}
export const funnel: FunnelStats = {} as Json<operations["getWaitlistStats"], 200>;
export const range: { from?: string; to?: string } = {} as NonNullable<operations["getWaitlistStats"]["parameters"]["query"]>;
// A paced invitation: its rule in words and parts, its state, its next and last run.
type Schedule = components["schemas"]["Schedule"];
const scheduleFields: Record<keyof Schedule, true> = { id: true, waitlist_id: true, rule: true, days: true, time_of_day: true, time_zone: true, batch: true, filter: true, guard: true, paused: true, paused_reason: true, next_run_at: true, last_run: true, created_at: true };
export function readSchedule(schedule: Schedule): string {
  const days: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[] = schedule.days;
  const guard: { percent: number; days: number } | null = schedule.guard;
  const last: { slot: string; ran_at: string; invited: number } | null = schedule.last_run;
  return [schedule.id, schedule.waitlist_id, schedule.rule, days, schedule.time_of_day, schedule.time_zone, schedule.batch, schedule.filter, guard?.percent, schedule.paused, schedule.paused_reason, schedule.next_run_at, last?.invited, schedule.created_at, Object.keys(scheduleFields)].join();
}
export const schedules: Schedule[] = ({} as Json<operations["listSchedules"], 200>).items;
export const added: Schedule = {} as Json<operations["addSchedule"], 201>;
`;

  /** The same reading with one mistake: the type check must catch it. */
  const WRONG_CODE = `import type { components } from "./schema";\nexport const wrong: number = ({} as components["schemas"]["Waitlist"]).name;\n`;

  let dir: string;
  let document: OpenApiDocument;
  const errors = new Map<string, string[]>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "waitlist-openapi-client-"));
    const served = await servedOpenApiText();
    document = JSON.parse(served) as OpenApiDocument;
    writeFileSync(join(dir, "schema.ts"), astToString(await openapiTS(served)));
    const files = { client: CLIENT_CODE, wrong: WRONG_CODE };
    for (const [name, code] of Object.entries(files)) writeFileSync(join(dir, `${name}.ts`), code);
    const program = ts.createProgram(
      Object.keys(files).map((name) => join(dir, `${name}.ts`)),
      { strict: true, noEmit: true, types: [], target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ["lib.es2022.d.ts"] },
    );
    for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
      const name = diagnostic.file?.fileName.split("/").pop() ?? "(global)";
      errors.set(name, [...(errors.get(name) ?? []), ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")]);
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe("a client generated with openapi-typescript from /v1/openapi.json", () => {
    it("type-checks code that reads every field of every resource", () => {
      expect(Object.fromEntries([...errors].filter(([name]) => name !== "wrong.ts"))).toEqual({});
    });

    it("the client code reads every property the document defines", () => {
      for (const [name, schema] of Object.entries(document.components.schemas)) {
        for (const property of Object.keys((schema.properties ?? {}) as Record<string, JsonSchema>)) expect(CLIENT_CODE, `${name}.${property}`).toContain(`.${property}`);
      }
      const items = (document.components.schemas.Signup!.properties as Record<string, { items: JsonSchema }>).custom_inputs!.items;
      for (const property of Object.keys(items.properties as object)) expect(CLIENT_CODE).toContain(`input.${property}`);
    });

    it("catches a wrong reading (the check is not vacuous)", () => {
      expect(errors.get("wrong.ts")?.join()).toMatch(/not assignable to type 'number'/);
    });
  });
});
