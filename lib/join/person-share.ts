// The share links of a person's referral link: plain links to each service's own share page (its
// "intent" URL), opened only when clicked. No script of theirs is loaded and nothing is asked of
// them when the page loads.

export interface ShareLink {
  label: string;
  href: string;
}

export function shareLinks(referralLink: string, waitlistName: string): ShareLink[] {
  const text = `I joined the ${waitlistName} waitlist: join me!`;
  const q = encodeURIComponent;
  return [
    { label: "Email", href: `mailto:?subject=${q(`Join the ${waitlistName} waitlist`)}&body=${q(`${text}\n\n${referralLink}`)}` },
    { label: "X", href: `https://x.com/intent/post?text=${q(text)}&url=${q(referralLink)}` },
    { label: "LinkedIn", href: `https://www.linkedin.com/sharing/share-offsite/?url=${q(referralLink)}` },
    { label: "WhatsApp", href: `https://wa.me/?text=${q(`${text} ${referralLink}`)}` },
  ];
}
