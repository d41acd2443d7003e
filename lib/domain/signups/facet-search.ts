import { getDb, type AppDatabase } from "@/db/client";
import { sourceFacetValues } from "../funnel/facets";
import { SOURCE_FIELDS, type SourceField } from "../funnel/source";
import { inputFacetValues, type FacetValues } from "./facets";
import { INPUT_PARAM_PREFIX, type SignupScope } from "./filter";

// A facet's value search (the dashboard's `facet=<name>&facet_q=<text>`): the values of one facet
// that contain a text, with their counts under the other filters. A facet is named by the /v1 filter
// parameter its values set (`input.company`, `utm_source`), so the URL, /v1 and the CLI share one vocabulary.

function isSourceField(name: string): name is SourceField {
  return (SOURCE_FIELDS as readonly string[]).includes(name);
}

/** The values of facet `name` that contain `text`, at most `limit`; null when the search is too broad to count, none for a name that is no facet. */
export async function searchFacetValues(scope: SignupScope, name: string, text: string, limit: number, db: AppDatabase = getDb()): Promise<FacetValues | null> {
  if (name.startsWith(INPUT_PARAM_PREFIX)) return await inputFacetValues(scope, name.slice(INPUT_PARAM_PREFIX.length), text, limit, db);
  if (isSourceField(name)) return await sourceFacetValues(scope, name, text, limit, db);
  return { values: [], exact: true };
}
