const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path segment can be a waitlist id at all (checked before any query). */
export function isWaitlistId(candidate: string): boolean {
  return UUID_PATTERN.test(candidate);
}
