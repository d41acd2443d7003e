import { readFileSync } from "node:fs";
import { AppError } from "@/lib/core/errors";
import { logoTypeOf } from "@/lib/domain/branding/logo";

// `waitlists update --logo <file> | --clear-logo`: the join page's logo, read and checked before any
// setting is written, so a bad file changes nothing.

export interface LogoOptions {
  logo?: string;
  clearLogo?: boolean;
}

/** The logo's bytes to set, null to remove it, undefined when neither option was given. */
export function logoChangeOf(options: LogoOptions): Uint8Array | null | undefined {
  if (options.logo !== undefined && options.clearLogo) throw new AppError("invalid_parameter", "give --logo or --clear-logo, not both", "--logo");
  if (options.clearLogo) return null;
  if (options.logo === undefined) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(options.logo);
  } catch (error) {
    throw new AppError("invalid_parameter", `cannot read --logo ${options.logo}: ${(error as Error).message}`, "--logo");
  }
  logoTypeOf(bytes);
  return bytes;
}
