/**
 * No secret (the API key, a service's initial or given password) in any error message,
 * in what the plugin writes (stderr, stdout), or in the state the harness stores
 * unencrypted, after a run that includes failures; nor in any encoding an answer echoes it
 * in (a redirect's `Location` carrying the key percent-encoded, an error page quoting the
 * request with the password JSON-escaped and form-encoded).
 */
import { randomBytes } from "crypto";
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors, printed, TestStack } from "../../harness";
import { defaultConfig, startEmulatorProcess, type EmulatorProcess } from "../../harness/emulatorProcess";
import { addFault } from "./support/log";

/** The forms a secret takes where it was sent: raw, percent-encoded (as a URL and as a form writes it, either case of hex), JSON-escaped. */
function formsOf(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  return [
    secret,
    encoded,
    encoded.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    new URLSearchParams({ s: secret }).toString().slice(2),
    JSON.stringify(secret).slice(1, -1),
  ];
}

/** Throws naming the place and the form when `text` holds any form of any of `secrets`. */
function expectNoForm(where: string, text: string, secrets: readonly string[]): void {
  for (const s of secrets) {
    for (const form of formsOf(s))
      if (text.includes(form)) throw new Error(`${where} contains a form of the secret ${s.slice(0, 4)}…: ${form}`);
  }
}

describe("secrets stay secret through failures", () => {
  let emu: EmulatorProcess;
  let stack: TestStack;
  const pat = `pat-${randomBytes(12).toString("hex")}`;
  const wrongKey = `wrong-${randomBytes(12).toString("hex")}`;
  const given = `given-${randomBytes(12).toString("hex")}`;
  const rotated = `rotated-${randomBytes(12).toString("hex")}`;
  const messages: string[] = [];
  const secrets: string[] = [pat, wrongKey, given, rotated];

  beforeAll(async () => {
    emu = await startEmulatorProcess({ pat, clockScale: 0.02 });
    stack = await TestStack.create({
      config: { ...defaultConfig(emu), "clouddb:pollInterval": "20ms", "clouddb:pollMaxInterval": "200ms" },
      secretKeys: ["clouddb:apiKey"],
    });
  });
  afterAll(async () => {
    await stack.close();
    await emu.close();
  });

  const program = (password?: string) => () => {
    const keep = new clouddb.Service("keep", { name: "keeps-initial" });
    const given = new clouddb.Service("given", { name: "has-given", ...(password ? { password } : {}) });
    new clouddb.ReadReplicaSet("rs", { serviceId: keep.serviceId, name: "rs", nodes: 1, cpuMillis: 500, memoryGbs: 2 });
    return { keepPassword: keep.password, givenPassword: given.password };
  };

  it("runs creates, failed creates, failed updates, bad credentials and bad inputs", async () => {
    // A create whose password update fails after the service was made (init failure).
    await addFault(emu.control, { method: "POST", path: "/updatePassword$", status: 400, count: 1 });
    const failed = await stack.up(program(given));
    expect(failed.errors.length).toBeGreaterThan(0);
    messages.push(...failed.errors.map((e) => e.message));

    const ok = expectNoErrors(await stack.up(program(given)));
    const initial = String(stack.resource("keep").outputs.password);
    expect(initial.length).toBeGreaterThanOrEqual(8);
    secrets.push(initial);
    expect(ok.outputs.givenPassword).toBe(given);

    // A failed rotation (the API refuses it; a 5xx burst is retried and a 409 waited out, and would succeed).
    await addFault(emu.control, { method: "POST", path: "/updatePassword$", status: 503, count: 2 });
    await addFault(emu.control, { method: "POST", path: "/updatePassword$", status: 400, count: 1 });
    const rotation = await stack.up(program(rotated));
    expect(rotation.errors.length).toBeGreaterThan(0);
    messages.push(...rotation.errors.map((e) => e.message));
    await emu.control("DELETE", "/faults");
    expectNoErrors(await stack.up(program(rotated)));

    // A bad password (check failure) and a wrong API key (401 on up, then on refresh, which is
    // configured as that up left the provider).
    const bad = await stack.up(program("short"));
    messages.push(...bad.errors.map((e) => e.message), ...bad.checkFailures.map((f) => f.reason), printed(bad));
    stack.setConfig("clouddb:apiKey", wrongKey, { secret: true });
    const denied = await stack.up(program(`${rotated}-next`));
    expect(denied.errors.length).toBeGreaterThan(0);
    messages.push(...denied.errors.map((e) => e.message));
    const refreshed = await stack.refresh();
    expect(refreshed.errors.length).toBeGreaterThan(0);
    messages.push(...refreshed.errors.map((e) => e.message));
    stack.setConfig("clouddb:apiKey", pat, { secret: true });
    expectNoErrors(await stack.up(program(rotated)));
    expectNoErrors(await stack.destroy());
  });

  it("finds no secret in error messages, plugin output or the plaintext state", () => {
    expect(messages.length).toBeGreaterThanOrEqual(4);
    const places: Record<string, string> = {
      "error messages": messages.join("\n"),
      "plugin stderr": stack.pluginStderr(),
      "plugin stdout": stack.pluginStdout(),
      "plaintext state": stack.plaintextState(),
    };
    for (const [where, text] of Object.entries(places)) expectNoForm(where, text, secrets);
  });

  it("keeps the secret outputs in the state, marked secret", async () => {
    expectNoErrors(await stack.up(program(given)));
    expect(stack.resource("given").secretOutputs).toContain("password");
    expect(stack.resource("keep").secretOutputs).toContain("password");
    const initial = String(stack.resource("keep").outputs.password);
    expect(stack.plaintextState()).not.toContain(initial);
    expect(stack.plaintextState()).not.toContain(given);
    expectNoErrors(await stack.destroy());
  });
});

