import "server-only";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb, type AppDatabase } from "@/db/client";
import { DISPOSABLE_POLICIES, joinSettings } from "@/db/schema";
import { AppError } from "@/lib/core/errors";
import { firstIssueOf } from "@/lib/core/zod-issue";
import { preparedOnce } from "@/lib/store/statements";
import { writeTransaction } from "@/lib/store/transaction";
import { recordAudit, type AuditActor } from "../audit/log";
import { ACCENT_COLOR_PATTERN, accentContrastProblem } from "../branding/accent-color";
import { getWaitlistOrThrow } from "../waitlists/queries";

// How people join a waitlist by themselves (the `join_settings` table, migration 0013): the hosted
// page /join/{id} and POST /v1/waitlist/{id}/signup read them; admins change them from the
// dashboard and the CLI. A waitlist without a row has the defaults: joining closed.

export const MAX_JOIN_FIELDS = 20;
export const MAX_FIELD_OPTIONS = 50;
export const MAX_EMBED_ORIGINS = 20;
export const MAX_SUCCESS_MESSAGE = 1000;
export const MAX_HEADLINE = 120;
export const MAX_DESCRIPTION = 2000;
const MAX_LABEL = 100;
const MAX_OPTION = 200;

export interface JoinField {
  label: string;
  type: "text" | "choice";
  /** The choices of a `choice` field (at least one); none for `text`. */
  options?: string[];
  required: boolean;
}

export interface JoinSettings {
  joining: "open" | "closed";
  verification: boolean;
  fields: JoinField[];
  successMessage: string;
  /** Origins (`https://example.com`) whose pages may show the join page in an iframe. */
  embedOrigins: string[];
  /** The proof-of-work challenge on the hosted page. */
  challenge: boolean;
  /** The join page in the brand (the logo apart: ../branding/logo.ts): '' for the defaults. */
  headline: string;
  /** Plain text or the Markdown subset of ../branding/markdown.ts. */
  description: string;
  /** `#rrggbb`, lower case, readable (../branding/accent-color.ts); '' for the app's blue. */
  accentColor: string;
  /** The public leaderboard of referrers, /join/{id}/leaderboard. */
  leaderboard: boolean;
  /** What joining does with a disposable address (lib/domain/fraud/disposable.ts): refuse it, accept and flag it for review, or accept it. */
  disposable: DisposablePolicy;
}

export type DisposablePolicy = (typeof DISPOSABLE_POLICIES)[number];

export const DEFAULT_JOIN_SETTINGS: JoinSettings = { joining: "closed", verification: false, fields: [], successMessage: "", embedOrigins: [], challenge: true, headline: "", description: "", accentColor: "", leaderboard: false, disposable: "flag" };

const oneLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(max)
    .refine((text) => !/[\r\n]/.test(text), "must be one line");

const joinFieldSchema = z
  .strictObject({
    label: oneLine(MAX_LABEL),
    type: z.enum(["text", "choice"]),
    options: z.array(oneLine(MAX_OPTION)).min(1).max(MAX_FIELD_OPTIONS).optional(),
    required: z.boolean(),
  })
  .superRefine((field, context) => {
    if (field.type === "choice" && !field.options) context.addIssue({ code: "custom", message: `the choice field "${field.label}" needs its options` });
    if (field.type === "text" && field.options) context.addIssue({ code: "custom", message: `the text field "${field.label}" takes no options` });
    if (field.options && new Set(field.options).size !== field.options.length) context.addIssue({ code: "custom", message: `the field "${field.label}" lists an option twice` });
  });

/** An origin as browsers send it: scheme, host and port only, written once (`https://example.com`). */
const embedOriginSchema = z
  .string()
  .trim()
  .refine((text) => URL.canParse(text) && ["http:", "https:"].includes(new URL(text).protocol) && new URL(text).origin === text.replace(/\/$/, "").toLowerCase(), {
    message: "must be an origin such as https://example.com (http or https, no path)",
  })
  .transform((text) => new URL(text).origin);

export const joinSettingsSchema = z.strictObject({
  joining: z.enum(["open", "closed"]),
  verification: z.boolean(),
  fields: z
    .array(joinFieldSchema)
    .max(MAX_JOIN_FIELDS)
    .refine((fields) => new Set(fields.map((field) => field.label.toLowerCase())).size === fields.length, "two fields have the same label"),
  successMessage: z.string().trim().max(MAX_SUCCESS_MESSAGE),
  embedOrigins: z
    .array(embedOriginSchema)
    .max(MAX_EMBED_ORIGINS)
    .transform((origins) => [...new Set(origins)]),
  challenge: z.boolean(),
  headline: z
    .string()
    .trim()
    .max(MAX_HEADLINE)
    .refine((text) => !/[\r\n]/.test(text), "must be one line"),
  description: z.string().trim().max(MAX_DESCRIPTION),
  accentColor: z
    .string()
    .trim()
    .toLowerCase()
    .refine((text) => text === "" || ACCENT_COLOR_PATTERN.test(text), "must be a colour such as #1d4ed8 (# and six hex digits), or empty for the default")
    .superRefine((text, context) => {
      const problem = ACCENT_COLOR_PATTERN.test(text) ? accentContrastProblem(text) : undefined;
      if (problem) context.addIssue({ code: "custom", message: problem });
    }),
  leaderboard: z.boolean(),
  disposable: z.enum(DISPOSABLE_POLICIES, { error: (issue) => `must be one of ${DISPOSABLE_POLICIES.join(", ")} (not ${JSON.stringify(issue.input)})` }),
});

