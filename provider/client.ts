/**
 * Entry of `pulumi-clouddb/provider/client`: the package's exports map `./provider/*` to
 * `./dist/provider/*.js`, so this file (compiled to dist/provider/client.js) re-exports
 * the client from ./client/index.
 */
export * from "./client/index";
