/** Jest global teardown: nothing the run started is left running or on disk (runScope.js). */
"use strict";
const runScope = require("./runScope");

module.exports = async function globalTeardown() {
  runScope.close();
};
