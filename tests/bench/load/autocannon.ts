import { createRequire } from "node:module";

// autocannon ships no types; this is the part of its programmatic API the load scripts use.

export interface AutocannonRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Changes each request before it is sent (a new body, say). */
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
}

export interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  requests?: AutocannonRequest[];
  headers?: Record<string, string>;
  timeout?: number;
  /** Requests per second, all connections together: each connection sends its share of a second back to back, then waits for the next second (bursts; load/paced.ts spaces them evenly). Without it each connection sends its next request once answered. */
  overallRate?: number;
}

interface Histogram {
  average: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  total: number;
}

export interface AutocannonResult {
  requests: Histogram & { sent: number };
  latency: Histogram;
  throughput: Histogram;
  errors: number;
  timeouts: number;
  non2xx: number;
  "1xx": number;
  "2xx": number;
  "3xx": number;
  "4xx": number;
  "5xx": number;
  statusCodeStats: Record<string, { count: number }>;
  duration: number;
}

export const autocannon = createRequire(import.meta.url)("autocannon") as (options: AutocannonOptions) => Promise<AutocannonResult>;
