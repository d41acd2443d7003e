import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([".next/**", ".next-*/**", "next-env.d.ts", "test-results/**", "playwright-report/**", "data/**"]),
  {
    rules: { "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true, argsIgnorePattern: "^_" }] },
  },
  {
    // The database is reached only through db/ and the query modules in lib/.
    files: ["app/**", "components/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "better-sqlite3", message: "Use the query layer in lib/." },
            { name: "drizzle-orm", message: "Use the query layer in lib/." },
          ],
          patterns: [{ group: ["@/db/*", "drizzle-orm/*"], message: "Use the query layer in lib/." }],
        },
      ],
    },
  },
  {
    files: ["db/**", "lib/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["@/app/*", "../app/*", "../../app/*"], message: "db/ and lib/ never import from app/." }] }],
    },
  },
]);
