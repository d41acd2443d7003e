import { DEFAULT_ACCENT_COLOR } from "../branding/accent-color";
import { INVITE_PARAMETER } from "../invitations/link";

// The HTML of every email, made from its plain text and its waitlist's brand (./brand.ts) at one
// point (./compose.ts), so that each kind of email (invitation, reminder, confirmation, milestone,
// "already on the list", and kinds added later) gets the layout without code of its own. The text
// stays the source: it is escaped, its blank lines make paragraphs, its http(s) URLs links, and the
// email's main link (an invite link, a confirmation link) a button. Email clients take little CSS:
// tables, inline styles, nothing external but the logo's absolute https URL.

export interface EmailBrand {
  name: string;
  /** The waitlist's website, linked in the footer when it is http(s). */
  website: string;
  /** `#rrggbb`, readable behind white text (../branding/accent-color.ts). */
  accentColor: string;
  /** An absolute https URL of the logo; without one, the name is shown as text. */
  logoUrl?: string;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text as HTML text or as a double-quoted attribute's value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

/** http(s) URLs in text; a URL ends before white space, quotes and angle brackets, and trailing punctuation is the sentence's. */
const URL_PATTERN = /https?:\/\/[^\s<>"'`]+/g;
const TRAILING_PUNCTUATION = /[.,;:!?)\]}’”»]+$/;

/** The button a link earns by what it opens, or undefined for an ordinary link. */
function buttonLabelOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.searchParams.has(INVITE_PARAMETER)) return "Accept your invitation";
    if (/^\/join\/[^/]+\/confirm$/.test(parsed.pathname)) return "Confirm your address";
  } catch {
    return undefined;
  }
  return undefined;
}

/** Only an http(s) URL becomes a link. */
function isHttpUrl(url: string): boolean {
  return /^https?:\/\//i.test(url) && URL.canParse(url);
}

/** One line of text as HTML: escaped, its URLs links. */
function lineHtml(line: string, accent: string): string {
  let html = "";
  let last = 0;
  for (const match of line.matchAll(URL_PATTERN)) {
    const url = match[0].replace(TRAILING_PUNCTUATION, "");
    html += escapeHtml(line.slice(last, match.index));
    html += isHttpUrl(url) ? `<a href="${escapeHtml(url)}" style="color:${accent};word-break:break-all">${escapeHtml(url)}</a>` : escapeHtml(url);
    last = match.index + url.length;
  }
  return html + escapeHtml(line.slice(last));
}

function buttonHtml(url: string, label: string, accent: string): string {
  const href = escapeHtml(url);
  return (
    `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 16px"><tr>` +
    `<td style="border-radius:6px;background:${accent}"><a href="${href}" style="display:inline-block;padding:12px 22px;font-weight:600;font-size:16px;color:#ffffff;text-decoration:none;border-radius:6px">${escapeHtml(label)}</a></td>` +
    `</tr></table>` +
    `<p style="margin:0 0 16px;font-size:13px;color:#52525b">Or open this link: <a href="${href}" style="color:${accent};word-break:break-all">${href}</a></p>`
  );
}

/** The body's paragraphs (blank lines apart); the first paragraph that is nothing but an invite or confirmation link is a button. */
function bodyHtml(text: string, accent: string): string {
  let buttonShown = false;
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n+/)
    .map((paragraph) => paragraph.replace(/^\n+|\n+$/g, ""))
    .filter((paragraph) => paragraph.trim() !== "")
    .map((paragraph) => {
      const alone = paragraph.trim();
      const label = !buttonShown && isHttpUrl(alone) && !/\s/.test(alone) ? buttonLabelOf(alone) : undefined;
      if (label) {
        buttonShown = true;
        return buttonHtml(alone, label, accent);
      }
      return `<p style="margin:0 0 16px">${paragraph
        .split("\n")
        .map((line) => lineHtml(line, accent))
        .join("<br>")}</p>`;
    })
    .join("\n");
}

function headerHtml(brand: EmailBrand): string {
  const name = escapeHtml(brand.name);
  const inner = brand.logoUrl && /^https:\/\//i.test(brand.logoUrl) ? `<img src="${escapeHtml(brand.logoUrl)}" alt="${name}" height="40" style="display:block;height:40px;width:auto;border:0">` : `<span style="font-size:20px;font-weight:700;color:#18181b">${name}</span>`;
  return `<tr><td style="padding:20px 28px;border-top:4px solid ${brand.accentColor};border-bottom:1px solid #e4e4e7">${inner}</td></tr>`;
}

function footerHtml(brand: EmailBrand): string {
  const name = escapeHtml(brand.name);
  const site = isHttpUrl(brand.website) ? ` · <a href="${escapeHtml(brand.website)}" style="color:#52525b">${escapeHtml(brand.website)}</a>` : "";
  return `<tr><td style="padding:16px 28px;border-top:1px solid #e4e4e7;font-size:12px;color:#52525b">${name}${site}</td></tr>`;
}

/** The whole HTML document of an email: `subject` its title, `text` its body (as the plain-text part has it). */
export function emailHtml({ subject, text, brand }: { subject: string; text: string; brand: EmailBrand }): string {
  const accent = /^#[0-9a-f]{6}$/i.test(brand.accentColor) ? brand.accentColor : DEFAULT_ACCENT_COLOR;
  const safeBrand = { ...brand, accentColor: accent };
  return [
    "<!DOCTYPE html>",
    `<html lang="en" dir="ltr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light"><title>${escapeHtml(subject)}</title></head>`,
    // Screen readers in webmail announce the email as one article named by its subject.
    `<body style="margin:0;padding:0;background:#f4f4f5"><div role="article" aria-roledescription="email" aria-label="${escapeHtml(subject)}" lang="en" dir="ltr">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f4f4f5"><tr><td align="center" style="padding:24px 12px">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background:#ffffff;border:1px solid #e4e4e7;border-radius:8px;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.55;color:#18181b">`,
    headerHtml(safeBrand),
    `<tr><td style="padding:24px 28px 8px">`,
    bodyHtml(text, accent),
    `</td></tr>`,
    footerHtml(safeBrand),
    `</table></td></tr></table></div></body></html>`,
  ].join("\n");
}
