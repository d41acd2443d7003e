import { once } from "node:events";
import { createServer } from "node:net";

/** The one line that says why the server cannot listen on `port`. */
export function listenErrorMessage(error: NodeJS.ErrnoException, port: number, host: string | undefined): string {
  if (error.code === "EADDRINUSE") return `port ${port} is in use: stop the other server or set PORT`;
  return `cannot listen on port ${port}${host ? ` of ${host}` : ""}: ${error.message}`;
}

/** Listens on the port briefly and closes it; throws the listen error's one line when it cannot. */
export async function ensurePortFree(port: number, host: string | undefined): Promise<void> {
  const probe = createServer();
  try {
    probe.listen({ port, host });
    await once(probe, "listening");
  } catch (error) {
    throw new Error(listenErrorMessage(error as NodeJS.ErrnoException, port, host));
  }
  probe.close();
  await once(probe, "close");
}
