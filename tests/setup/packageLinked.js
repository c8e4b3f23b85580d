/**
 * Jest global setup: the run stops at once, saying what to do, when Pulumi's provider
 * process could not load this package. The serialized providers `require`
 * `pulumi-clouddb/provider/<kind>` from the program's directory (here the repository),
 * found through node_modules/pulumi-clouddb; `npm run build` compiles to dist/ and links
 * the checkout there. Without this check every provider test would wait for its timeout
 * instead of failing.
 */
"use strict";
const fs = require("fs");
const path = require("path");

const ROOT = path.resolve(__dirname, "..", "..");

/** Why the provider process could not load the package from ROOT, or undefined. */
function problem() {
  const link = path.join(ROOT, "node_modules", "pulumi-clouddb");
  let target;
  try {
    target = fs.realpathSync(link);
  } catch {
    return `${path.relative(ROOT, link)} is missing`;
  }
  if (target !== fs.realpathSync(ROOT)) return `${path.relative(ROOT, link)} is ${target}, not this checkout`;
  if (!fs.existsSync(path.join(ROOT, "dist", "provider", "vpc.js"))) return "dist/provider/vpc.js is missing";
  return undefined;
}

module.exports = async function packageLinked() {
  const why = problem();
  if (why === undefined) return;
  throw new Error(
    `Pulumi's provider process cannot load pulumi-clouddb/provider/* from ${ROOT}: ${why}. ` +
      "Run `npm run build` (it compiles the package and links this checkout into node_modules), or `npm test`, which builds first.",
  );
};
