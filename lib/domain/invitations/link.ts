/** The query parameter of the product's sign-up URL that carries the invite token. */
export const INVITE_PARAMETER = "invite";

/** The product's sign-up URL with `?invite=<token>` (kept beside any query it has, the fragment last). */
export function inviteLink(inviteUrl: string, token: string): string {
  const url = new URL(inviteUrl);
  url.searchParams.set(INVITE_PARAMETER, token);
  return url.href;
}
