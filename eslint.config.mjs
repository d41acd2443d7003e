import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// The layers, each importing only the layers below it (README, "Layout"):
//
//   lib/core        errors, env                                   imports nothing of ours
//   db/             schema, migrations, the connection            core
//   lib/store       the engine seam: statements, dialect,         db, core
//                   transactions (what the domain writes once)
//   lib/sqlite      SQLite's own: memoized aggregates, busy,      store, db, core
//                   checkpoints, backup
//   lib/domain      queries and schemas of waitlists, signups,    sqlite, store, db, core
//                   keys, sessions (no HTTP, no next/*)
//   lib/http        request context, addresses, headers, limits   core
//   lib/import      the import: files, rows, its thread, its events   domain and below
//   lib/seed        the demo's data                               domain and below
//   lib/delivery    the webhook and email sender: signing,        domain, http and below
//                   posting, SMTP, the sender's loop
//   lib/api         route table, wrapper, problems, OpenAPI       http, domain, core
//   lib/dashboard   session, proxy, URL state of the dashboard    import, http, domain, core
//   lib/join        the public join pages: form, result, framing  http, domain, core
//   lib/server      the production server                         api, dashboard, join, import, delivery, http and below
//   lib/cli         the operator's CLI                            import, seed, delivery, domain, http and below
//   app/, components/, proxy.ts                                   api, dashboard, join, domain, http, core;
//                                                                 lib/import's types only
//
// Each block below lists what its folder may NOT import; a violation names the rule.

const layer = (name) => ({ group: [`@/lib/${name}/*`, `@/lib/${name}`], message: `lib/${name} is a higher or unrelated layer: see the layer rule at the top of eslint.config.mjs.` });
// The pages show an import's events (lib/import/events.ts) but never run one.
const importTypesOnly = { ...layer("import"), allowTypeImports: true, message: "Pages take only lib/import's types: an import runs on its own thread (lib/server/import-runner.ts)." };
const database = [
  { group: ["@/db/*"], message: "Only lib/store, lib/sqlite, lib/domain, lib/import, lib/seed and lib/cli reach the database: go through the query layer (lib/domain)." },
  { group: ["drizzle-orm", "drizzle-orm/*"], message: "Drizzle is used in lib/domain, lib/store, lib/sqlite and db/ only." },
];
const nextImports = { group: ["next", "next/*"], message: "This layer is framework-free: Next.js belongs to lib/api, lib/dashboard, lib/join, lib/server and app/." };
const privateNext = { group: ["next/dist/*"], message: "Private Next.js paths break on any upgrade: use a public API." };
const appImports = { group: ["@/app/*", "../app/*", "../../app/*"], message: "Nothing below app/ imports from it." };
const restrict = (files, patterns, paths = []) => ({ files, rules: { "no-restricted-imports": ["error", { paths, patterns }] } });
const betterSqlite = { name: "better-sqlite3", message: "Use the query layer (lib/domain)." };

const above = {
  core: ["store", "sqlite", "domain", "http", "import", "seed", "delivery", "api", "dashboard", "join", "server", "cli"],
  store: ["sqlite", "domain", "http", "import", "seed", "delivery", "api", "dashboard", "join", "server", "cli"],
  sqlite: ["domain", "http", "import", "seed", "delivery", "api", "dashboard", "join", "server", "cli"],
  domain: ["http", "import", "seed", "delivery", "api", "dashboard", "join", "server", "cli"],
  http: ["store", "sqlite", "domain", "import", "seed", "delivery", "api", "dashboard", "join", "server", "cli"],
  importSeed: ["http", "delivery", "api", "dashboard", "join", "server", "cli"],
  delivery: ["import", "seed", "api", "dashboard", "join", "server", "cli"],
  api: ["import", "seed", "delivery", "dashboard", "join", "server", "cli"],
  dashboard: ["seed", "delivery", "api", "join", "server", "cli"],
  join: ["import", "seed", "delivery", "api", "dashboard", "server", "cli"],
  server: ["seed", "cli"],
  cli: ["api", "dashboard", "join", "server"],
  web: ["store", "sqlite", "seed", "server", "cli"],
};

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([".next/**", ".next-*/**", "next-env.d.ts", "test-results/**", "playwright-report/**", "data/**"]),
  {
    rules: { "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true, argsIgnorePattern: "^_" }] },
  },
  // Every query is asynchronous (on SQLite as on PostgreSQL): a Promise not awaited is a write that may
  // land after its answer, or a check that is always true. The type checker finds them.
  {
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "@typescript-eslint/await-thenable": "error",
    },
  },
  restrict(["lib/core/**"], [...above.core.map(layer), ...database, nextImports, appImports], [betterSqlite]),
  restrict(["db/**"], [...["core", ...above.core].filter((name) => name !== "core").map(layer), nextImports, appImports]),
  restrict(["lib/store/**"], [...above.store.map(layer), nextImports, appImports]),
  restrict(["lib/sqlite/**"], [...above.sqlite.map(layer), nextImports, appImports]),
  restrict(["lib/domain/**"], [...above.domain.map(layer), nextImports, appImports]),
  restrict(["lib/http/**"], [...above.http.map(layer), ...database, nextImports, appImports], [betterSqlite]),
  restrict(["lib/import/**", "lib/seed/**"], [...above.importSeed.map(layer), nextImports, appImports]),
  restrict(["lib/delivery/**"], [...above.delivery.map(layer), ...database, nextImports, appImports], [betterSqlite]),
  restrict(["lib/api/**"], [...above.api.map(layer), ...database, privateNext, appImports], [betterSqlite]),
  restrict(["lib/dashboard/**"], [...above.dashboard.map(layer), ...database, privateNext, appImports], [betterSqlite]),
  restrict(["lib/join/**"], [...above.join.map(layer), ...database, privateNext, appImports], [betterSqlite]),
  restrict(["lib/server/**"], [...above.server.map(layer), ...database, privateNext, appImports], [betterSqlite]),
  restrict(["lib/cli/**"], [...above.cli.map(layer), nextImports, appImports]),
  restrict(["app/**", "components/**", "proxy.ts"], [...above.web.map(layer), importTypesOnly, ...database, privateNext], [betterSqlite]),
  restrict(["tests/**"], [privateNext]),
  // The domain writes its SQL once, for any engine: statements, transactions and connections through
  // lib/store. The files named here are SQLite's own machinery (a check of the file, the import's
  // bulk insert) until PostgreSQL has its counterparts (issue 34).
  {
    files: ["lib/domain/**"],
    ignores: ["lib/domain/database.ts", "lib/domain/signups/bulk-insert.ts"],
    rules: { "no-restricted-syntax": ["error", { selector: "MemberExpression[property.name='$client']", message: "The domain reaches its connection through lib/store (preparedSql, writeTransaction, transaction, connectionOf): one way per engine." }] },
  },
  // One component per file, none over ~200 lines (generic table parts live in components/data-table/).
  { files: ["app/**/*.tsx", "components/**/*.tsx"], rules: { "max-lines": ["error", { max: 200 }] } },
]);
