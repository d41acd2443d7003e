import createMDX from "@next/mdx";
import type { NextConfig } from "next";
import { NO_CONTENT_CSP, STATIC_SECURITY_HEADERS } from "@/lib/http/security-headers";

const toHeaders = (headers: Record<string, string>) => Object.entries(headers).map(([key, value]) => ({ key, value }));

const distDir = process.env.NEXT_DIST_DIR || ".next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // The guide pages under app/docs/(guide) are MDX.
  pageExtensions: ["ts", "tsx", "mdx"],
  // Loaded from node_modules at run time, never bundled: better-sqlite3 is a native module; postgres
  // runs with the fix db/pg/patches applies at install (a bundle would carry whatever copy it was built from).
  serverExternalPackages: ["better-sqlite3", "postgres"],
  // Lets parallel builds (tests, benchmarks) use their own output folder.
  distDir,
  // Next.js adds the output folder's types to the include of the tsconfig it reads, unless that
  // tsconfig extends another: a build into another folder reads tsconfig.dist.json (which extends
  // tsconfig.json), so the tracked tsconfig.json stays as it is.
  typescript: distDir === ".next" ? {} : { tsconfigPath: "tsconfig.dist.json" },
  // Pages get their CSP (with a per-request nonce) from proxy.ts; everything else gets these.
  async headers() {
    return [
      { source: "/:path*", headers: toHeaders(STATIC_SECURITY_HEADERS) },
      { source: "/v1/:path*", headers: toHeaders({ "Content-Security-Policy": NO_CONTENT_CSP }) },
      { source: "/_next/static/:path*", headers: toHeaders({ "Content-Security-Policy": NO_CONTENT_CSP }) },
    ];
  },
};

// Turbopack takes remark/rehype plugins by package name (serializable options), not as functions.
const withMDX = createMDX({ options: { remarkPlugins: ["remark-gfm"], rehypePlugins: ["rehype-slug"] } });

export default withMDX(nextConfig);
