/**
 * Jest global setup: the package must be loadable by Pulumi's provider process
 * (packageLinked.js), and the run gets its own temp directory and process marker (runScope.js).
 */
"use strict";
const packageLinked = require("./packageLinked");
const runScope = require("./runScope");

module.exports = async function globalSetup() {
  await packageLinked();
  runScope.open();
};
