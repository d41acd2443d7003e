"use client";

import { useSyncExternalStore } from "react";
import { CopyButton } from "@/components/copy-button";
import { buttonClass } from "@/components/styles";

const noChanges = () => () => {};
/** What the browser can do with a link: nothing on the server (and without JavaScript), copy, or copy and share. */
const abilities = () => (typeof navigator.share === "function" ? "share" : "copy");

/**
 * Copy, and the device's share sheet where it has one (navigator.share): shown once the page runs
 * its script, since neither works without; the link itself stays selectable in its field.
 */
export function ShareButtons({ link, title }: { link: string; title: string }) {
  const can = useSyncExternalStore(noChanges, abilities, () => "none");
  if (can === "none") return null;
  return (
    <>
      <CopyButton value={link} label="Copy your referral link" />
      {can === "share" ? (
        // Closing the share sheet without sharing rejects: nothing to say then.
        <button type="button" className={`${buttonClass} px-2 py-1 text-xs`} onClick={() => void navigator.share({ title, url: link }).catch(() => undefined)}>
          Share…
        </button>
      ) : null}
    </>
  );
}