const joinSettingsChangeSchema = joinSettingsSchema.partial();
export type JoinSettingsChange = z.input<typeof joinSettingsChangeSchema>;

function storedSettings(db: AppDatabase) {
  return preparedOnce(db, "joining.settings", () =>
    db
      .select({
        joining: joinSettings.joining,
        verification: joinSettings.verification,
        fields: joinSettings.fields,
        successMessage: joinSettings.successMessage,
        embedOrigins: joinSettings.embedOrigins,
        challenge: joinSettings.challenge,
        headline: joinSettings.headline,
        description: joinSettings.description,
        accentColor: joinSettings.accentColor,
        leaderboard: joinSettings.leaderboard,
        disposable: joinSettings.disposable,
      })
      .from(joinSettings)
      .where(eq(joinSettings.waitlistId, sql.placeholder("waitlistId")))
      .prepare(),
  );
}

/** A waitlist's join settings: the defaults (joining closed) when none were saved. Does not check that the waitlist exists. */
export async function joinSettingsOf(waitlistId: string, db: AppDatabase = getDb()): Promise<JoinSettings> {
  const row = await storedSettings(db).get({ waitlistId: waitlistId.toLowerCase() });
  if (!row) return { ...DEFAULT_JOIN_SETTINGS, fields: [], embedOrigins: [] };
  return {
    joining: row.joining,
    verification: row.verification,
    fields: JSON.parse(row.fields) as JoinField[],
    successMessage: row.successMessage,
    embedOrigins: JSON.parse(row.embedOrigins) as string[],
    challenge: row.challenge,
    headline: row.headline,
    description: row.description,
    accentColor: row.accentColor,
    leaderboard: row.leaderboard,
    disposable: row.disposable,
  };
}

/** What changed, in words for the audit log ("joining open; 2 fields"), or [] when nothing did. */
function describeChanges(before: JoinSettings, after: JoinSettings): string[] {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  return [
    after.joining !== before.joining ? `joining ${after.joining}` : undefined,
    after.verification !== before.verification ? `verification ${after.verification ? "on" : "off"}` : undefined,
    !same(after.fields, before.fields) ? `${after.fields.length} form field${after.fields.length === 1 ? "" : "s"}` : undefined,
    after.successMessage !== before.successMessage ? "success message changed" : undefined,
    !same(after.embedOrigins, before.embedOrigins) ? `embed origins: ${after.embedOrigins.join(", ") || "none"}` : undefined,
    after.challenge !== before.challenge ? `challenge ${after.challenge ? "on" : "off"}` : undefined,
    after.headline !== before.headline ? "headline changed" : undefined,
    after.description !== before.description ? "description changed" : undefined,
    after.accentColor !== before.accentColor ? `accent colour ${after.accentColor || "default"}` : undefined,
    after.leaderboard !== before.leaderboard ? `leaderboard ${after.leaderboard ? "on" : "off"}` : undefined,
    after.disposable !== before.disposable ? `disposable addresses: ${after.disposable}` : undefined,
  ].filter((change) => change !== undefined);
}

/** A zod error as one sentence naming each offending setting. */
function invalidSettings(error: z.ZodError): AppError {
  const problems = error.issues.map((issue) => `${issue.path.join(".") || "settings"}: ${issue.message}`);
  return new AppError("invalid_parameter", `Invalid join settings: ${problems.join("; ")}.`, firstIssueOf(error).key ?? "settings");
}

/**
 * Changes some of a waitlist's join settings (the others stay): validated (an AppError
 * `invalid_parameter` naming the setting), audited (`waitlist.join_settings`) when anything changed,
 * in one transaction. Throws `not_found` for an unknown waitlist. Returns the settings after.
 */
export async function updateJoinSettings(waitlistId: string, change: JoinSettingsChange, actor: AuditActor, db: AppDatabase = getDb()): Promise<JoinSettings> {
  const parsed = joinSettingsChangeSchema.safeParse(change);
  if (!parsed.success) throw invalidSettings(parsed.error);
  const fields = Object.fromEntries(Object.entries(parsed.data).filter(([, value]) => value !== undefined)) as Partial<JoinSettings>;
  return await writeTransaction(db, async () => {
    const waitlist = await getWaitlistOrThrow(waitlistId, db);
    const before = await joinSettingsOf(waitlist.id, db);
    const after: JoinSettings = { ...before, ...fields };
    const changes = describeChanges(before, after);
    if (changes.length === 0) return before;
    const stored = {
      joining: after.joining,
      verification: after.verification,
      fields: JSON.stringify(after.fields),
      successMessage: after.successMessage,
      embedOrigins: JSON.stringify(after.embedOrigins),
      challenge: after.challenge,
      headline: after.headline,
      description: after.description,
      accentColor: after.accentColor,
      leaderboard: after.leaderboard,
      disposable: after.disposable,
      updatedAt: new Date(),
    };
    await db.insert(joinSettings).values({ waitlistId: waitlist.id, ...stored }).onConflictDoUpdate({ target: joinSettings.waitlistId, set: stored }).run();
    await recordAudit({ actor, action: "waitlist.join_settings", target: waitlist.id, summary: changes.join("; ") }, db);
    return after;
  });
}
