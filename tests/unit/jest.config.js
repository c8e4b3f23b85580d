/**
 * `npm run test:unit`: the in-process tests of the framework and the definitions, run on the
 * TypeScript sources (no build, no plugin process; the contract parity test starts the
 * emulator in this process, from its sources). `npm test` runs them too.
 * @type {import('jest').Config}
 */
module.exports = {
  preset: "ts-jest",
  rootDir: "../..",
  roots: ["<rootDir>/tests/unit"],
  testMatch: ["**/*.test.ts"],
  testEnvironment: "node",
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }] },
};
