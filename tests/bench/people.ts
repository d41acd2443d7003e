import type { SignupSource } from "@/lib/domain/funnel/source";
import { pick } from "./random";

// Realistic signups for the benchmark's dataset: emails over personal and company domains, and
// custom inputs `company` (2,000 values, a few big companies and a long tail), `role` (12) and
// `source` (6), skewed as real answers are. Deterministic for a given random source.

const FIRST_NAMES = [
  "maria", "james", "wei", "fatima", "olivia", "noah", "aisha", "lucas", "yuki", "sofia", "liam", "amara", "mateo", "chloe", "arjun", "elena",
  "omar", "hannah", "diego", "ingrid", "kofi", "mia", "ravi", "zoe", "tomasz", "leila", "jonas", "priya", "samuel", "ana", "emma", "oliver",
  "isabella", "ethan", "charlotte", "daniel", "amelia", "henry", "harper", "alexander", "nadia", "felix", "julia", "marco", "sara", "kenji",
];
const LAST_NAMES = [
  "garcia", "smith", "chen", "khan", "johnson", "muller", "silva", "nguyen", "kowalski", "rossi", "okafor", "tanaka", "martin", "patel",
  "dubois", "larsen", "haddad", "kim", "novak", "obrien", "santos", "fischer", "ivanova", "mensah", "lopez", "brown", "wilson", "taylor",
  "anderson", "thomas", "moore", "jackson", "white", "harris", "clark", "lewis", "walker", "young", "hernandez", "schmidt", "weber", "jensen",
];
/** Personal mailbox providers and their weights; the remaining share of emails uses the signup's company domain. */
const PERSONAL_DOMAINS: readonly [string, number][] = [
  ["gmail.com", 38],
  ["outlook.com", 9],
  ["yahoo.com", 6],
  ["hotmail.com", 5],
  ["icloud.com", 5],
  ["proton.me", 3],
  ["gmx.de", 2],
  ["fastmail.com", 1],
];
const COMPANY_EMAIL_SHARE = 0.4;

// The biggest companies first: the skew gives each rank a share proportional to 1 / rank.
const BIG_COMPANIES = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark Industries", "Wayne Enterprises", "Soylent", "Tyrell", "Cyberdyne", "Massive Dynamic", "Wonka", "Aperture", "Vandelay", "Pied Piper"];
const COMPANY_ROOTS = [
  "North", "Blue", "Bright", "Silver", "Red", "Green", "Iron", "Cloud", "Stone", "River", "Summit", "Pixel", "Quantum", "Cedar", "Harbor", "Atlas",
  "Nova", "Lumen", "Vertex", "Orbit", "Falcon", "Maple", "Coral", "Ember", "Polar", "Sun", "Tidal", "Granite", "Echo", "Prism", "Aspen", "Delta",
  "Zephyr", "Beacon", "Copper", "Meadow", "Onyx", "Sierra", "Willow", "Kite", "Fox", "Lark", "Bison", "Otter", "Raven", "Juniper", "Cobalt",
  "Indigo", "Saffron", "Hazel", "Crescent", "Ridge", "Canyon", "Mosaic", "Signal", "Anchor", "Compass", "Forge", "Lantern", "Harvest", "Ivory",
  "Jade", "Keystone", "Lotus", "Mercury", "Nimbus", "Oak", "Pioneer", "Quarry", "Rocket", "Sparrow", "Thistle", "Umber", "Vista", "Wren",
  "Yarrow", "Zenith", "Basalt", "Cirrus", "Dune",
];
const COMPANY_SUFFIXES = ["Labs", "Systems", "Works", "Analytics", "Health", "Bank", "Logistics", "Studio", "Robotics", "Energy", "Foods", "Media", "Software", "Capital", "Networks", "Bio", "Games", "Security", "Motors", "Learning", "Retail", "Travel", "Insurance", "Cloud", "AI"];
const COMPANY_COUNT = 2_000;

const ROLES: readonly [string, number][] = [
  ["Engineer", 24],
  ["Founder", 12],
  ["Product manager", 10],
  ["Designer", 9],
  ["Marketing", 8],
  ["Student", 8],
  ["Data scientist", 7],
  ["Sales", 6],
  ["CTO", 5],
  ["Operations", 4],
  ["Researcher", 4],
  ["Other", 3],
];
const SOURCES: readonly [string, number][] = [
  ["Google", 30],
  ["Twitter", 20],
  ["Friend", 18],
  ["Newsletter", 12],
  ["Hacker News", 12],
  ["LinkedIn", 8],
];

interface Company {
  name: string;
  domain: string;
}

