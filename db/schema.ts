import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

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
    id: integer("id").primaryKey(),
    waitlistId: text("waitlist_id")
      .notNull()
      .references(() => waitlists.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    verified: integer("verified", { mode: "boolean" }).notNull().default(false),
    referral: integer("referral", { mode: "boolean" }).notNull().default(false),
    customInputs: text("custom_inputs").notNull().default("[]"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [
    uniqueIndex("signups_waitlist_email_unique").on(table.waitlistId, sql`lower(${table.email})`),
    index("signups_waitlist_order_idx").on(table.waitlistId, table.createdAt),
    index("signups_waitlist_verified_order_idx").on(table.waitlistId, table.verified, table.createdAt),
    index("signups_waitlist_referral_order_idx").on(table.waitlistId, table.referral, table.createdAt),
    index("signups_waitlist_verified_referral_order_idx").on(
      table.waitlistId,
      table.verified,
      table.referral,
      table.createdAt,
    ),
    check("signups_custom_inputs_is_array", sql`json_type(${table.customInputs}) = 'array'`),
  ],
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

export type Waitlist = typeof waitlists.$inferSelect;
export type Signup = typeof signups.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
export type Session = typeof sessions.$inferSelect;
