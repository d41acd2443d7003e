import { sql } from "drizzle-orm";
import { blob, check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";

// lib/domain/signups/status.ts lists them for the app (a test ties the two lists together).
const SIGNUP_STATUSES = ["waiting", "invited", "completed", "rejected"] as const;

export const waitlists = sqliteTable(
  "waitlists",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    website: text("website").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  // Ends in the rowid, so it also serves "ORDER BY created_at, rowid".
  (table) => [index("waitlists_created_at_idx").on(table.createdAt)],
);

// Every index ends in the rowid (`id`), so "(waitlist_id, created_at)" already
// serves "ORDER BY created_at, id" and keyset pagination on that pair.
export const signups = sqliteTable(
  "signups",
  {
    // AUTOINCREMENT (migration 0014): an erased signup's id is never given again, so its links,
    // tokens, events and deliveries never name another person.
    id: integer("id").primaryKey({ autoIncrement: true }),
    waitlistId: text("waitlist_id")
      .notNull()
      .references(() => waitlists.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    verified: integer("verified", { mode: "boolean" }).notNull().default(false),
    referral: integer("referral", { mode: "boolean" }).notNull().default(false),
    customInputs: text("custom_inputs").notNull().default("[]"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    // lib/domain/signups/status.ts: its transitions; every signup starts waiting (migration 0010).
    status: text("status", { enum: SIGNUP_STATUSES }).notNull().default("waiting"),
    statusChangedAt: integer("status_changed_at", { mode: "timestamp_ms" }),
    // Migration 0013 (lib/domain/joining): the code a signup shares to refer others, made when it joins
    // (or, for an imported signup, the first time it is asked for); and the signup whose code it used.
    referralCode: text("referral_code"),
    referredBy: integer("referred_by").references((): AnySQLiteColumn => signups.id, { onDelete: "set null" }),
    // Migration 0018 (lib/domain/ranking): where counted referrals moved a waiting signup in line; null
    // when they did not, and it stands at (created_at, id).
    lineAt: integer("line_at"),
    linePos: real("line_pos"),
    // Migration 0023 (lib/domain/funnel): where the signup came from, given at join (short single-line
    // text, or null), and when it was first invited, completed, and first had an invitation expire.
    utmSource: text("utm_source"),
    utmMedium: text("utm_medium"),
    utmCampaign: text("utm_campaign"),
    referrer: text("referrer"),
    invitedAt: integer("invited_at", { mode: "timestamp_ms" }),
    completedAt: integer("completed_at", { mode: "timestamp_ms" }),
    expiredAt: integer("expired_at", { mode: "timestamp_ms" }),
  },
  (table) => [
    uniqueIndex("signups_waitlist_email_unique").on(table.waitlistId, sql`lower(${table.email})`),
    // No index per verified/referral: those filters keep at least a few percent of a list, so walking
    // this index in order finds a page at once, and their counts come from signup_counts. Three such
    // indexes cost an import more than the search index and the input pairs together.
    index("signups_waitlist_order_idx").on(table.waitlistId, table.createdAt),
    // The signups that left `waiting` (few, and none an import adds): the status facet counts them here.
    index("signups_changed_status_idx").on(table.waitlistId, table.status, table.createdAt).where(sql`${table.status} <> 'waiting'`),
    uniqueIndex("signups_referral_code_unique").on(table.referralCode).where(sql`${table.referralCode} is not null`),
    // A referrer's signups in order (the referred_by filter, referral counts) and the foreign key's lookups on erasure.
    index("signups_referred_by_idx").on(table.referredBy, table.createdAt).where(sql`${table.referredBy} is not null`),
    // A waitlist's referred signups grouped by referrer: the top referrers.
    index("signups_waitlist_referred_by_idx").on(table.waitlistId, table.referredBy).where(sql`${table.referredBy} is not null`),
    index("signups_moved_line_idx").on(table.waitlistId, table.lineAt, table.linePos).where(sql`${table.lineAt} is not null and ${table.status} = 'waiting'`),
    index("signups_moved_created_idx").on(table.waitlistId, table.createdAt).where(sql`${table.lineAt} is not null and ${table.status} = 'waiting'`),
    // The source filters' walks (migration 0023): only signups that have the value.
    index("signups_utm_source_idx").on(table.waitlistId, table.utmSource, table.createdAt).where(sql`${table.utmSource} is not null`),
    index("signups_utm_medium_idx").on(table.waitlistId, table.utmMedium, table.createdAt).where(sql`${table.utmMedium} is not null`),
    index("signups_utm_campaign_idx").on(table.waitlistId, table.utmCampaign, table.createdAt).where(sql`${table.utmCampaign} is not null`),
    index("signups_referrer_idx").on(table.waitlistId, table.referrer, table.createdAt).where(sql`${table.referrer} is not null`),
    // Migration 0022: the invited signups in the order their invitations expire (lib/domain/invitations/expire.ts).
    index("signups_invited_at_idx").on(table.waitlistId, table.statusChangedAt).where(sql`${table.status} = 'invited'`),
    check("signups_custom_inputs_is_array", sql`json_type(${table.customInputs}) = 'array'`),
    // Comparisons, not IN: see migration 0010.
    check("signups_status_known", sql`${table.status} = 'waiting' or ${table.status} = 'invited' or ${table.status} = 'completed' or ${table.status} = 'rejected'`),
  ],
);

/**
 * How many signups each waitlist has per UTC day (`created_at` / 86,400,000) and verified ×
 * referral × status cell (status since migration 0010). The bulk writer (lib/domain/signups/bulk-insert.ts) adds to it and triggers on `signups`
 * take away on delete (migrations 0002, 0003), so it stays exact and the dashboard's totals,
 * facets and chart add up a few hundred rows instead of scanning every signup of a large list.
 * WITHOUT ROWID since migration 0025.
 */
export const signupCounts = sqliteTable(
  "signup_counts",
  {
    waitlistId: text("waitlist_id").notNull(),
    verified: integer("verified", { mode: "boolean" }).notNull(),
    referral: integer("referral", { mode: "boolean" }).notNull(),
    status: text("status", { enum: SIGNUP_STATUSES }).notNull(),
    day: integer("day").notNull(),
    count: integer("count").notNull(),
  },
  (table) => [primaryKey({ columns: [table.waitlistId, table.verified, table.referral, table.status, table.day] })],
);

/**
 * Every signup's custom inputs as (label, value) pairs: an input object with a string `label` and a
 * scalar `value` gives that pair, any other object one pair per scalar property (the view
 * `signup_input_pairs`, migration 0003). The flags and the creation time are copied in, so a
 * facet over a filter on one pair reads a single index range. Written by the bulk writer, which derives
 * the pairs in JavaScript (input-pairs.ts) by the view's rule; kept by triggers on update and delete.
 */
export const signupInputs = sqliteTable(
  "signup_inputs",
  {
    waitlistId: text("waitlist_id").notNull(),
    label: text("label").notNull(),
    value: text("value").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    signupId: integer("signup_id").notNull(),
    verified: integer("verified", { mode: "boolean" }).notNull(),
    referral: integer("referral", { mode: "boolean" }).notNull(),
  },
  (table) => [
    // created_at before signup_id: a (label, value)'s signups over a date range are one range of the key.
    primaryKey({ columns: [table.waitlistId, table.label, table.value, table.createdAt, table.signupId] }),
    index("signup_inputs_signup_idx").on(table.signupId),
  ],
);

/** How many signups of a waitlist have each (label, value) pair, per verified × referral cell. */
export const signupInputCounts = sqliteTable(
  "signup_input_counts",
  {
    waitlistId: text("waitlist_id").notNull(),
    label: text("label").notNull(),
    value: text("value").notNull(),
    verified: integer("verified", { mode: "boolean" }).notNull(),
    referral: integer("referral", { mode: "boolean" }).notNull(),
    count: integer("count").notNull(),
  },
  (table) => [primaryKey({ columns: [table.waitlistId, table.label, table.value, table.verified, table.referral] })],
);

/**
 * signup_input_counts for the signups that are not waiting, per status: with it the status facet of
 * an input filter reads a few rows instead of every invited, completed and rejected signup. Kept by
 * triggers on signups (migration 0012) and, for an import, by the bulk writer. WITHOUT ROWID since migration 0025.
 */
export const signupInputStatusCounts = sqliteTable(
  "signup_input_status_counts",
  {
    waitlistId: text("waitlist_id").notNull(),
    label: text("label").notNull(),
    value: text("value").notNull(),
    status: text("status", { enum: SIGNUP_STATUSES }).notNull(),
    verified: integer("verified", { mode: "boolean" }).notNull(),
    referral: integer("referral", { mode: "boolean" }).notNull(),
    count: integer("count").notNull(),
  },
  (table) => [primaryKey({ columns: [table.waitlistId, table.label, table.value, table.status, table.verified, table.referral] })],
);

export const apiKeys = sqliteTable("api_keys", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  prefix: text("prefix").notNull(),
  keyHash: text("key_hash").notNull().unique(),
  roles: text("roles", { mode: "json" }).$type<string[]>().notNull(),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }),
  revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
});

