// `import "server-only"` marks a module the browser must never load: the database client, and every
// module that imports zod (its schemas compile with `new Function`, which the dashboard's CSP refuses).
// Next.js resolves that name itself: to an error in a client bundle (the build fails, naming the
// import chain) and to nothing on the server. tsconfig.json maps it to this empty module for the
// other runtimes (the production server, the CLI, the tests); vitest.config.mts does the same.
export {};
