"use client";

import { useActionState } from "react";
import { buttonClass } from "@/components/styles";
import { sendWebhookTest, type TestState } from "./actions";

/** "Send test" on an endpoint's row (server action sendWebhookTest): its answer is said next to it. */
export function SendTestButton({ id, url }: { id: string; url: string }) {
  const [state, action, isPending] = useActionState<TestState, FormData>(sendWebhookTest, {});
  const said = state.error ?? state.result?.message;
  return (
    <form action={action} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="id" value={id} />
      <button type="submit" className={`${buttonClass} px-2 py-1 text-xs`} disabled={isPending} aria-label={`Send a test event to ${url}`}>
        {isPending ? "Sending…" : "Send test"}
      </button>
      <span role="status" data-testid="send-test-result" className={`text-xs ${state.result?.delivered ? "text-green-800 dark:text-green-300" : "text-red-800 dark:text-red-300"}`}>
        {said}
      </span>
    </form>
  );
}