// Dashboard sessions: the cookie holds a random token, the table only its SHA-256.
export const sessions = sqliteTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    apiKeyId: text("api_key_id")
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("sessions_api_key_idx").on(table.apiKeyId)],
);

/**
 * One row per write made from the dashboard or the CLI (lib/domain/audit/log.ts), appended in the
 * write's own transaction. Never holds a key, a session token or an erased address.
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey(),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
    // The key of the dashboard session, or null for the CLI; `actor` keeps its name (or "cli").
    actorKeyId: text("actor_key_id"),
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    target: text("target").notNull(),
    summary: text("summary").notNull(),
  },
  (table) => [index("audit_log_at_idx").on(table.at)],
);

/**
 * The transactional outbox (migration 0010): one row per status change, erasure and import, appended in
 * the write's own transaction (lib/domain/events.ts). Payloads never hold an address; `body` (migration
 * 0014, written with the event) is what its webhooks and the /v1 feed carry, redacted by an erasure.
 */
export const events = sqliteTable(
  "events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    type: text("type").notNull(),
    waitlistId: text("waitlist_id").notNull(),
    signupId: integer("signup_id"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    payload: text("payload").notNull(),
    // Null only in a database that migration 0014 has not reached (it fills every row).
    body: text("body"),
  },
  (table) => [
    index("events_signup_idx").on(table.signupId).where(sql`${table.signupId} is not null`),
    // A waitlist's events in order: the /v1 feed (migration 0011).
    index("events_waitlist_idx").on(table.waitlistId, table.id),
    check("events_payload_is_json", sql`json_valid(${table.payload})`),
  ],
);

