/**
 * Loads zod's 64 error-message locales only when one is used. zod's entry point
 * (`zod/v4/classic/external.cjs`) exposes every locale as `z.locales` by requiring
 * `v4/locales/index.cjs`, which requires all 64 files at once: more than half of the
 * modules, and about a fifth of the time, that `check` and `diff` need in a fresh plugin
 * process. The provider never uses another locale (zod's schemas load English themselves).
 *
 * Before zod loads, this module puts a stand-in for that index into Node's module cache:
 * the same names (read from the index's own text), each a getter that requires its locale
 * file on first use, so `z.locales.fr()` still works. Where the index is not where or what
 * this expects (another zod layout), nothing is done and zod loads as it would.
 *
 * Imported for its effect by resourceProvider.ts, before any module that imports zod.
 */
import * as fs from "fs";
import * as nodeModule from "module";
import * as path from "path";

/** One `Object.defineProperty(exports, "<name>", ... <variable>)` line of the index, and its `var <variable> = require("<file>")`. */
const EXPORTED = /Object\.defineProperty\(exports, "(\w+)", \{ enumerable: true, get: function \(\) \{ return __importDefault\((\w+)\)/g;
const REQUIRED = /var (\w+) = require\("(\.\/[\w-]+\.cjs)"\);/g;

/** The locale's function, from a file that sets `module.exports` or `exports.default`. */
function localeOf(file: string): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded = require(file) as { __esModule?: boolean; default?: unknown };
  return loaded.__esModule === true ? loaded.default : loaded;
}

/** Caches the lazy stand-in of zod's locale index, when zod is laid out as expected. */
function installLazyLocales(): void {
  const index = require.resolve("zod/v4/locales/index.cjs");
  if (require.cache[index] !== undefined) return;
  const text = fs.readFileSync(index, "utf8");
  const files = new Map([...text.matchAll(REQUIRED)].map(([, variable, file]) => [variable, file]));
  const names = [...text.matchAll(EXPORTED)].map(([, name, variable]) => ({ name, file: files.get(variable) }));
  if (names.length === 0 || names.some(({ file }) => file === undefined)) return;
  const stand = new nodeModule.Module(index, module);
  stand.filename = index;
  stand.loaded = true;
  const exported = stand.exports as Record<string, unknown>;
  Object.defineProperty(exported, "__esModule", { value: true });
  for (const { name, file } of names) {
    const full = path.join(path.dirname(index), file ?? "");
    Object.defineProperty(exported, name, { enumerable: true, get: () => localeOf(full) });
  }
  require.cache[index] = stand;
}

try {
  installLazyLocales();
} catch {
  // zod loads its locales as usual: only time is lost.
}
