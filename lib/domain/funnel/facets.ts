import { and, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { signups } from "@/db/schema";
import { preparedSql } from "@/lib/sqlite/statements";
import { cappedAccess, planAccess } from "../signups/access";
import { exceedsSearchCap } from "../signups/counts";
import type { FacetValues } from "../signups/facets";
import type { SignupScope } from "../signups/filter";
import { FACET_ROW_CAP, FACET_TEXT_CHARS } from "../signups/limits";
import { newestFirst, scopeParams, scopeWhere, shapeKey, shapeOf, type ScopeShape } from "../signups/scope-sql";
import { SOURCE_FIELDS, type SourceField } from "./source";

// The facets of the source fields (utm_source, utm_medium, utm_campaign, referrer): each field's most
// common values under the other active filters (the scope without its own filter on that field),
// counted over at most FACET_ROW_CAP signups that have a value, like the custom inputs' facets: past
// that the counts are lower bounds. Signups without a value are reached through the field's partial
// index (migration 0023) when no other filter decides the walk, so they cost nothing.

const COLUMNS = { utm_source: signups.utmSource, utm_medium: signups.utmMedium, utm_campaign: signups.utmCampaign, referrer: signups.referrer } as const;
const SCOPE_KEYS = { utm_source: "utmSource", utm_medium: "utmMedium", utm_campaign: "utmCampaign", referrer: "referrer" } as const;

/** One more row, with a null value, tells how many signups were read. */
function valuesStatement(db: AppDatabase, field: SourceField, shape: ScopeShape) {
  const column = COLUMNS[field];
  return preparedSql<{ value: string | null; count: number }>(db, `funnel.sourceFacet:${field}:${shapeKey(shape)}`, () => {
    return sql`with matched as materialized (select ${column} as value from ${signups} where ${and(scopeWhere(shape), sql`${column} is not null`)}${newestFirst(shape)} limit ${sql.placeholder("rowCap")})
      select value, count(*) as count from matched group by 1
      union all select null, count(*) from matched`;
  });
}

/** Per source field, its `limit` most common values under the other filters; null when an email search matches more signups than are counted. */
export function sourceFacets(scope: SignupScope, limit = 10, db: AppDatabase = getDb(), rowCap = FACET_ROW_CAP): Record<SourceField, FacetValues> | null {
  if (exceedsSearchCap(scope, db)) return null;
  const entries = SOURCE_FIELDS.map((field): [SourceField, FacetValues] => {
    const others: SignupScope = { ...scope, [SCOPE_KEYS[field]]: undefined };
    const shape = shapeOf(others, cappedAccess(planAccess(others, db), rowCap));
    const rows = valuesStatement(db, field, shape).all({ ...scopeParams(others), rowCap });
    const read = rows.find((row) => row.value === null)?.count ?? 0;
    const values = rows
      .filter((row): row is { value: string; count: number } => row.value !== null && row.value.length <= FACET_TEXT_CHARS)
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1))
      .slice(0, limit);
    return [field, { values, exact: read < rowCap }];
  });
  return Object.fromEntries(entries) as Record<SourceField, FacetValues>;
}