/** The first answer to a /v1 write sent with an Idempotency-Key, per API key (lib/api/idempotency.ts). */
export const idempotentRequests = sqliteTable(
  "idempotent_requests",
  {
    apiKeyId: text("api_key_id").notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    status: integer("status").notNull(),
    body: text("body").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.apiKeyId, table.key] }), index("idempotent_requests_created_at_idx").on(table.createdAt)],
);

/** Secrets the app makes for itself (migration 0005: `audit_hash_key`, 32 random bytes). */
export const appSecrets = sqliteTable("app_secrets", {
  name: text("name").primaryKey(),
  value: blob("value", { mode: "buffer" }).notNull(),
});

export type Waitlist = typeof waitlists.$inferSelect;
export type Signup = typeof signups.$inferSelect;
export type SignupInput = typeof signupInputs.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
export type Session = typeof sessions.$inferSelect;
export type AuditLogRow = typeof auditLog.$inferSelect;

// Delivery of the outbox (migration 0011, lib/domain/webhooks and lib/domain/deliveries).

/** Where events go by HTTP POST, signed with `secret` (Standard Webhooks). */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    url: text("url").notNull(),
    // null: every waitlist's events.
    waitlistId: text("waitlist_id").references(() => waitlists.id, { onDelete: "cascade" }),
    // A JSON array of event types, or null for every type.
    eventTypes: text("event_types", { mode: "json" }).$type<string[]>(),
    secret: text("secret").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    disabledReason: text("disabled_reason"),
    // The first failure since the last success: past 5 days the sender disables the endpoint.
    failingSince: integer("failing_since", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("webhook_endpoints_waitlist_idx").on(table.waitlistId)],
);

// lib/domain/deliveries/queries.ts lists them for the app (tests/unit/db/migrate.test.ts ties the two lists together).
const DELIVERY_STATES = ["pending", "delivering", "succeeded", "failed", "not_sent"] as const;

