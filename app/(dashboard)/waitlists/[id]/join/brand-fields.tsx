import { inputClass, mutedText } from "@/components/styles";
import { MIN_CONTRAST } from "@/lib/domain/branding/accent-color";
import { LEADERBOARD_SIZE } from "@/lib/domain/joining/leaderboard";
import { MAX_DESCRIPTION, MAX_HEADLINE, type JoinSettings } from "@/lib/domain/joining/settings";

/** The join page in the brand (the logo has its own form: ./logo-form.tsx) and the public leaderboard. */
export function BrandFields({ settings }: { settings: JoinSettings }) {
  return (
    <fieldset id="branding" className="grid scroll-mt-4 gap-3">
      <legend className="text-sm font-medium">The page in your brand</legend>
      <label className="grid gap-1 text-sm">
        Headline (instead of “Join the … waitlist”)
        <input name="headline" defaultValue={settings.headline} maxLength={MAX_HEADLINE} className={inputClass} />
      </label>
      <label className="grid gap-1 text-sm">
        Description
        <textarea name="description" rows={4} maxLength={MAX_DESCRIPTION} defaultValue={settings.description} className={inputClass} aria-describedby="description-hint" />
      </label>
      <p id="description-hint" className={`-mt-2 text-sm ${mutedText}`}>
        Plain text; a blank line starts a paragraph; <code>**bold**</code>, <code>*italic*</code> and <code>[a link](https://example.com)</code> (http and https only). HTML shows as text.
      </p>
      <label className="grid gap-1 text-sm">
        Accent colour (# and six hex digits; empty for the default blue)
        <input name="accent_color" defaultValue={settings.accentColor} placeholder="#1d4ed8" maxLength={7} className={`${inputClass} w-40 font-mono`} aria-describedby="accent-hint" />
      </label>
      <p id="accent-hint" className={`-mt-2 text-sm ${mutedText}`}>
        The join button&apos;s background, behind white text: it needs a contrast of at least {MIN_CONTRAST}:1 (WCAG AA) against the text and the page, so a light colour is refused.
      </p>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="leaderboard" value="true" defaultChecked={settings.leaderboard} aria-describedby="leaderboard-hint" />
        Public leaderboard of the top referrers
      </label>
      <p id="leaderboard-hint" className={`-mt-2 text-sm ${mutedText}`}>
        A page linked from the join page, listing the {LEADERBOARD_SIZE} signups with the most counted referrals by a masked address (a***@g***.com) and their count; nothing else. Refreshed every minute.
      </p>
    </fieldset>
  );
}
