/**
 * API keys of every size, over real HTTP, through both hosts (the dynamic-provider plugin
 * process, the native plugin): 1 character, 6,400 (where a scrubber that built a regular
 * expression from the key overflowed the stack, so that no error could be made at all), 64 KB
 * and 1 MB (large OAuth/JWT tokens), each random, with the characters of base64 and of
 * regular expressions. Errors still arrive (a lookup of a missing id fails naming it; a key
 * too large for the API's headers is refused with 431), and nothing the host answers or
 * prints quotes the key, or any part of it, in any form it may take (raw, percent-encoded,
 * form-encoded, JSON-escaped, base64): not even a redirect whose `Location` carries it.
 */
import { randomBytes } from "crypto";
import * as clouddb from "pulumi-clouddb";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { EmulatorControl } from "../../emulator/control-client";
import { TestStack } from "../../harness";
import { NativePlugin, RpcError, secret, urnOf } from "../native/support";

/** The sizes tried: one character, the size that broke the old scrubber, 64 KB, 1 MB. */
const SIZES = [1, 6_400, 65_536, 1_048_576];

/** A random key of `n` characters: base64 (`+`, `/`), with the characters of regular expressions sprinkled in. */
function keyOf(n: number): string {
  const meta = ".*+?^${}()|[]\\-";
  const chars = randomBytes(Math.ceil((n * 3) / 4) + 3)
    .toString("base64")
    .replace(/=/g, "")
    .slice(0, n)
    .split("");
  for (let i = 5; i < chars.length; i += 97) chars[i] = meta[i % meta.length];
  return chars.join("");
}

/** The forms of `text` a message may carry: raw, percent- and form-encoded (either case of hex), JSON-escaped, base64 of either alphabet at each alignment. */
function formsOf(text: string): string[] {
  const encoded = encodeURIComponent(text);
  const base64 = [0, 1, 2].flatMap((lead) => {
    const b = Buffer.concat([Buffer.alloc(lead), Buffer.from(text)]);
    const core = (enc: BufferEncoding) => b.toString(enc).slice(Math.ceil((8 * lead) / 6), Math.floor((8 * b.length) / 6));
    return [core("base64"), core("base64url")];
  });
  return [
    text,
    encoded,
    encoded.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    new URLSearchParams({ k: text }).toString().slice(2),
    JSON.stringify(text).slice(1, -1),
    ...base64,
  ];
}

/**
 * Throws, naming the place, when `text` holds a form of `key` or of any 24 characters of it
 * (the start, the middle, the end: a message cut after quoting part of it); for a key too
 * short to scrub (under 4 characters), when it quotes it as the bearer token.
 */
function expectNoForm(where: string, text: string, key: string): void {
  if (key.length < 4) {
    expect([where, text.includes(`Bearer ${key}`)]).toEqual([where, false]);
    return;
  }
  const parts = key.length <= 24 ? [key] : [key, key.slice(0, 24), key.slice(key.length >> 1, (key.length >> 1) + 24), key.slice(-24)];
  for (const part of parts) {
    for (const form of formsOf(part))
      if (form.length >= 8 && text.includes(form)) throw new Error(`${where} holds a form of the key: ${form.slice(0, 40)}`);
  }
}

/** A redirect whose `Location` carries the key, percent-encoded and in base64, as a login page's `next` does. */
function redirectLocation(emu: RunningEmulator, key: string): string {
  return `https://sso.example/login?next=${encodeURIComponent(`${emu.baseUrl}/?api_key=${key}`)}&b=${Buffer.from(key).toString("base64url")}`;
}

/** Whether a key of `n` characters fits the API's headers (Node's 16 KB, as the emulator serves them): larger ones are refused with 431. */
const fitsHeaders = (n: number): boolean => n < 16_000;

describe.each(SIZES)("an API key of %i characters", (size) => {
  const key = keyOf(size);
  let emu: RunningEmulator;
  let control: EmulatorControl;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, pat: key });
    control = new EmulatorControl(emu.url, emu.oauthToken); // the key itself may not fit the headers
  });
  afterAll(async () => {
    await emu.close();
  });
  afterEach(async () => {
    await control.send("DELETE", "/faults");
  });

  it("through the dynamic-provider plugin: a lookup's error arrives, and no message or output quotes the key", async () => {
    const stack = await TestStack.create({
      host: "plugin",
      config: { "clouddb:apiUrl": emu.baseUrl, "clouddb:apiKey": key, "clouddb:projectId": emu.projectId },
      secretKeys: ["clouddb:apiKey"],
    });
    try {
      const missing = await stack.up(() => ({ id: clouddb.Service.get("gone", "missing01x").id }));
      expect(missing.errors).toHaveLength(1);
      expect(missing.errors[0].message).toMatch(fitsHeaders(size) ? /No Service with id "missing01x"/ : /431/);
      const messages = [missing.errors[0].message];
      if (fitsHeaders(size)) {
        await control.fault({ method: "GET", path: "/services/", redirect: 302, location: redirectLocation(emu, key) });
        const redirected = await stack.up(() => ({ id: clouddb.Service.get("moved", "missing02x").id }));
        expect(redirected.errors).toHaveLength(1);
        expect(redirected.errors[0].message).toContain("https://sso.example/login?next="); // the redirect is named
        messages.push(redirected.errors[0].message);
      }
      for (const [where, text] of Object.entries({
        "error messages": messages.join("\n"),
        "plugin stderr": stack.pluginStderr(),
        "plugin stdout": stack.pluginStdout(),
      }))
        expectNoForm(where, text, key);
    } finally {
      await stack.close();
    }
  });

  it("through the native plugin: a lookup's error arrives, and no message, log line or output quotes the key", async () => {
    const plugin = await NativePlugin.start();
    try {
      await plugin.configure({ apiUrl: emu.baseUrl, apiKey: secret(key), projectId: emu.projectId });
      const failed = (id: string) =>
        plugin.read(urnOf("Service", "gone"), id).then(
          () => new Error("the lookup succeeded"),
          (e: unknown) => e as Error,
        );
      const missing = await failed("missing01x");
      expect(missing).toBeInstanceOf(RpcError);
      expect(missing.message).toMatch(fitsHeaders(size) ? /No Service with id "missing01x"/ : /431/);
      const messages = [missing.message];
      if (fitsHeaders(size)) {
        await control.fault({ method: "GET", path: "/services/", redirect: 302, location: redirectLocation(emu, key) });
        const redirected = await failed("missing02x");
        expect(redirected.message).toContain("https://sso.example/login?next=");
        messages.push(redirected.message);
      }
      for (const [where, text] of Object.entries({
        "error messages": messages.join("\n"),
        "plugin stderr": plugin.stderr,
        "engine log": plugin.logged.map((l) => l.message).join("\n"),
      }))
        expectNoForm(where, text, key);
    } finally {
      await plugin.close();
    }
  });
});
