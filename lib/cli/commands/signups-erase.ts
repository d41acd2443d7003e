import type { Command } from "commander";
import { erasedDataStillOnDisk, eraseAddress, eraseAddressSchema, erasedFromDisk, ERASURE_DISK_WAIT_MS } from "@/lib/domain/signups/erase";
import { emit, parseOptions, type JsonOption } from "../output";

export function registerSignupErase(signups: Command): void {
  signups
    .command("erase")
    .description(
      "Erase an address (compared in any case) from every waitlist, or from one: its signups and everything derived from them " +
        "(counts, facets, the search index) are deleted and overwritten. The audit log records a keyed hash of the address, never the address.",
    )
    .requiredOption("--email <address>", "the whole email address")
    .option("--waitlist <id>", "erase it from this waitlist only")
    .option("--json", "print one JSON object to stdout")
    .action(async (options: { email: string; waitlist?: string } & JsonOption) => {
      const input = parseOptions(eraseAddressSchema, { email: options.email, waitlist: options.waitlist });
      const { erased, waitlists } = await eraseAddress("cli", input);
      const offDisk = await erasedFromDisk(ERASURE_DISK_WAIT_MS.cli);
      emit(options, { erased, off_disk: offDisk }, () => {
        const done = erased === 0 ? "No signup has this address: nothing erased." : `Erased ${erased} signup${erased === 1 ? "" : "s"} from ${waitlists} waitlist${waitlists === 1 ? "" : "s"}.`;
        return offDisk || erased === 0 ? done : `${done} ${erasedDataStillOnDisk()}`;
      });
    });
}
