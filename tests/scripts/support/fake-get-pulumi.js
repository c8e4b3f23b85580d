/**
 * Preloaded (`node --require`) to stand in for get.pulumi.com: the install script it serves
 * "installs" the fake CLI named by FAKE_PULUMI_CLI into `--install-root`. Other hosts fail
 * as without internet; this machine is reached as usual.
 */
"use strict";
const original = globalThis.fetch;
const INSTALL_SH = [
  "#!/bin/sh",
  'while [ $# -gt 0 ]; do if [ "$1" = "--install-root" ]; then root="$2"; fi; shift; done',
  'mkdir -p "$root/bin" && ln -s "$FAKE_PULUMI_CLI" "$root/bin/pulumi"',
  "",
].join("\n");
globalThis.fetch = async (input, init) => {
  const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
  if (url.hostname === "127.0.0.1" || url.hostname === "localhost") return original(input, init);
  if (url.href === "https://get.pulumi.com/install.sh") return new Response(INSTALL_SH);
  throw new TypeError("fetch failed", { cause: new Error(`getaddrinfo ENOTFOUND ${url.hostname}`) });
};
