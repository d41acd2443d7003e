import { Breadcrumbs, HOME_CRUMB, type Crumb } from "@/components/breadcrumbs";

/** The breadcrumbs of a waitlist's pages: all waitlists, the waitlist, then anything between it and this page. */
export function Breadcrumb({ waitlist, via = [] }: { waitlist?: { id: string; name: string }; via?: readonly Crumb[] }) {
  return <Breadcrumbs trail={[HOME_CRUMB, ...(waitlist ? [[`/waitlists/${waitlist.id}`, waitlist.name] as const] : []), ...via]} />;
}
