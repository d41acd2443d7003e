import postgres from "postgres";

/**
 * A new, empty database on the PostgreSQL server of `serverUrl`, named after `name` (one a previous
 * run left is dropped first), for a test server of its own. Returns its URL.
 */
export async function freshPgDatabase(serverUrl: string, name: string): Promise<string> {
  const database = `waitlist_${name.toLowerCase().replace(/\W/g, "_")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.unsafe(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
