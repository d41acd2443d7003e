import type { Metadata } from "next";
import Link from "next/link";
import { linkClass } from "@/components/styles";

export const metadata: Metadata = { title: "Not found" };

export default function NotFound() {
  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-16 text-center">
      <p className="text-sm font-semibold text-zinc-600 dark:text-zinc-400">404</p>
      <h1 className="mt-2 text-2xl font-semibold">Not found</h1>
      <p className="mt-2 text-zinc-700 dark:text-zinc-300">There is no page or waitlist at this address.</p>
      <p className="mt-6">
        <Link href="/" className={linkClass}>
          Back to all waitlists
        </Link>
      </p>
    </main>
  );
}
