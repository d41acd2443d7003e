import type { SignupStatus } from "./status";

/** A signup as the query layer reads it (queries.ts) and the API, the CSV and the dashboard show it. */
export interface SignupRow {
  id: number;
  email: string;
  verified: boolean;
  referral: boolean;
  customInputs: Record<string, unknown>[];
  createdAt: Date;
  status: SignupStatus;
  statusChangedAt: Date | null;
}
