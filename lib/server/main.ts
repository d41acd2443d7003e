// `npm start`: the production server (./server.ts). NODE_ENV is set before Next.js and React are
// loaded, since they pick their production builds when first imported.
Object.assign(process.env, { NODE_ENV: "production" });

import("./server")
  .then(({ startServer }) => startServer())
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
