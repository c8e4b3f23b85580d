/**
 * `npm run test:packaging`: the packed package installed into a fresh project (see
 * packaging.test.ts). The harness drives programs through this repository's
 * `@pulumi/pulumi` runtime, so `@pulumi/pulumi` is mapped to that copy for every module
 * this jest process loads, the fresh project's program and its installed pulumi-clouddb
 * included; the test checks that the fresh project's own copy is the same version.
 */
const path = require("path");

const root = path.resolve(__dirname, "..", "..");
const sdk = path.join(root, "node_modules", "@pulumi", "pulumi");

/** @type {import('jest').Config} */
module.exports = {
  rootDir: root,
  testEnvironment: "node",
  roots: ["<rootDir>/tests/packaging"],
  testMatch: ["**/*.test.ts"],
  globalSetup: "<rootDir>/tests/setup/globalSetup.js",
  globalTeardown: "<rootDir>/tests/setup/globalTeardown.js",
  testTimeout: 600000,
  maxWorkers: 1,
  moduleNameMapper: { "^@pulumi/pulumi$": sdk, "^@pulumi/pulumi/(.*)$": `${sdk}/$1` },
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }] },
};
