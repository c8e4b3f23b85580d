const { PLUGIN_HOST_SUITES } = require("./tests/setup/tiers");

/** @type {import('jest').Config} */
module.exports = {
  preset: "ts-jest",
  // Node's environment, closing the inspector sessions each test file opened (see the file).
  testEnvironment: "<rootDir>/tests/setup/inspectorSessions.js",
  roots: ["<rootDir>/tests"],
  testMatch: ["**/*.test.ts"],
  // The packaging test installs the packed package from the registry: `npm run test:packaging`;
  // the real-CLI tier runs on the Pulumi CLI built from its Go modules: `npm run test:cli`;
  // the native plugin's CLI runs (a language toolchain each): `npm run test:native`; the suites
  // that keep the real plugin process (tests/setup/tiers.js): `npm run test:plugin`.
  testPathIgnorePatterns: [
    "/node_modules/",
    "<rootDir>/tests/packaging/",
    "<rootDir>/tests/cli/",
    "<rootDir>/tests/native/cli/",
    ...PLUGIN_HOST_SUITES.map((p) => `<rootDir>/${p}`),
  ],
  // Fails the run at once when Pulumi's provider process could not load the built package;
  // gives the run its own temp directory and process marker, cleared by the teardown.
  globalSetup: "<rootDir>/tests/setup/globalSetup.js",
  globalTeardown: "<rootDir>/tests/setup/globalTeardown.js",
  setupFiles: ["<rootDir>/tests/setup/lateRejections.js"],
  // The default reporter, and one that names the files whose tests were all skipped, and why.
  reporters: ["default", "<rootDir>/tests/setup/skippedSuites.js"],
  testTimeout: 60000,
  // Three on two cores: these suites wait on the emulator's clocks more than they compute (at
  // two, the cores were busy about 55 % of an npm test); the plugin-host and real-CLI tiers,
  // whose processes compute, keep two (tests/setup/pluginHostTier.config.js, scripts/test-cli.js).
  maxWorkers: 3,
  // Type checking is `npm run typecheck`; tsconfig.json sets isolatedModules, so ts-jest transpiles each file alone.
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }] },
};
