import Link from "next/link";
import { linkClass } from "@/components/styles";

// The admin pages (keys, audit log) answer a view session as if they were not there (404).
export default function AdminPageNotFound() {
  return (
    <div className="mx-auto max-w-xl py-12 text-center">
      <p className="text-sm font-semibold text-zinc-600 dark:text-zinc-400">404</p>
      <h1 className="mt-2 text-2xl font-semibold">Page not found</h1>
      <p className="mt-2 text-zinc-700 dark:text-zinc-300">This page does not exist, or it needs a key with the waitlist:admin role.</p>
      <p className="mt-6">
        <Link href="/" className={linkClass}>
          Back to all waitlists
        </Link>
      </p>
    </div>
  );
}
