/** mulberry32: a small seeded PRNG, so the dataset is the same on every run. Returns [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** A version-4-shaped UUID drawn from the seeded generator. */
export function seededUuid(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = "4";
  hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const text = hex.join("");
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
}

const FIRST_NAMES = ["maria", "james", "wei", "fatima", "olivia", "noah", "aisha", "lucas", "yuki", "sofia", "liam", "amara", "mateo", "chloe", "arjun", "elena", "omar", "hannah", "diego", "ingrid", "kofi", "mia", "ravi", "zoe", "tomasz", "leila", "jonas", "priya", "samuel", "ana"];
const LAST_NAMES = ["garcia", "smith", "chen", "khan", "johnson", "muller", "silva", "nguyen", "kowalski", "rossi", "okafor", "tanaka", "martin", "patel", "dubois", "larsen", "haddad", "kim", "novak", "obrien", "santos", "fischer", "ivanova", "mensah", "lopez"];
const DOMAINS = ["gmail.com", "outlook.com", "yahoo.com", "proton.me", "icloud.com", "fastmail.com", "acme.io", "example.org", "startup.dev", "bigcorp.com"];
const COMPANIES = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark Industries", "Wayne Enterprises", "Soylent", "Tyrell", "Cyberdyne", "Massive Dynamic", "Wonka", "Aperture", "Vandelay", "Pied Piper"];
const ROLES = ["Engineer", "Designer", "Founder", "Product manager", "Student", "Marketing", "Data scientist", "CTO", "Sales"];

/** A unique, realistic-looking email: `n` keeps it unique within a waitlist. */
export function fakeEmail(random: () => number, n: number): string {
  const separator = random() < 0.5 ? "." : "_";
  return `${pick(random, FIRST_NAMES)}${separator}${pick(random, LAST_NAMES)}${n}@${pick(random, DOMAINS)}`;
}

/** custom_inputs as stored (compact JSON text): usually company and role, sometimes nothing. */
export function fakeCustomInputs(random: () => number): string {
  if (random() < 0.1) return "[]";
  return JSON.stringify([
    { label: "company", value: pick(random, COMPANIES) },
    { label: "role", value: pick(random, ROLES) },
  ]);
}
