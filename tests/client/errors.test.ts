import * as errors from "../../provider/client/errors";
import { apiErrorFromResponse } from "../../provider/client/apiErrors";
import { ApiError, ClouddbError, ConflictError, NotFoundError, ServerError, TimeoutError } from "../../provider/client";
import { randomBytes } from "crypto";
import { redact, registerSecret } from "../../provider/client/redact";
import { MAX_VIEWS, MIN_BASE64_LENGTH } from "../../provider/client/secretForms";

describe("error hierarchy", () => {
  it("recognises errors from a second copy of the package by brand, not instanceof", () => {
    let copy: typeof errors | undefined;
    jest.isolateModules(() => {
      copy = require("../../provider/client/errors") as typeof errors;
    });
    const foreign = new copy!.NotFoundError({ status: 404, code: "NOT_FOUND", apiMessage: "gone", operation: "getVpc" });
    expect(foreign instanceof NotFoundError).toBe(false);
    expect(NotFoundError.isInstance(foreign)).toBe(true);
    expect(ApiError.isInstance(foreign)).toBe(true);
    expect(ClouddbError.isInstance(foreign)).toBe(true);
    expect(ConflictError.isInstance(foreign)).toBe(false);
    expect(TimeoutError.isInstance(foreign)).toBe(false);
    expect(ClouddbError.isInstance(new Error("x"))).toBe(false);
    expect(ClouddbError.isInstance(undefined)).toBe(false);
  });

  it("maps statuses to classes with stable codes and actionable messages", () => {
    const e = apiErrorFromResponse(
      400,
      { code: "INVALID_REQUEST", message: "Invalid cidr", details: "cidr must be an IPv4 network" },
      { operation: "createVpc", projectId: "p" },
    );
    expect(e).toBeInstanceOf(errors.InvalidRequestError);
    expect(e.message).toBe(
      "Invalid cidr (operation createVpc, 400 INVALID_REQUEST): cidr must be an IPv4 network. Check the request fields named above.",
    );
    expect(apiErrorFromResponse(503, undefined, { operation: "x" })).toBeInstanceOf(ServerError);
    expect(apiErrorFromResponse(503, undefined, { operation: "x" }).code).toBe("UNAVAILABLE");
    expect(apiErrorFromResponse(418, "teapot", { operation: "x" }).constructor).toBe(ApiError);
  });
});

/** A random key of `n` characters: base64, with the characters of regular expressions in it. */
function randomKey(n: number): string {
  const chars = randomBytes(Math.ceil((n * 3) / 4) + 3)
    .toString("base64")
    .slice(0, n)
    .split("");
  for (let i = 3; i < chars.length; i += 61) chars[i] = ".*+?^${}()|[]\\"[i % 15];
  return chars.join("");
}

