"use client";

import { useEffect, useRef } from "react";
import Link from "next/link";
import { CustomInputEntries } from "@/components/custom-input-entries";
import { formatCount, formatDateTime } from "@/components/format";
import { buttonClass, linkClass, mutedText } from "@/components/styles";
import type { SignupListRow } from "./signup-list-row";

/** A modal with everything about one signup; the native <dialog> traps focus and closes on Escape. */
export function SignupDetails({ signup, pageHref, canErase, onClose }: { signup: SignupListRow | null; pageHref: string | undefined; canErase: boolean; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (signup && !element.open) element.showModal();
    if (!signup && element.open) element.close();
  }, [signup]);

  return (
    <dialog
      ref={dialog}
      onClose={onClose}
      aria-labelledby="signup-details-title"
      className="m-auto w-[min(36rem,calc(100vw-2rem))] rounded-lg border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-zinc-950/50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      {signup ? (
        <div className="p-5">
          <div className="flex items-start justify-between gap-4">
            <h2 id="signup-details-title" className="break-all text-lg font-semibold">
              {signup.email}
            </h2>
            <button type="button" className={buttonClass} onClick={() => dialog.current?.close()} autoFocus>
              Close
            </button>
          </div>
          <dl className="mt-4 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className={mutedText}>Verified</dt>
            <dd>{signup.verified ? "Yes" : "No"}</dd>
            <dt className={mutedText}>Referral</dt>
            <dd>{signup.referral ? "Yes" : "No"}</dd>
            <dt className={mutedText}>Signed up</dt>
            <dd>
              <time dateTime={signup.createdAt.toISOString()}>{formatDateTime(signup.createdAt)} UTC</time>
            </dd>
          </dl>
          <h3 className="mt-5 text-sm font-semibold">Custom inputs</h3>
          <CustomInputEntries entries={signup.customInputs.entries} className="mt-2" />
          {signup.customInputs.total > signup.customInputs.entries.length ? (
            <p className={`mt-2 text-sm ${mutedText}`} data-testid="custom-inputs-more">
              and {formatCount(signup.customInputs.total - signup.customInputs.entries.length)} more, on this signup&apos;s page.
            </p>
          ) : null}
          {pageHref ? (
            <p className="mt-5 text-sm">
              <Link href={pageHref} className={`${linkClass} underline`}>
                Open this signup&apos;s page
              </Link>{" "}
              <span className={mutedText}>(every field, the full timestamp, copy buttons)</span>
            </p>
          ) : null}
          {pageHref && canErase ? (
            <p className="mt-3 text-sm">
              <Link href={`${pageHref}/erase`} className={buttonClass}>
                Erase this signup…
              </Link>
            </p>
          ) : null}
        </div>
      ) : null}
    </dialog>
  );
}
