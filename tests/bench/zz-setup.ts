import { openDatabase } from "@/db/client";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { createApiKey, JOIN_ROLE } from "@/lib/domain/keys/queries";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
const db = openDatabase(process.argv[2]!);
const w = createWaitlist({ name: "prof", website: "https://x.example" }, db).id;
updateJoinSettings(w, { joining: "open" }, "cli", db);
console.log(JSON.stringify({ w, key: createApiKey({ name: "p", roles: [JOIN_ROLE] }, db).key }));