/**
 * One per event × target (an endpoint, or a signup's address for an invitation email). `body` is what
 * was (or will be) sent: the webhook's JSON, or the rendered email's text with `recipient` and
 * `subject`; it may hold an address, so an erasure deletes the rows of that signup.
 */
export const deliveries = sqliteTable(
  "deliveries",
  {
    // AUTOINCREMENT (migration 0014): erasure and retention delete deliveries, and their ids are shown.
    id: integer("id").primaryKey({ autoIncrement: true }),
    // null only for an email that answers no event: "you are already on the list" (migration 0016).
    eventId: integer("event_id").references(() => events.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    // A deleted waitlist's deliveries go with it (they may hold its signups' addresses).
    waitlistId: text("waitlist_id")
      .notNull()
      .references(() => waitlists.id, { onDelete: "cascade" }),
    signupId: integer("signup_id"),
    channel: text("channel", { enum: ["webhook", "email"] }).notNull(),
    endpointId: text("endpoint_id").references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    recipient: text("recipient"),
    subject: text("subject"),
    body: text("body"),
    state: text("state", { enum: DELIVERY_STATES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    // Set exactly while it waits: when it is due (pending), or when its sender's lease ends (delivering),
    // after which a crashed sender's delivery is due again (lib/domain/deliveries/sending.ts).
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" }),
    // The last HTTP status code or SMTP reply, and the last error in words.
    lastResponse: text("last_response"),
    lastError: text("last_error"),
    lastAttemptAt: integer("last_attempt_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [
    // What is due, per target (an endpoint, or null for emails).
    index("deliveries_due_idx").on(table.endpointId, table.nextAttemptAt).where(sql`${table.nextAttemptAt} is not null`),
    index("deliveries_event_idx").on(table.eventId),
    index("deliveries_waitlist_idx").on(table.waitlistId, table.id),
    index("deliveries_endpoint_idx").on(table.endpointId, table.id),
    index("deliveries_signup_idx").on(table.signupId).where(sql`${table.signupId} is not null`),
    check("deliveries_state_known", sql`${table.state} = 'pending' or ${table.state} = 'delivering' or ${table.state} = 'succeeded' or ${table.state} = 'failed' or ${table.state} = 'not_sent'`),
    check("deliveries_target", sql`(${table.channel} = 'webhook' and ${table.endpointId} is not null) or (${table.channel} = 'email' and ${table.endpointId} is null)`),
    check("deliveries_event_or_email", sql`${table.eventId} is not null or ${table.channel} = 'email'`),
  ],
);

/** A waitlist's invitation email: sent on `signup.invited` while enabled; and its invite links' URL and lifetime. */
export const invitationEmails = sqliteTable("invitation_emails", {
  waitlistId: text("waitlist_id")
    .primaryKey()
    .references(() => waitlists.id, { onDelete: "cascade" }),
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(false),
  subject: text("subject").notNull(),
  body: text("body").notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  /** The product's sign-up URL that {{invite.url}} carries a signed token to (migration 0021); null: none set. */
  inviteUrl: text("invite_url"),
  /** How many days an invite link stays good after the invitation. */
  inviteExpiryDays: integer("invite_expiry_days").notNull().default(14),
  /** What an invitation not redeemed in time becomes (migration 0022): waiting at the front of the line, or rejected. */
  onInviteExpiry: text("on_invite_expiry", { enum: ["requeue", "reject"] }).notNull().default("requeue"),
  /** The reminder email, this many days before the invitation expires; null: none. */
  reminderDaysBefore: integer("reminder_days_before"),
  reminderSubject: text("reminder_subject").notNull().default("Your invitation to {{waitlist.name}} expires soon"),
  reminderBody: text("reminder_body").notNull().default("Hello,\n\nYou were invited to {{waitlist.name}} and have not accepted yet: your invitation expires soon.\n\n{{invite.url}}\n"),
});

/**
 * The one sender per database (one row, `name` = 'sender'): the process holding the lease until
 * `lease_until` sends; `last_event_id` is the newest event fanned out into deliveries.
 */
export const deliverySender = sqliteTable("delivery_sender", {
  name: text("name").primaryKey(),
  holder: text("holder"),
  leaseUntil: integer("lease_until", { mode: "timestamp_ms" }),
  lastEventId: integer("last_event_id").notNull().default(0),
});

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type Delivery = typeof deliveries.$inferSelect;
export type InvitationEmail = typeof invitationEmails.$inferSelect;

/** What joining does with a disposable address (migration 0017). */
export const DISPOSABLE_POLICIES = ["refuse", "flag", "allow"] as const;

/**
 * How people join a waitlist by themselves (migration 0013, lib/domain/joining/settings.ts): no row
 * means the defaults, joining closed. `fields` is a JSON array of {label, type, options?, required}.
 */
export const joinSettings = sqliteTable(
  "join_settings",
  {
    waitlistId: text("waitlist_id")
      .primaryKey()
      .references(() => waitlists.id, { onDelete: "cascade" }),
    joining: text("joining", { enum: ["open", "closed"] }).notNull().default("closed"),
    verification: integer("verification", { mode: "boolean" }).notNull().default(false),
    fields: text("fields").notNull().default("[]"),
    successMessage: text("success_message").notNull().default(""),
    embedOrigins: text("embed_origins").notNull().default("[]"),
    challenge: integer("challenge", { mode: "boolean" }).notNull().default(true),
    /** What joining does with a disposable address (migration 0017, lib/domain/fraud). */
    disposable: text("disposable", { enum: DISPOSABLE_POLICIES }).notNull().default("flag"),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
    // Migration 0019: the join page in the brand, and the public leaderboard.
    headline: text("headline").notNull().default(""),
    description: text("description").notNull().default(""),
    accentColor: text("accent_color").notNull().default(""),
    leaderboard: integer("leaderboard", { mode: "boolean" }).notNull().default(false),
  },
  (table) => [
    check("join_settings_joining_known", sql`${table.joining} = 'open' or ${table.joining} = 'closed'`),
    check("join_settings_fields_is_array", sql`json_type(${table.fields}) = 'array'`),
    check("join_settings_embed_origins_is_array", sql`json_type(${table.embedOrigins}) = 'array'`),
    check("join_settings_disposable_known", sql`${table.disposable} in ('refuse', 'flag', 'allow')`),
  ],
);

// Migration 0015: limits every process sees, and whether each referral counts.

/** One fixed-window counter per key (lib/domain/limits/counter.ts); WITHOUT ROWID in the migration. */
export const rateLimits = sqliteTable(
  "rate_limits",
  {
    key: text("key").primaryKey(),
    windowEnd: integer("window_end").notNull(),
    count: integer("count").notNull(),
  },
  (table) => [index("rate_limits_window_end_idx").on(table.windowEnd)],
);

export const REFERRAL_STATES = ["counted", "unverified", "lookalike", "daily_limit", "flagged", "discounted"] as const;

/** Each signup that joined with a referral code: whether it counts for its referrer, and since when (lib/domain/joining/referrals.ts). */
export const referrals = sqliteTable(
  "referrals",
  {
    signupId: integer("signup_id")
      .primaryKey()
      .references(() => signups.id, { onDelete: "cascade" }),
    referrerId: integer("referrer_id")
      .notNull()
      .references(() => signups.id, { onDelete: "cascade" }),
    waitlistId: text("waitlist_id").notNull(),
    state: text("state", { enum: REFERRAL_STATES }).notNull(),
    countedAt: integer("counted_at", { mode: "timestamp_ms" }),
  },
  (table) => [
    index("referrals_referrer_idx").on(table.referrerId, table.countedAt),
    index("referrals_waitlist_state_idx").on(table.waitlistId, table.state, table.referrerId),
    check("referrals_state_known", sql`${table.state} in ('counted', 'unverified', 'lookalike', 'daily_limit', 'flagged', 'discounted')`),
    check("referrals_counted_at_when_counted", sql`(${table.state} = 'counted') = (${table.countedAt} is not null)`),
  ],
);

// Migration 0017: flags that hold a signup for an admin's review (lib/domain/fraud).

export const FLAG_REASONS = ["disposable", "lookalike", "burst", "referral_limit"] as const;
export const FLAG_DECISIONS = ["pending", "approved", "discounted"] as const;

/** One row per signup and rule that flagged it, pending until an admin approves or discounts the signup. */
export const signupFlags = sqliteTable(
  "signup_flags",
  {
    signupId: integer("signup_id")
      .notNull()
      .references(() => signups.id, { onDelete: "cascade" }),
    waitlistId: text("waitlist_id").notNull(),
    reason: text("reason", { enum: FLAG_REASONS }).notNull(),
    decision: text("decision", { enum: FLAG_DECISIONS }).notNull().default("pending"),
    flaggedAt: integer("flagged_at", { mode: "timestamp_ms" }).notNull(),
    decidedAt: integer("decided_at", { mode: "timestamp_ms" }),
  },
  (table) => [
    primaryKey({ columns: [table.signupId, table.reason] }),
    index("signup_flags_waitlist_decision_idx").on(table.waitlistId, table.decision, table.reason, table.signupId),
    check("signup_flags_reason_known", sql`${table.reason} in ('disposable', 'lookalike', 'burst', 'referral_limit')`),
    check("signup_flags_decision_known", sql`${table.decision} in ('pending', 'approved', 'discounted')`),
    check("signup_flags_decided_at_when_decided", sql`(${table.decision} = 'pending') = (${table.decidedAt} is null)`),
  ],
);

// Migration 0018: ranking rules (lib/domain/ranking).

export const RANKING_RULES = ["referrals", "points"] as const;

/** How counted referrals move a waitlist's signups up the line; no row: first come, first served. */
export const rankingRules = sqliteTable(
  "ranking_rules",
  {
    waitlistId: text("waitlist_id")
      .primaryKey()
      .references(() => waitlists.id, { onDelete: "cascade" }),
    rule: text("rule", { enum: RANKING_RULES }).notNull(),
    step: integer("step").notNull(),
    cap: integer("cap"),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [
    check("ranking_rules_rule_known", sql`${table.rule} = 'referrals' or ${table.rule} = 'points'`),
    check("ranking_rules_step_positive", sql`${table.step} > 0`),
    check("ranking_rules_cap_positive", sql`${table.cap} is null or ${table.cap} > 0`),
  ],
);

/** The waiting moved signups per UTC day of their place key and of their creation (triggers of migration 0018); WITHOUT ROWID. */
export const movedSignupCounts = sqliteTable(
  "moved_signup_counts",
  {
    waitlistId: text("waitlist_id").notNull(),
    day: integer("day").notNull(),
    byLine: integer("by_line").notNull().default(0),
    byCreated: integer("by_created").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.waitlistId, table.day] })],
);

// Migration 0019: the join page's logo (lib/domain/branding/logo.ts), its type sniffed from its bytes.
export const JOIN_LOGO_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;

export const joinLogos = sqliteTable(
  "join_logos",
  {
    waitlistId: text("waitlist_id")
      .primaryKey()
      .references(() => waitlists.id, { onDelete: "cascade" }),
    contentType: text("content_type", { enum: JOIN_LOGO_TYPES }).notNull(),
    bytes: blob("bytes", { mode: "buffer" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [check("join_logos_type_known", sql`${table.contentType} in ('image/png', 'image/jpeg', 'image/webp')`)],
);

// Migration 0020: milestones (lib/domain/milestones).

/** A waitlist's milestones: a step of counted referrals, its label, the places it moves a waiting signup up and its one-line message. */
export const milestones = sqliteTable(
  "milestones",
  {
    waitlistId: text("waitlist_id")
      .notNull()
      .references(() => waitlists.id, { onDelete: "cascade" }),
    referrals: integer("referrals").notNull(),
    label: text("label").notNull(),
    places: integer("places").notNull().default(0),
    message: text("message").notNull().default(""),
  },
  (table) => [
    primaryKey({ columns: [table.waitlistId, table.referrals] }),
    uniqueIndex("milestones_label_idx").on(table.waitlistId, sql`lower(${table.label})`),
    check("milestones_referrals_positive", sql`${table.referrals} > 0`),
    check("milestones_places_not_negative", sql`${table.places} >= 0`),
  ],
);

/** Who reached which milestone, and when: gone with the signup, or with the milestone. */
export const signupMilestones = sqliteTable(
  "signup_milestones",
  {
    signupId: integer("signup_id")
      .notNull()
      .references(() => signups.id, { onDelete: "cascade" }),
    waitlistId: text("waitlist_id").notNull(),
    referrals: integer("referrals").notNull(),
    reachedAt: integer("reached_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.signupId, table.referrals] }),
    index("signup_milestones_waitlist_idx").on(table.waitlistId, table.referrals, table.signupId),
  ],
);

// Migration 0023: the funnel (lib/domain/funnel), counted on write; WITHOUT ROWID in the migration.

/** Per waitlist and UTC day of joining: the signups that reached each stage (triggers on signups, the bulk writer). */
export const funnelCounts = sqliteTable(
  "funnel_counts",
  {
    waitlistId: text("waitlist_id").notNull(),
    day: integer("day").notNull(),
    stage: text("stage").notNull(),
    count: integer("count").notNull(),
  },
  (table) => [primaryKey({ columns: [table.waitlistId, table.day, table.stage] })],
);

/** funnel_counts per source as well (utm_source, else referrer, else ''), keyed source first. */
export const funnelSourceCounts = sqliteTable(
  "funnel_source_counts",
  {
    waitlistId: text("waitlist_id").notNull(),
    source: text("source").notNull(),
    stage: text("stage").notNull(),
    day: integer("day").notNull(),
    count: integer("count").notNull(),
  },
  (table) => [primaryKey({ columns: [table.waitlistId, table.source, table.stage, table.day] })],
);

/** Per waitlist and UTC day of joining: how long signups took to their first invitation (`invite`) and from it to completing (`redeem`), in hour buckets. */
export const funnelDurations = sqliteTable(
  "funnel_durations",
  {
    waitlistId: text("waitlist_id").notNull(),
    kind: text("kind").notNull(),
    bucket: integer("bucket").notNull(),
    day: integer("day").notNull(),
    count: integer("count").notNull(),
  },
  (table) => [primaryKey({ columns: [table.waitlistId, table.kind, table.bucket, table.day] })],
);

/** Views of a waitlist's join page per UTC day (lib/domain/funnel/page-views.ts). */
export const joinPageViews = sqliteTable(
  "join_page_views",
  {
    waitlistId: text("waitlist_id").notNull(),
    day: integer("day").notNull(),
    count: integer("count").notNull(),
  },
  (table) => [primaryKey({ columns: [table.waitlistId, table.day] })],
);

/** Migration 0022: which invitation (its time) of a signup got its reminder email (lib/domain/invitations/remind.ts). */
export const invitationReminders = sqliteTable("invitation_reminders", {
  signupId: integer("signup_id")
    .primaryKey()
    .references(() => signups.id, { onDelete: "cascade" }),
  invitedAt: integer("invited_at").notNull(),
  sentAt: integer("sent_at").notNull(),
});

/** Migration 0022: paced invitations (lib/domain/invitations/schedules/). `weekdays`: bit 0 = Monday … bit 6 = Sunday. */
export const invitationSchedules = sqliteTable(
  "invitation_schedules",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    waitlistId: text("waitlist_id")
      .notNull()
      .references(() => waitlists.id, { onDelete: "cascade" }),
    weekdays: integer("weekdays").notNull(),
    timeOfDay: text("time_of_day").notNull(),
    timeZone: text("time_zone").notNull(),
    batch: integer("batch").notNull(),
    filter: text("filter").notNull().default(""),
    paused: integer("paused", { mode: "boolean" }).notNull().default(false),
    pausedReason: text("paused_reason"),
    guardPercent: integer("guard_percent"),
    guardDays: integer("guard_days"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [
    index("invitation_schedules_waitlist_idx").on(table.waitlistId),
    check("invitation_schedules_weekdays_known", sql`${table.weekdays} > 0 AND ${table.weekdays} < 128`),
    check("invitation_schedules_batch_positive", sql`${table.batch} > 0`),
  ],
);

/** Migration 0022: each slot a schedule ran for; the primary key runs a slot exactly once. */
export const invitationScheduleRuns = sqliteTable(
  "invitation_schedule_runs",
  {
    scheduleId: integer("schedule_id")
      .notNull()
      .references(() => invitationSchedules.id, { onDelete: "cascade" }),
    slot: integer("slot").notNull(),
    ranAt: integer("ran_at").notNull(),
    invited: integer("invited").notNull(),
  },
  (table) => [primaryKey({ columns: [table.scheduleId, table.slot] })],
);