function companies(): Company[] {
  const names = [...BIG_COMPANIES];
  for (const suffix of COMPANY_SUFFIXES) for (const root of COMPANY_ROOTS) if (names.length < COMPANY_COUNT) names.push(`${root} ${suffix}`);
  return names.map((name) => ({ name, domain: `${name.toLowerCase().replace(/[^a-z0-9]+/g, "")}.com` }));
}

/** Draws from weighted items by binary search over their cumulative weights. */
function weighted<T>(items: readonly T[], weights: readonly number[]): (random: () => number) => T {
  const cumulative: number[] = [];
  let sum = 0;
  for (const weight of weights) cumulative.push((sum += weight));
  return (random) => {
    const target = random() * sum;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! > target) high = middle;
      else low = middle + 1;
    }
    return items[low]!;
  };
}

const COMPANIES = companies();
const pickCompany = weighted(COMPANIES, COMPANIES.map((_, rank) => 1 / (rank + 1)));
const pickRole = weighted(ROLES.map(([role]) => role), ROLES.map(([, weight]) => weight));
const pickSource = weighted(SOURCES.map(([source]) => source), SOURCES.map(([, weight]) => weight));
const pickPersonalDomain = weighted(PERSONAL_DOMAINS.map(([domain]) => domain), PERSONAL_DOMAINS.map(([, weight]) => weight));

export interface FakeSignup {
  email: string;
  /** custom_inputs as stored: compact JSON text of an array. */
  customInputs: string;
}

const pair = (label: string, value: string) => `{"label":"${label}","value":"${value}"}`;

/**
 * One signup; `n` keeps the email unique within a waitlist. About 15 % answer no question; the
 * others mostly answer all three, as `{label, value}` pairs or (one in ten, as some form tools
 * export them) as one object with a property per question.
 */
export function fakeSignup(random: () => number, n: number): FakeSignup {
  const answered = random() >= 0.15;
  const company = answered && random() < 0.9 ? pickCompany(random) : undefined;
  const role = answered && random() < 0.95 ? pickRole(random) : undefined;
  const source = answered && random() < 0.8 ? pickSource(random) : undefined;
  const domain = company && random() < COMPANY_EMAIL_SHARE ? company.domain : pickPersonalDomain(random);
  const separator = random() < 0.6 ? "." : random() < 0.5 ? "_" : "";
  const email = `${pick(random, FIRST_NAMES)}${separator}${pick(random, LAST_NAMES)}${n}@${domain}`;
  const answers: [string, string][] = [];
  if (company) answers.push(["company", company.name]);
  if (role) answers.push(["role", role]);
  if (source) answers.push(["source", source]);
  if (answers.length === 0) return { email, customInputs: "[]" };
  if (random() < 0.1) return { email, customInputs: `[{${answers.map(([label, value]) => `"${label}":"${value}"`).join(",")}}]` };
  return { email, customInputs: `[${answers.map(([label, value]) => pair(label, value)).join(",")}]` };
}

/** The biggest company, about one signup in ten: its name (an input value) and its email domain. */
export const BIGGEST_COMPANY_NAME = COMPANIES[0]!.name;
export const BIGGEST_COMPANY_DOMAIN = COMPANIES[0]!.domain;

/** A realistic fragment someone would type into the search box: part of a name, a domain or a number. */
export function searchFragment(random: () => number): string {
  const kind = random();
  const source = kind < 0.4 ? pick(random, FIRST_NAMES) : kind < 0.8 ? pick(random, LAST_NAMES) : kind < 0.9 ? pickCompany(random).domain : String(Math.floor(random() * 100_000));
  const length = Math.min(source.length, 3 + Math.floor(random() * 3));
  const start = Math.floor(random() * (source.length - length + 1));
  return source.slice(start, start + length);
}

const UTM_SOURCES = ["newsletter", "twitter", "linkedin", "producthunt", "google", "reddit", "partner", "podcast"];
const REFERRERS = Array.from({ length: 25 }, (_, index) => `blog${index + 1}.example.net`);

/** Where a signup came from, as the funnel sees a launch: 45 % direct, 35 % tagged links (utm_*), 20 % referring sites. */
export function fakeSource(random: () => number): SignupSource {
  const draw = random();
  if (draw < 0.45) return {};
  if (draw < 0.8) {
    const source = UTM_SOURCES[Math.floor(random() * UTM_SOURCES.length)]!;
    return { utm_source: source, utm_medium: source === "newsletter" ? "email" : "social", utm_campaign: random() < 0.5 ? "launch" : "spring" };
  }
  return { referrer: REFERRERS[Math.floor(random() * REFERRERS.length)]! };
}
