import { STATUS_ACTIONS } from "@/lib/domain/signups/status";

/**
 * The notices after a status action (`?done=invited&changed=50`), for a page's DoneNotice: `done`
 * picks one, and `changed` is read as a number only, so nothing else from the URL reaches the page.
 */
export function statusDoneMessages(changed: string | string[] | undefined): Record<string, string> {
  if (typeof changed !== "string" || !/^[0-9]{1,9}$/.test(changed)) return {};
  const count = Number(changed);
  const signups = `${count.toLocaleString("en-US")} signup${count === 1 ? "" : "s"}`;
  return Object.fromEntries(Object.values(STATUS_ACTIONS).map(({ past, happened }) => [past, `${happened}: ${signups}.`]));
}
