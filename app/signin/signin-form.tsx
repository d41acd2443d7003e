"use client";

import { useActionState } from "react";
import { inputClass, primaryButtonClass } from "@/components/styles";
import { signIn, type SignInState } from "./actions";

export function SignInForm({ next }: { next: string }) {
  const [state, action, isPending] = useActionState<SignInState, FormData>(signIn, {});
  return (
    <form action={action} className="mt-6 space-y-4" noValidate>
      <input type="hidden" name="next" value={next} />
      <div>
        <label htmlFor="api-key" className="block text-sm font-medium">
          API key
        </label>
        <input
          id="api-key"
          name="key"
          type="password"
          required
          // The one thing to do on this page: type or paste a key.
          autoFocus
          autoComplete="off"
          spellCheck={false}
          placeholder="wl_…"
          aria-describedby={state.error ? "api-key-hint api-key-error" : "api-key-hint"}
          aria-invalid={state.error ? true : undefined}
          className={`${inputClass} mt-1 w-full font-mono`}
        />
        <p id="api-key-hint" className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          A key with the <code>waitlist:view</code> role (reads) or <code>waitlist:admin</code> (also writes), as issued by the operator.
        </p>
      </div>
      {state.error ? (
        <p id="api-key-error" role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
          {state.error}
        </p>
      ) : null}
      <button type="submit" className={`${primaryButtonClass} w-full`} disabled={isPending}>
        {isPending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