describe("redaction", () => {
  it("scrubs registered secrets and bearer tokens from text and error messages", () => {
    registerSecret("sk-live-9f8e7d6c");
    registerSecret("hunter2-password");
    expect(redact("key sk-live-9f8e7d6c and hunter2-password")).toBe("key [REDACTED] and [REDACTED]");
    expect(redact("Authorization: Bearer abc.def")).toBe("Authorization: Bearer [REDACTED]");
    const err = new ServerError({
      status: 500,
      code: "INTERNAL",
      apiMessage: "boom with sk-live-9f8e7d6c",
      details: "password hunter2-password rejected",
      operation: "updateServicePassword",
    });
    expect(err.message).not.toContain("sk-live-9f8e7d6c");
    expect(err.message).not.toContain("hunter2-password");
    expect(err.details).not.toContain("hunter2-password");
    expect(err.apiMessage).not.toContain("sk-live-9f8e7d6c");
  });

  it("scrubs every encoding a secret can come back in, and never leaves part of one when a page is cut", () => {
    const secret = 'p@ss w"o/rd\\é😀+&';
    registerSecret(secret);
    const b64 = (s: string, enc: BufferEncoding = "base64") => Buffer.from(s).toString(enc);
    const forms = [
      secret,
      encodeURIComponent(secret),
      encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
      new URLSearchParams({ s: secret }).toString().slice(2),
      encodeURIComponent(encodeURIComponent(secret)),
      JSON.stringify(secret).slice(1, -1),
      JSON.stringify(JSON.stringify(secret).slice(1, -1)).slice(1, -1),
      JSON.stringify(secret)
        .slice(1, -1)
        .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
      secret.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`),
      secret.replace(/&/g, "&amp;").replace(/"/g, "&quot;"),
    ];
    for (const form of forms) expect([form, redact(`<${form}>`)]).toEqual([form, "<[REDACTED]>"]);
    // base64, alone or inside a longer text at each alignment, in both alphabets.
    for (const prefix of ["", "u:", "us:", "use:"]) {
      for (const enc of ["base64", "base64url"] as const)
        expect(redact(b64(prefix + secret, enc))).not.toContain(b64(secret, enc).slice(2, -4));
    }
    expect(redact("READY 1000 shared us-east-1 an ordinary sentence")).toBe("READY 1000 shared us-east-1 an ordinary sentence");
    const page = `<html>${"x".repeat(180)}${JSON.stringify({ password: secret })}</html>`;
    const cut = apiErrorFromResponse(400, page, { operation: "updateServicePassword" });
    expect(cut.message).not.toContain(JSON.stringify(secret).slice(1, 8));
  });

  /**
   * Every form of `secret` the scrubber must find, as something that answered may write it
   * (of a secret of 100,000 characters or more, one of each encoding: the text stays a few MB).
   */
  function formsOf(secret: string): string[] {
    const encoded = encodeURIComponent(secret);
    const json = JSON.stringify(secret).slice(1, -1);
    const b64 = (prefix: string, enc: BufferEncoding) => Buffer.from(prefix + secret).toString(enc);
    const base64 = secret.length < MIN_BASE64_LENGTH ? [] : ["", "u:", "us:"].flatMap((p) => [b64(p, "base64"), b64(p, "base64url")]);
    if (secret.length >= 100_000) return [secret, encoded, JSON.stringify(json).slice(1, -1), base64[3]];
    return [
      secret,
      encoded,
      encoded.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
      new URLSearchParams({ s: secret }).toString().slice(2),
      encodeURIComponent(encoded),
      json,
      JSON.stringify(json).slice(1, -1),
      json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
      secret.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`),
      JSON.stringify(encoded).slice(1, -1).replace(/%/g, "\\u0025"), // a URL quoted in JSON, its % escaped too
      ...base64,
    ];
  }

  /** What must not be left of a form: all of it, but of a base64 form the characters that do not depend on what is around the secret. */
  const leftOf = (form: string, secret: string): string =>
    /^[A-Za-z0-9+/_-]+=*$/.test(form) && form.length > secret.length ? form.slice(4, -4) : form;

  it.each([
    ["of 4 characters", "k3y!"],
    ["of 6,400 characters (where a regular expression of it overflowed the stack)", randomKey(6_400)],
    ["of 64 KB", randomKey(65_536)],
    ["of 1 MB", randomKey(1_048_576)],
    ["made of regular expressions' characters", ".*+?^${}()|[]\\/-".repeat(400)],
    ["of characters beyond ASCII", "pässwörd-😀-密码-".repeat(500)],
  ])("scrubs a secret %s in every form, building no regular expression from it, in bounded passes", (_what, secret) => {
    registerSecret(secret);
    const built: string[] = [];
    const OriginalRegExp = RegExp;
    globalThis.RegExp = new Proxy(OriginalRegExp, {
      construct(target, args: [string | RegExp, string?]) {
        built.push(String(args[0]));
        return new target(...args);
      },
    });
    const indexOf = jest.spyOn(String.prototype, "indexOf");
    let out: string;
    try {
      out = redact(`start ${formsOf(secret).join(" | ")} end`);
    } finally {
      globalThis.RegExp = OriginalRegExp;
      indexOf.mockRestore();
    }
    for (const form of formsOf(secret)) expect(out.includes(leftOf(form, secret))).toBe(false);
    expect(out.startsWith("start [REDACTED]")).toBe(true);
    expect(built).toEqual([]); // no regular expression at all is made while scrubbing
    // One search per view, form and place found: bounded by the views and the forms, whatever the text's length.
    const forms = 1 + 6; // the secret, and its base64 at three alignments in two alphabets
    expect(indexOf.mock.calls.length).toBeLessThanOrEqual(MAX_VIEWS * forms * (formsOf(secret).length + 2) * 4);
  });

  it("a secret too short to scrub (under 4 characters) mangles nothing, and a bearer token is still scrubbed", () => {
    registerSecret("x");
    expect(redact("max 10 ms")).toBe("max 10 ms");
    expect(redact("Authorization: Bearer x")).toBe("Authorization: Bearer [REDACTED]");
  });
});
