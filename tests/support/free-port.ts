import { createServer } from "node:net";

/** A TCP port on 127.0.0.1 free at the moment of asking (the OS picks it; it is released before this resolves). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
