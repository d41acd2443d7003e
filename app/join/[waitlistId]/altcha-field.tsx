"use client";

import { createElement, useEffect, useState } from "react";

/**
 * The ALTCHA widget (self-hosted: it fetches its challenge from /join/{id}/challenge and solves it in
 * web workers as the page loads); it puts its payload in the form's `altcha` field. Loaded in the
 * browser only: the custom element needs `window`. Until then (for good, without JavaScript) the
 * server-rendered note says the check needs JavaScript (a <noscript> would not show when a browser
 * only has scripts turned off for the page).
 */
export function AltchaField({ challengeUrl }: { challengeUrl: string }) {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    let live = true;
    void import("altcha").then(() => live && setLoaded(true));
    return () => {
      live = false;
    };
  }, []);
  if (!loaded) {
    return (
      <p data-testid="challenge-needs-js" className="text-sm text-zinc-600 dark:text-zinc-400">
        This form&rsquo;s anti-spam check needs JavaScript: please turn JavaScript on to join.
      </p>
    );
  }
  return createElement("altcha-widget", { challenge: challengeUrl, name: "altcha", auto: "onload", hidelogo: "", hidefooter: "" });
}
