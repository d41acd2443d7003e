/**
 * The notice after a write (`?done=<what>`): `done` picks one of the page's own messages, so
 * nothing from the URL is ever echoed into the page.
 */
export function DoneNotice({ done, messages }: { done: string | string[] | undefined; messages: Record<string, string> }) {
  const message = typeof done === "string" && Object.hasOwn(messages, done) ? messages[done] : undefined;
  if (!message) return null;
  return (
    <p role="status" data-testid="done-notice" className="mt-4 rounded-md border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-900 dark:border-green-800 dark:bg-green-950 dark:text-green-100">
      {message}
    </p>
  );
}
