"use client";

import Link from "next/link";
import { useActionState } from "react";
import { buttonClass, primaryButtonClass } from "@/components/styles";
import { rotateWebhookSecret, type SecretState } from "./actions";
import { ErrorAlert } from "./error-alert";
import { SecretBanner } from "./secret-banner";

/** Rotate the endpoint's secret (server action rotateWebhookSecret): the new one is shown once, in the action's response. */
export function RotateForm({ id }: { id: string }) {
  const [state, action, isPending] = useActionState<SecretState, FormData>(rotateWebhookSecret, {});
  if (state.shown) {
    return (
      <>
        <SecretBanner heading="Secret rotated" url={state.shown.url} secret={state.shown.secret} />
        <p className="mt-4">
          <Link href="/webhooks" className={buttonClass}>
            Back to webhook endpoints
          </Link>
        </p>
      </>
    );
  }
  return (
    <form action={action} className="mt-6 grid max-w-2xl gap-3">
      <input type="hidden" name="id" value={id} />
      <ErrorAlert id="rotate-error" message={state.error} />
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className={primaryButtonClass} disabled={isPending}>
          {isPending ? "Rotating…" : "Rotate secret"}
        </button>
        <Link href="/webhooks" className={buttonClass}>
          Cancel
        </Link>
      </div>
    </form>
  );
}
