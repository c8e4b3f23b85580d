// Lint: typescript-eslint with type information (the recommended type-checked rules) over
// every TypeScript file of the repository; `npm run lint` runs it with zero warnings allowed,
// and Prettier's check.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "docs/api/", "**/node_modules/", "bench/results/", ".clouddb/", "**/*.js", "**/*.cjs", "**/*.mjs"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
);
