import domains from "disposable-email-domains/index.json";
import wildcards from "disposable-email-domains/wildcard.json";

// Disposable-address domains, from the `disposable-email-domains` package (a maintained plain list,
// updated with the lockfile). Its `wildcard.json` names services that hand out any subdomain; since an
// address's parent domains are matched too, both lists are read as one set.

const DISPOSABLE = new Set<string>([...domains, ...wildcards].map((domain) => domain.toLowerCase()));

/** The domain of an address and each of its parents (`a.b.example.com`, `b.example.com`, `example.com`), lower case. */
export function domainAndParents(address: string): string[] {
  const domain = address.trim().toLowerCase().slice(address.trim().lastIndexOf("@") + 1).replace(/\.$/, "");
  const labels = domain.split(".");
  return labels.slice(0, -1).map((_, index) => labels.slice(index).join("."));
}

/** Whether an address's domain, or one of its parent domains, is a disposable-address service. */
export function isDisposableAddress(address: string): boolean {
  return domainAndParents(address).some((domain) => DISPOSABLE.has(domain));
}
