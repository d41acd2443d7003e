import { focusRing } from "./styles";

/** Whether a stored website may become a link: only absolute http(s) URLs, never javascript: and friends. */
export function isHttpUrl(candidate: string): boolean {
  try {
    const url = new URL(candidate);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** A waitlist's website: a link opening in a new tab when it is http(s), plain text otherwise. */
export function WebsiteLink({ website, className = "" }: { website: string; className?: string }) {
  if (!isHttpUrl(website)) return <span className={`break-all ${className}`}>{website}</span>;
  return (
    <a
      href={website}
      target="_blank"
      rel="noopener noreferrer"
      className={`${focusRing} break-all rounded-sm text-blue-700 underline-offset-2 hover:underline dark:text-blue-400 ${className}`}
    >
      {website}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}
