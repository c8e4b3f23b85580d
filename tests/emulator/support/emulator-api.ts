/** A small HTTP client for driving the emulator in tests, over real HTTP (fetch). */
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../emulator";

/** A response as the tests look at it. */
export interface TestResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined when the body is empty. */
  body: any;
  text: string;
}

/** Options of one request. */
export interface CallOptions {
  /** JSON body (serialised). */
  body?: unknown;
  /** Raw body, sent as is. */
  raw?: string | Uint8Array;
  /** Token to send; `null` sends no Authorization header. Default: the emulator's PAT. */
  token?: string | null;
  /** Extra or overriding headers. */
  headers?: Record<string, string>;
}

/** Calls the API and control path of one emulator. */
export class EmulatorApi {
  /** @param emulator the emulator, or a function giving it (for one started later, in a hook) */
  constructor(private readonly emulator: RunningEmulator | (() => RunningEmulator)) {}

  /** The emulator this client drives. */
  get emu(): RunningEmulator {
    return typeof this.emulator === "function" ? this.emulator() : this.emulator;
  }

  /** `/projects/<default project><rest>`. */
  p(rest = "", projectId = this.emu.projectId): string {
    return `/projects/${projectId}${rest}`;
  }

  /** Calls `baseUrl + path`. */
  call(method: string, path: string, options: CallOptions = {}): Promise<TestResponse> {
    return this.send(method, `${this.emu.baseUrl}${path}`, options);
  }

  /** Calls `url + /_emulator + path` with the PAT. */
  control(method: string, path: string, body?: unknown): Promise<TestResponse> {
    return this.send(method, `${this.emu.url}/_emulator${path}`, body === undefined ? {} : { body });
  }

  /** Moves the emulator clock forward. */
  async advance(ms: number): Promise<void> {
    const res = await this.control("POST", "/clock", { advanceMs: ms });
    if (res.status !== 204) throw new Error(`clock advance answered ${res.status}`);
  }

  /** Creates a service and returns its body (expects 202). */
  async createService(body: Record<string, unknown> = {}, projectId?: string): Promise<any> {
    const res = await this.call("POST", this.p("/services", projectId), {
      body: { name: "svc", ...body },
      ...(projectId ? { token: this.emu.oauthToken } : {}),
    });
    if (res.status !== 202) throw new Error(`create service answered ${res.status} ${res.text}`);
    return res.body;
  }

  /** Creates a service and moves the clock until it is READY (clock scale 1). */
  async readyService(body: Record<string, unknown> = {}): Promise<any> {
    const created = await this.createService(body);
    await this.advance(7_000);
    const res = await this.call("GET", this.p(`/services/${created.service_id}`));
    if (res.body.status !== "READY") throw new Error(`service is ${res.body.status}`);
    return { ...res.body, initial_password: created.initial_password };
  }

  /** Creates a VPC (expects 201). */
  async createVpc(body: Record<string, unknown> = {}): Promise<any> {
    const res = await this.call("POST", this.p("/vpcs"), {
      body: { name: "net", cidr: "10.0.0.0/16", region_code: "us-east-1", ...body },
    });
    if (res.status !== 201) throw new Error(`create VPC answered ${res.status} ${res.text}`);
    return res.body;
  }

  /** Polls `GET path` until `predicate` holds on the body. */
  async waitFor(path: string, predicate: (res: TestResponse) => boolean, timeoutMs = 10_000): Promise<TestResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await this.call("GET", path);
      if (predicate(res)) return res;
      if (Date.now() > deadline) throw new Error(`timed out waiting on ${path}; last: ${res.status} ${res.text}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  private async send(method: string, url: string, options: CallOptions): Promise<TestResponse> {
    const headers: Record<string, string> = {};
    const token = options.token === undefined ? this.emu.pat : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body: string | Uint8Array | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] = "application/json";
    }
    Object.assign(headers, options.headers);
    const res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await res.text();
    let parsed: unknown;
    if (text.length > 0) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }
}

/**
 * One emulator for the test file (started before all tests, closed after), reset before
 * each test: returns the client that drives it.
 */
export function useEmulator(options: EmulatorOptions = { clockScale: 1 }): EmulatorApi {
  let emu: RunningEmulator | undefined;
  const api = new EmulatorApi(() => {
    if (!emu) throw new Error("the emulator is started in beforeAll: use it inside a test or hook");
    return emu;
  });
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, ...options });
  });
  afterAll(() => emu?.close());
  beforeEach(async () => {
    expect((await api.control("POST", "/reset")).status).toBe(204);
  });
  return api;
}
