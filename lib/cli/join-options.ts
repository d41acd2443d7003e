import { DISPOSABLE_POLICIES } from "@/db/schema";
import { AppError } from "@/lib/core/errors";
import type { DisposablePolicy, JoinField, JoinSettings, JoinSettingsChange } from "@/lib/domain/joining/settings";

// The join settings' options of `waitlists update` (lib/cli/commands/waitlists.ts): each given option
// changes its setting, the others stay. `--join-field` is repeatable and its list replaces the form's fields.

export interface JoinOptions {
  joining?: string;
  verification?: string;
  joinField?: string[];
  clearJoinFields?: boolean;
  successMessage?: string;
  embedOrigin?: string[];
  clearEmbedOrigins?: boolean;
  challenge?: string;
  headline?: string;
  description?: string;
  accentColor?: string;
  leaderboard?: string;
  disposable?: string;
}

export const JOIN_FIELD_FORMAT = "<label>[*][=option|option…]: * marks it required, =… makes it a choice";

export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function onOff(option: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value !== "on" && value !== "off") throw new AppError("invalid_parameter", `invalid ${option}: must be on or off (got ${JSON.stringify(value)})`, option);
  return value === "on";
}

/** `Company*` → a required text field; `Plan=Free|Pro` → an optional choice. */
export function parseJoinField(text: string): JoinField {
  const equals = text.indexOf("=");
  const head = (equals === -1 ? text : text.slice(0, equals)).trim();
  const required = head.endsWith("*");
  const label = required ? head.slice(0, -1).trim() : head;
  if (equals === -1) return { label, type: "text", required };
  return { label, type: "choice", options: text.slice(equals + 1).split("|").map((option) => option.trim()), required };
}

/** A field as --join-field writes it (the inverse of parseJoinField). */
export function formatJoinField(field: JoinField): string {
  return `${field.label}${field.required ? "*" : ""}${field.type === "choice" ? `=${field.options!.join("|")}` : ""}`;
}

/** The change the options ask for; {} when no join option was given. */
export function joinChangeOf(options: JoinOptions): JoinSettingsChange {
  if (options.joinField && options.clearJoinFields) throw new AppError("invalid_parameter", "give --join-field or --clear-join-fields, not both", "--join-field");
  if (options.embedOrigin && options.clearEmbedOrigins) throw new AppError("invalid_parameter", "give --embed-origin or --clear-embed-origins, not both", "--embed-origin");
  if (options.joining !== undefined && options.joining !== "open" && options.joining !== "closed") {
    throw new AppError("invalid_parameter", `invalid --joining: must be open or closed (got ${JSON.stringify(options.joining)})`, "--joining");
  }
  if (options.disposable !== undefined && !(DISPOSABLE_POLICIES as readonly string[]).includes(options.disposable)) {
    throw new AppError("invalid_parameter", `invalid --disposable: must be ${DISPOSABLE_POLICIES.join(", ")} (got ${JSON.stringify(options.disposable)})`, "--disposable");
  }
  const change: JoinSettingsChange = {
    joining: options.joining as JoinSettings["joining"] | undefined,
    verification: onOff("--verification", options.verification),
    fields: options.clearJoinFields ? [] : options.joinField?.map(parseJoinField),
    successMessage: options.successMessage,
    embedOrigins: options.clearEmbedOrigins ? [] : options.embedOrigin,
    challenge: onOff("--challenge", options.challenge),
    headline: options.headline,
    description: options.description?.replace(/\\n/g, "\n"),
    accentColor: options.accentColor,
    leaderboard: onOff("--leaderboard", options.leaderboard),
    disposable: options.disposable as DisposablePolicy | undefined,
  };
  return Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
}

/** The settings in a few lines for people. */
export function describeJoinSettings(settings: JoinSettings): string {
  return [
    `Joining: ${settings.joining}; verification ${settings.verification ? "on" : "off"}; challenge ${settings.challenge ? "on" : "off"}; disposable addresses: ${settings.disposable}.`,
    `Form fields: ${settings.fields.map(formatJoinField).join(", ") || "none"}.`,
    `Embed origins: ${settings.embedOrigins.join(", ") || "none (this site only)"}.`,
    `Success message: ${settings.successMessage || "(default)"}`,
    `Brand: headline ${settings.headline ? JSON.stringify(settings.headline) : "(default)"}; accent colour ${settings.accentColor || "(default)"}; description ${settings.description ? `${settings.description.length} characters` : "none"}.`,
    `Leaderboard: ${settings.leaderboard ? "on" : "off"}.`,
  ].join("\n");
}
