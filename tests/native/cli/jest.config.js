/**
 * `npm run test:native`: the native plugin under the real Pulumi CLI (the one
 * `npm run pulumi:build` builds), one program per language (TypeScript, Python, Go, YAML, Java)
 * through its whole life against the emulator, and the migration of dynamic stacks; the
 * plugin installed from the tarball `npm run plugin:pack` makes, into an isolated
 * PULUMI_HOME. Slow (minutes: language toolchains), so outside `npm test`; CI runs it once.
 * @type {import('jest').Config}
 */
const base = require("../../../jest.config");

module.exports = {
  ...base,
  rootDir: "../../..",
  roots: ["<rootDir>/tests/native/cli"],
  testPathIgnorePatterns: ["/node_modules/"],
  testTimeout: 15 * 60_000,
  // One CLI at a time: each runs language hosts, plugins and an emulator on a 2-core machine.
  maxWorkers: 1,
};
