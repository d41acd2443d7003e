"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { storageFailureOf, type StorageFailure, type StorageFailureCause } from "@/lib/core/storage-failure";
import { isSecureRequest } from "@/lib/dashboard/auth";
import { currentClientLimiterKey } from "@/lib/http/client-address";
import { logRefusedWrite } from "@/lib/http/refused-write";
import { serverLimits, type WindowSpec } from "@/lib/http/limits";
import { sharedLimitStore } from "@/lib/domain/limits/shared";
import { safeReturnPath } from "@/lib/dashboard/return-path";
import { SECURE_SESSION_COOKIE, SESSION_COOKIE, sessionCookieName, sessionCookieOptions } from "@/lib/dashboard/session-cookie";
import { checkSignInKey, endSession, startSession } from "@/lib/domain/sessions";

export interface SignInState {
  error?: string;
}

const REFUSALS = {
  invalid: "That is not a valid API key. Check that you pasted the whole key.",
  revoked: "This API key has been revoked. Ask the operator for a new key.",
  expired: "This API key has expired. Ask the operator for a new key.",
  forbidden: "This API key does not carry the waitlist:view role, which the dashboard needs.",
} as const;

/** Failed sign-ins per client address: 10 per 10 minutes (lib/http/limits.ts). */
const SIGN_IN_FAILURES: WindowSpec = { name: "sign-in-failures", limit: 10, windowMs: 10 * 60 * 1000, maxKeys: 100_000 };

// Sign in: paste an API key with waitlist:view; failures count against the client address (IPv6: its /64).
export async function signIn(_previous: SignInState, form: FormData): Promise<SignInState> {
  const clientKey = currentClientLimiterKey(await headers());
  const limits = serverLimits(sharedLimitStore());
  const failures = await limits.peek(SIGN_IN_FAILURES, clientKey);
  if (failures.remaining === 0) {
    const minutes = Math.ceil(failures.resetSeconds / 60);
    return { error: `Too many failed sign-in attempts from your address. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.` };
  }
  const key = String(form.get("key") ?? "").trim();
  if (!key) return { error: "Paste an API key to sign in." };
  const verdict = await checkSignInKey(key);
  if (!verdict.ok) {
    await limits.hit(SIGN_IN_FAILURES, clientKey);
    return { error: REFUSALS[verdict.reason] };
  }
  const started = await refusedWrite(() => startSession(verdict.apiKeyId));
  if ("refused" in started) return { error: `You cannot sign in right now: ${started.refused.message}.` };
  const { token, expiresAt } = started.done;
  const secure = await isSecureRequest();
  (await cookies()).set(sessionCookieName(secure), token, sessionCookieOptions(expiresAt, secure));
  redirect(safeReturnPath(String(form.get("next") ?? "")));
}

// Sign out: end the session on the server and drop the cookie, under either name. When the database
// cannot record it, the cookie goes all the same, and the sign-in page says that the session lives on.
export async function signOut(): Promise<void> {
  const store = await cookies();
  let unrecorded: StorageFailureCause | undefined;
  for (const name of [SESSION_COOKIE, SECURE_SESSION_COOKIE]) {
    const token = store.get(name)?.value;
    const ended = token ? await refusedWrite(() => endSession(token)) : undefined;
    if (ended && "refused" in ended) unrecorded = ended.refused.cause;
  }
  store.delete(SESSION_COOKIE);
  // Browsers ignore a __Host- cookie, even one that deletes, without Secure and Path=/.
  store.delete({ name: SECURE_SESSION_COOKIE, path: "/", secure: true });
  redirect(unrecorded ? `/signin?signed_out=${unrecorded}` : "/signin?signed_out=1");
}

/** A write's result, or the storage failure that refused it (logged in one line); other errors are thrown. */
async function refusedWrite<T>(write: () => Promise<T>): Promise<{ done: T } | { refused: StorageFailure }> {
  try {
    return { done: await write() };
  } catch (error) {
    const refused = storageFailureOf(error);
    if (!refused) throw error;
    logRefusedWrite(refused);
    return { refused };
  }
}
