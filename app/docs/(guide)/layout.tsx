import Link from "next/link";
import { focusRing, linkClass } from "@/components/styles";
import { DOCS_PAGES } from "./pages";

export default function GuideLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <nav aria-label="Documentation" className="mb-8 flex flex-wrap gap-x-4 gap-y-1 border-b border-zinc-200 pb-3 text-sm dark:border-zinc-800">
        <Link href="/" prefetch={false} className={`${focusRing} rounded-sm font-semibold`}>
          Waitlist Admin
        </Link>
        {DOCS_PAGES.map(([href, label]) => (
          <Link key={href} href={href} prefetch={false} className={linkClass}>
            {label}
          </Link>
        ))}
      </nav>
      <main id="main">{children}</main>
    </div>
  );
}
