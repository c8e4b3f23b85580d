/**
 * `npm run test:plugin`: the suites that keep the real plugin process (tests/setup/tiers.js),
 * with the setup of `npm test` (jest.config.js).
 * @type {import('jest').Config}
 */
"use strict";
const base = require("../../jest.config.js");
const { PLUGIN_HOST_SUITES } = require("./tiers");

module.exports = {
  ...base,
  rootDir: "../..",
  testMatch: PLUGIN_HOST_SUITES.map((p) => (p.endsWith("/") ? `<rootDir>/${p}**/*.test.ts` : `<rootDir>/${p}`)),
  testPathIgnorePatterns: ["/node_modules/"],
  maxWorkers: 2,
};
