/**
 * Preloaded (`node --require`) to make a process behave as on a machine without internet:
 * `fetch` to anything but this machine fails the way Node's fetch does ("fetch failed").
 */
"use strict";
const original = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
  if (url.hostname === "127.0.0.1" || url.hostname === "localhost") return original(input, init);
  throw new TypeError("fetch failed", { cause: new Error(`getaddrinfo ENOTFOUND ${url.hostname}`) });
};
