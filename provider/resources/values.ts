/**
 * The zod schemas of the inputs that are the provider's own: timeouts, flags, the ids a
 * resource names (`projectId`, `serviceId`), and CPU and memory as a program writes them
 * (a number, or `"shared"`). The values the API rules on (names, regions, CIDRs, sizes,
 * passwords, ...) are checked by the contract's rules (contract/rules.ts, contract/sizes.ts),
 * so `check` accepts exactly what the API accepts.
 */
import { z } from "zod";
import { expecting, shortId, typeOf } from "../../contract/rules";
import { DEDICATED_SIZES, SERVICE_SIZES, type SizePair } from "../../contract/sizes";
import { apiKeyProblem, apiUrlProblem } from "../client/config";
import { isTimeout, TIMEOUT_RANGE_TEXT } from "../framework/durations";
import type { NativeForm } from "../framework/schema";

/** A project id: 10 characters of `[a-z0-9]`. */
export const projectId = shortId("a project id");

/** A service id: 10 characters of `[a-z0-9]`. */
export const serviceId = shortId("a service id");

/** A timeout: seconds as a number, or a string such as `"30m"`, within {@link TIMEOUT_RANGE_TEXT}. */
export const duration = z
  .custom<number | string>(isTimeout, {
    error: (issue) =>
      typeof issue.input === "number" || typeof issue.input === "string"
        ? `expected a duration ${TIMEOUT_RANGE_TEXT}: a number of seconds or a string such as "90s", "30m", "1h30m"`
        : `expected a number of seconds or a string such as "30m", not ${typeOf(issue.input)}`,
  })
  .meta({ tsType: "number | string" });

/** The `timeouts` input every resource takes. */
export const timeouts = z.strictObject(
  {
    create: duration.optional().describe("How long `create` waits for the resource to be ready."),
    update: duration.optional().describe("How long `update` waits after each change."),
    delete: duration.optional().describe("How long `delete` waits for the resource to be gone."),
  },
  { error: expecting("an object", "expected an object with optional create, update and delete durations") },
);

/** A text a problem function (`undefined`: none) rules on, with `required` and the wrong type told as the contract's rules tell them. */
function ruledText(message: string, problem: (text: string) => string | undefined): z.ZodType<string, string> {
  return z.string({ error: expecting("a string", message) }).superRefine((text, ctx) => {
    const found = problem(text);
    if (found !== undefined) ctx.addIssue({ code: "custom", message: found });
  });
}

/**
 * The `settings` input every resource takes: the API it is in, in place of the stack's
 * configuration (`clouddb:apiUrl`, `clouddb:apiKey`, `clouddb:projectId`), each checked as
 * the configuration is.
 */
export const providerSettings = z.strictObject(
  {
    apiUrl: ruledText("expected the API's base URL, ending in /public/api/v1", apiUrlProblem)
      .optional()
      .describe("The API's base URL, ending in `/public/api/v1`; default `clouddb:apiUrl`."),
    apiKey: ruledText("expected an API key", (key) => {
      const problem = apiKeyProblem(key);
      return problem === undefined ? undefined : `the key ${problem}`;
    })
      .optional()
      .describe("An API key (a personal access token or OAuth token); default `clouddb:apiKey`. Kept secret."),
    projectId: projectId.optional().describe("The project of the resources that set no `projectId`; default `clouddb:projectId`."),
  },
  { error: expecting("an object", "expected an object with optional apiUrl, apiKey and projectId") },
);

/** A boolean flag. */
export const flag = z.boolean({ error: expecting("a boolean", "expected true or false") });

/** An amount of a size pair as a program writes it: the number, or `"shared"` for the shared plan (0). */
export function sizeAmount(amount: number): number | "shared" {
  return amount === 0 ? "shared" : amount;
}

/**
 * One amount of the allowed pairs (`pick`), as a program writes it; `"shared"` only where
 * `allowShared`. A size no plan has (a number, or `"shared"` where there is no shared plan) is
 * told the sizes; any other value (`"1000"`) is told to be a number.
 */
function amountOf(allowShared: boolean, pick: (p: SizePair) => number): z.ZodType<number | "shared", number | "shared"> {
  const allowed = (allowShared ? SERVICE_SIZES : DEDICATED_SIZES).map((p) => sizeAmount(pick(p)));
  const type = allowShared ? 'a number (or "shared")' : "a number";
  const amount = z.custom<number | "shared">((v) => allowed.includes(v as number | "shared"), {
    error: (issue) =>
      typeof issue.input === "number" || issue.input === "shared"
        ? `expected one of ${allowed.join(", ")}`
        : `expected ${type}, not ${typeOf(issue.input)}`,
  });
  // Every allowed amount is a whole number: the package schema says so (an integer in each SDK); with "shared", the `Size` named type does.
  return allowShared ? amount : amount.meta({ type: "integer" });
}

/** What a CPU or memory allocation may be in a service's outputs: a whole number, or `"shared"`. */
export const size = z.union([z.number().int(), z.literal("shared")]);

/**
 * A CPU or memory allocation in the native plugin's SDKs: an integer, 0 for the shared plan
 * (as the API itself shows it), so Go, Java and Python type it exactly. A `"shared"` that
 * still arrives (state of plugin 0.2.0, a Python program written for it) is taken as it is.
 */
export const sizeNatively: NativeForm = {
  type: "integer",
  toNative: (value) => (value === "shared" ? 0 : value),
  fromNative: (value) => (value === 0 ? "shared" : value),
};

/** A CPU allocation in millicores: a number, or `"shared"` where `allowShared` (typed so: a set's is a number). */
export function cpuMillis(allowShared: true): z.ZodType<number | "shared", number | "shared">;
/** A CPU allocation in millicores of a plan with no shared size: a number. */
export function cpuMillis(allowShared: false): z.ZodType<number, number>;
export function cpuMillis(allowShared: boolean): z.ZodType<number | "shared", number | "shared"> {
  return amountOf(allowShared, (p) => p.cpuMillis);
}

/** A memory allocation in GB: a number, or `"shared"` where `allowShared` (typed so: a set's is a number). */
export function memoryGbs(allowShared: true): z.ZodType<number | "shared", number | "shared">;
/** A memory allocation in GB of a plan with no shared size: a number. */
export function memoryGbs(allowShared: false): z.ZodType<number, number>;
export function memoryGbs(allowShared: boolean): z.ZodType<number | "shared", number | "shared"> {
  return amountOf(allowShared, (p) => p.memoryGbs);
}
