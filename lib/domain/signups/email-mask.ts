// An address as the public may see it (the leaderboard): the first character of the mailbox and of
// the domain, and the domain's last label: `alice@mail.gmail.com` → `a***@m***.com`. Always three
// stars, so the mask tells nothing of the lengths.

const STARS = "***";

const firstCharacter = (text: string) => Array.from(text)[0] ?? "";

/** The address masked; the mask of anything without an `@` hides all but its first character. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at === -1) return `${firstCharacter(email)}${STARS}`;
  const domain = email.slice(at + 1).toLowerCase();
  const dot = domain.lastIndexOf(".");
  const suffix = dot > 0 ? domain.slice(dot) : "";
  return `${firstCharacter(email.slice(0, at))}${STARS}@${firstCharacter(domain)}${STARS}${suffix}`;
}
