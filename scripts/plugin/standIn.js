// @ts-check
/**
 * The text of a module that stands in for another one in the plugin's bundle: an object whose
 * properties are those of the real module's exports, which it reaches only at their first use
 * (a part of the bundle, run by the loader then: pack.js's parts, grpc-server-only.js's gRPC
 * client modules).
 */
"use strict";

/**
 * `module.exports`, as a stand-in whose every property use reads it from `real()`.
 * @param {string} real a JavaScript expression for the real module's exports, evaluated at each use
 * @returns {string}
 */
function proxyStandIn(real) {
  return `module.exports = new Proxy({}, {
  get: (_, key) => ${real}[key],
  has: (_, key) => key in ${real},
  ownKeys: () => Reflect.ownKeys(${real}),
  getOwnPropertyDescriptor: (_, key) => {
    const d = Reflect.getOwnPropertyDescriptor(${real}, key);
    return d && { ...d, configurable: true };
  },
});`;
}

module.exports = { proxyStandIn };
