import { and, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { signups } from "@/db/schema";
import { containsPattern } from "@/lib/sqlite/contains";
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

/** One more row, with a null value, tells how many signups were read. `contains`: only values that contain a text (a facet's value search). */
function valuesStatement(db: AppDatabase, field: SourceField, shape: ScopeShape, contains = false) {
  const column = COLUMNS[field];
  return preparedSql<{ value: string | null; count: number }>(db, `funnel.sourceFacet:${field}:${shapeKey(shape)}${contains ? ":c" : ""}`, () => {
    const valueContains = contains ? sql` and ${column} like ${sql.placeholder("valueContains")} escape '\\'` : sql``;
    return sql`with matched as materialized (select ${column} as value from ${signups} where ${and(scopeWhere(shape), sql`${column} is not null`)}${valueContains}${newestFirst(shape)} limit ${sql.placeholder("rowCap")})
      select value, count(*) as count from matched group by 1
      union all select null, count(*) from matched`;
  });
}

/** A source field's facet: its most common values, and how many distinct values the counted signups have (more than shown: the facet offers a value search). */
export interface SourceFacet extends FacetValues {
  distinct: number;
}

/** One field's values under the other filters (the scope without its own filter on that field), those that contain `valueContains` if given. */
function fieldValues(scope: SignupScope, field: SourceField, limit: number, rowCap: number, valueContains: string | undefined, db: AppDatabase): SourceFacet {
  const others: SignupScope = { ...scope, [SCOPE_KEYS[field]]: undefined };
  const shape = shapeOf(others, cappedAccess(planAccess(others, db), rowCap));
  const contains = valueContains === undefined ? {} : { valueContains: containsPattern(valueContains) };
  const rows = valuesStatement(db, field, shape, valueContains !== undefined).all({ ...scopeParams(others), ...contains, rowCap });
  const read = rows.find((row) => row.value === null)?.count ?? 0;
  const counted = rows.filter((row): row is { value: string; count: number } => row.value !== null && row.value.length <= FACET_TEXT_CHARS);
  const values = counted.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1)).slice(0, limit);
  return { values, exact: read < rowCap, distinct: counted.length };
}

/** Per source field, its `limit` most common values under the other filters; null when an email search matches more signups than are counted. */
export function sourceFacets(scope: SignupScope, limit = 10, db: AppDatabase = getDb(), rowCap = FACET_ROW_CAP): Record<SourceField, SourceFacet> | null {
  if (exceedsSearchCap(scope, db)) return null;
  return Object.fromEntries(SOURCE_FIELDS.map((field) => [field, fieldValues(scope, field, limit, rowCap, undefined, db)])) as Record<SourceField, SourceFacet>;
}

/** The values of one source field that contain `text` (case-insensitive), with counts under the other filters: the facet's value search. */
export function sourceFacetValues(scope: SignupScope, field: SourceField, text: string, limit: number, db: AppDatabase = getDb(), rowCap = FACET_ROW_CAP): FacetValues | null {
  const others: SignupScope = { ...scope, [SCOPE_KEYS[field]]: undefined };
  if (exceedsSearchCap(others, db)) return null;
  const { values, exact } = fieldValues(others, field, limit, rowCap, text, db);
  return { values, exact };
}
