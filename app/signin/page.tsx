import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { cardClass } from "@/components/styles";
import { getCurrentSession } from "@/lib/dashboard/auth";
import { safeReturnPath } from "@/lib/dashboard/return-path";
import { isStorageFailureCause, storageFailureMessage } from "@/lib/core/storage-failure";
import { isSessionEndReason, type SessionEndReason } from "@/lib/domain/sessions";
import { SignInForm } from "./signin-form";

export const metadata: Metadata = { title: "Sign in" };

/** Why the last session ended; `requireSession()` sets `?reason=`, and any other value shows nothing. */
const SESSION_ENDED: Record<SessionEndReason, string> = {
  revoked: "Your API key was revoked: sign in with another key.",
  "key-expired": "Your API key expired: sign in with another key.",
  "role-removed": "Your API key no longer carries the waitlist:view role: sign in with another key.",
  "session-expired": "Your session expired: sign in again.",
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const next = safeReturnPath(typeof params.next === "string" ? params.next : undefined);
  if (await getCurrentSession()) redirect(next);
  const sessionEnded = isSessionEndReason(params.reason) ? SESSION_ENDED[params.reason] : undefined;
  // signOut sets `?signed_out=` to the storage failure's cause when the database could not end the session.
  const unrecorded = isStorageFailureCause(params.signed_out) ? storageFailureMessage(params.signed_out) : undefined;
  return (
    <main id="main" className="flex min-h-screen items-start justify-center px-4 py-16 sm:items-center">
      <div className={`${cardClass} w-full max-w-md p-6 shadow-sm`}>
        <h1 className="text-xl font-semibold">Sign in to Waitlist Admin</h1>
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
          Paste an API key. The session lasts 12 hours, or until the key is revoked or you sign out.
        </p>
        {sessionEnded ? (
          <p id="session-ended" role="alert" className="mt-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
            {sessionEnded}
          </p>
        ) : null}
        {unrecorded ? (
          <p id="sign-out-unrecorded" role="alert" className="mt-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
            You are signed out in this browser, but the server could not end the session ({unrecorded}): it stays valid until it expires.
          </p>
        ) : params.signed_out ? (
          <p role="status" className="mt-4 rounded-md bg-zinc-100 px-3 py-2 text-sm dark:bg-zinc-800">
            You have been signed out.
          </p>
        ) : null}
        <SignInForm next={next} />
      </div>
    </main>
  );
}
