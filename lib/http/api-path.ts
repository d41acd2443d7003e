/**
 * Whether a request is for the /v1 API: `/v1` itself or anything under `/v1/`, not `/v1x`. Takes a
 * pathname or a request target with its query (`/v1?x`). proxy.ts's `config.matcher` must be a
 * literal, so it spells the same prefix on its own.
 */
export function isApiPath(pathOrTarget: string): boolean {
  return /^\/v1(\/|\?|$)/.test(pathOrTarget);
}
