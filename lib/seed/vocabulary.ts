export const FIRST_NAMES = [
  "Ada", "Alex", "Amara", "Andrea", "Ben", "Carlos", "Chen", "Chloe", "Daniel", "Diego", "Elena", "Emma", "Fatima", "Felix",
  "Grace", "Hana", "Hugo", "Ines", "Isaac", "Jack", "James", "Jonas", "Julia", "Kai", "Kenji", "Lara", "Leo", "Liam", "Lina",
  "Lucas", "Maya", "Mateo", "Mia", "Mohammed", "Nadia", "Noah", "Nora", "Olivia", "Omar", "Oscar", "Priya", "Rafael", "Rosa",
  "Sam", "Sara", "Sofia", "Tariq", "Theo", "Uma", "Victor", "Wei", "Yara", "Yusuf", "Zoe",
] as const;

export const LAST_NAMES = [
  "Abbott", "Adeyemi", "Alvarez", "Andersen", "Bauer", "Becker", "Brooks", "Campbell", "Chen", "Costa", "Dubois", "Evans",
  "Fischer", "Garcia", "Gupta", "Hansen", "Haddad", "Ito", "Jensen", "Kim", "Kowalski", "Larsen", "Lee", "Lopez", "Martin",
  "Meyer", "Moreau", "Murphy", "Nakamura", "Nguyen", "Novak", "Okafor", "Olsen", "Patel", "Petrov", "Rossi", "Santos",
  "Schmidt", "Silva", "Singh", "Smith", "Sato", "Tanaka", "Taylor", "Walsh", "Weber", "Williams", "Wong", "Yilmaz", "Zhang",
] as const;

export const MAIL_DOMAINS = [
  "gmail.com", "gmail.com", "gmail.com", "outlook.com", "outlook.com", "yahoo.com", "icloud.com", "proton.me", "hey.com",
  "fastmail.com", "gmx.de", "web.de", "orange.fr", "hotmail.co.uk",
] as const;

export const COMPANIES = [
  "Acme", "Globex", "Initech", "Umbrella Health", "Stark Industries", "Wayne Logistics", "Hooli", "Pied Piper", "Soylent",
  "Vandelay Imports", "Cyberdyne", "Tyrell", "Wonka", "Aperture Labs", "Massive Dynamic", "Oceanic", "Northwind", "Contoso",
  "Fabrikam", "Blue Yonder", "Bluth Company", "Dunder Mifflin", "Gringotts", "Monsters Inc", "Nakatomi Trading",
] as const;

/** Company staff often sign up with their work address. */
export const COMPANY_DOMAINS: Record<string, string> = Object.fromEntries(
  COMPANIES.map((company) => [company, `${company.toLowerCase().replace(/[^a-z]+/g, "")}.example`]),
);

export const JOB_ROLES = [
  "Engineer", "Engineer", "Engineer", "Designer", "Product Manager", "Founder", "CTO", "Data Scientist", "Marketing",
  "Student", "Researcher", "Sales", "Operations", "Consultant",
] as const;

export const REFERRAL_SOURCES = ["Twitter", "Hacker News", "A friend", "Newsletter", "Product Hunt", "Google", "LinkedIn", "Podcast"] as const;