describe("secrets stay secret in the forms an answer echoes them", () => {
  let emu: EmulatorProcess;
  let stack: TestStack;
  // A key like many real ones (base64: `+`, `/`, `=`), and a password with what each encoding changes.
  const pat = `k+${randomBytes(12).toString("base64")}/=`;
  const password = `echo "me\\ w/é+&=${randomBytes(4).toString("hex")}`;

  beforeAll(async () => {
    emu = await startEmulatorProcess({ pat, clockScale: 0.02 });
    stack = await TestStack.create({
      config: { ...defaultConfig(emu), "clouddb:pollInterval": "20ms", "clouddb:pollMaxInterval": "200ms" },
      secretKeys: ["clouddb:apiKey"],
    });
  });
  afterAll(async () => {
    await stack.close();
    await emu.close();
  });

  it("leaves no form of the key (a redirect's Location) or the password (an error page quoting the request) in messages or plugin output", async () => {
    const program = () => void new clouddb.Service("db", { name: "echoed", password });
    await addFault(emu.control, { method: "POST", path: "/updatePassword$", status: 400, echo: true });
    const failed = await stack.up(program);
    expect(failed.errors).toHaveLength(1);
    expect(failed.errors[0].message).toContain("Bad Request"); // the page reached the message
    expectNoErrors(await stack.up(program));
    const location = `https://sso.example/login?next=${encodeURIComponent(`${emu.baseUrl}/?api_key=${pat}`)}&key=${encodeURIComponent(pat)}`;
    await addFault(emu.control, { method: "GET", path: "/services", redirect: 302, location, count: 5 });
    const refreshed = await stack.refresh();
    await emu.control("DELETE", "/faults");
    expect(refreshed.errors).toHaveLength(1);
    expect(refreshed.errors[0].message).toContain("https://sso.example/login?next="); // the redirect is named
    const messages = [...failed.errors, ...refreshed.errors].map((e) => e.message).join("\n");
    for (const [where, text] of Object.entries({
      "error messages": messages,
      "plugin stderr": stack.pluginStderr(),
      "plugin stdout": stack.pluginStdout(),
    })) {
      expectNoForm(where, text, [pat, password]);
    }
    expectNoErrors(await stack.destroy());
  });
});
