// Lint: typescript-eslint with type information (its recommended type-checked rules) over
// every TypeScript file of the repository, zero warnings allowed (`npm run lint`, which also
// runs Prettier's check). Tests read untyped JSON answers and gRPC messages on purpose: the
// rules about `any` values are off there, and only there.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist/",
      "docs/api/",
      "sdk-native/",
      // Copied into sdk-native/nodejs and compiled there, by the SDK's own tsc (its imports are the generated files').
      "tools/sdk-overlays/",
      ".tools/",
      "dist-plugin/",
      "examples/native-*/",
      "tests/native/cli/fixtures/",
      "**/node_modules/",
      "bench/results/",
      ".clouddb/",
      "**/*.js",
      "**/*.cjs",
      "**/*.mjs",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // Providers, programs and fakes implement async interfaces whose every method need not await.
      "@typescript-eslint/require-await": "off",
      // A closure may read a variable assigned just after it is made.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      // p-retry 4 is CommonJS: `import pRetry = require("p-retry")`.
      "@typescript-eslint/no-require-imports": ["error", { allowAsImport: true }],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
    },
  },
  {
    files: ["tests/**/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/unbound-method": "off",
      // Tests load built files and fresh module copies on purpose.
      "@typescript-eslint/no-require-imports": "off",
    },
  },
);
