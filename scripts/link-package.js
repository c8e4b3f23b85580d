#!/usr/bin/env node
/**
 * Links this checkout into its own node_modules as `pulumi-clouddb`.
 *
 * Pulumi's dynamic-provider process loads our serialized providers with
 * require-from-string, whose `require` resolves from the program's directory. The
 * serialized trampolines call `require("pulumi-clouddb/provider/...")`, so inside this
 * repository (examples, tests, benchmarks) the package must be resolvable by its own
 * name. A user's project gets the same through `npm install pulumi-clouddb`.
 */
"use strict";
const fs = require("fs");
const path = require("path");

const root = path.resolve(__dirname, "..");
const link = path.join(root, "node_modules", "pulumi-clouddb");
let current;
try {
  current = fs.readlinkSync(link);
} catch {
  current = undefined;
}
if (current === undefined || path.resolve(path.dirname(link), current) !== root) {
  fs.rmSync(link, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.symlinkSync(path.relative(path.dirname(link), root), link, "dir");
}
