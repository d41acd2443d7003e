// A signup's public id is its row id written in decimal: stable for the life of the signup (row ids
// are never reused while the row exists) and opaque to clients, which only pass it back.

export function signupPublicId(id: number): string {
  return String(id);
}

/** The row id a public id names, or undefined when the text is not one (no signs, no leading zeros). */
export function parseSignupPublicId(text: string): number | undefined {
  if (!/^[1-9][0-9]{0,15}$/.test(text)) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : undefined;
}
