import Link from "next/link";
import { focusRing } from "@/components/styles";
import { requireSession, sessionIsAdmin } from "@/lib/dashboard/auth";
import { signOut } from "../signin/actions";
import { HeaderSearch } from "./header-search";
import { ViewOnlyBadge } from "./view-only-badge";

// Pages only admins see (a view session gets a 404 there), so only admins get the links.
const ADMIN_LINKS = [
  ["/keys", "API keys"],
  ["/webhooks", "Webhooks"],
  ["/audit", "Audit log"],
] as const;

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const session = await requireSession();
  return (
    <>
      <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
        {/* One line on a phone: the links scroll sideways, the search becomes a link to the finder, the key's name goes. */}
        <div className="mx-auto flex max-w-[96rem] items-center justify-between gap-x-4 gap-y-2 px-4 py-3 sm:flex-wrap sm:px-6">
          <nav aria-label="Main" className="-my-1 flex min-w-0 items-center gap-x-4 overflow-x-auto whitespace-nowrap py-1 text-sm sm:my-0 sm:flex-wrap sm:gap-y-1 sm:overflow-visible sm:py-0">
            <Link href="/" className={`${focusRing} rounded-sm font-semibold`}>
              Waitlist Admin
            </Link>
            <Link href="/docs/api" prefetch={false} className={`${focusRing} rounded-sm text-zinc-700 hover:text-zinc-950 dark:text-zinc-300 dark:hover:text-white`}>
              <span className="sm:hidden">API</span>
              <span className="max-sm:hidden">API reference</span>
            </Link>
            <Link href="/docs" prefetch={false} className={`${focusRing} rounded-sm text-zinc-700 hover:text-zinc-950 dark:text-zinc-300 dark:hover:text-white`}>
              Docs
            </Link>
            {sessionIsAdmin(session)
              ? ADMIN_LINKS.map(([href, label]) => (
                  <Link key={href} href={href} prefetch={false} className={`${focusRing} rounded-sm text-zinc-700 hover:text-zinc-950 dark:text-zinc-300 dark:hover:text-white`}>
                    {label}
                  </Link>
                ))
              : null}
            <Link href="/find" prefetch={false} className={`${focusRing} rounded-sm text-zinc-700 hover:text-zinc-950 sm:hidden dark:text-zinc-300 dark:hover:text-white`}>
              Find
            </Link>
          </nav>
          <HeaderSearch />
          <div className="flex items-center gap-3 text-sm">
            {sessionIsAdmin(session) ? null : <ViewOnlyBadge />}
            <span className="hidden min-w-0 break-words text-zinc-600 sm:inline dark:text-zinc-400">
              Key <span className="font-medium text-zinc-900 dark:text-zinc-100">{session.key.name}</span>{" "}
              <code className="text-xs">{session.key.prefix}…</code>
            </span>
            <form action={signOut}>
              <button type="submit" className={`${focusRing} whitespace-nowrap rounded-md px-2 py-1 font-medium text-zinc-700 hover:bg-zinc-100 dark:text-zinc-200 dark:hover:bg-zinc-800`}>
                Sign out
              </button>
            </form>
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="focus:outline-none mx-auto w-full max-w-[96rem] px-4 py-6 sm:px-6">
        {children}
      </main>
    </>
  );
}
