// When two addresses reach one inbox: the mailbox an address delivers to, as far as the address
// itself says. Plus tags (`ada+anything@`) are dropped for every provider, since most deliver them
// to the untagged mailbox; dots in the local part only for Gmail (gmail.com and googlemail.com, one
// service), which ignores them. Lower case throughout.

const DOTS_IGNORED = new Set(["gmail.com", "googlemail.com"]);

/** The mailbox of an address: lower case, no plus tag, and for Gmail no dots and one domain. */
export function mailboxOf(address: string): string {
  const email = address.trim().toLowerCase();
  const at = email.lastIndexOf("@");
  if (at < 0) return email;
  let local = email.slice(0, at);
  let domain = email.slice(at + 1);
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  if (DOTS_IGNORED.has(domain)) {
    local = local.replaceAll(".", "");
    domain = "gmail.com";
  }
  return `${local}@${domain}`;
}

/** Whether two addresses reach the same mailbox (see mailboxOf). */
export function isLookalike(one: string, other: string): boolean {
  return mailboxOf(one) === mailboxOf(other);
}
