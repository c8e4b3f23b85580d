import * as errors from "../../provider/client/errors";
import { apiErrorFromResponse } from "../../provider/client/apiErrors";
import { ApiError, ClouddbError, ConflictError, NotFoundError, ServerError, TimeoutError } from "../../provider/client";
import { redact, registerSecret } from "../../provider/client/redact";

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
});
