import Link from "next/link";
import { linkClass } from "@/components/styles";

// An unknown, malformed or other waitlist's signup id (with a 404 status).
export default function SignupNotFound() {
  return (
    <div className="mx-auto max-w-xl py-12 text-center">
      <p className="text-sm font-semibold text-zinc-600 dark:text-zinc-400">404</p>
      <h1 className="mt-2 text-2xl font-semibold">Signup not found</h1>
      <p className="mt-2 text-zinc-700 dark:text-zinc-300">This waitlist has no signup with this id. It may have been mistyped.</p>
      <p className="mt-6">
        <Link href="/" className={linkClass}>
          Back to all waitlists
        </Link>
      </p>
    </div>
  );
}
