/**
 * The CPU/memory pairs the API allows (CONTRACT.md, "Identifiers and values"): a service
 * asks for one as two strings (`"1000"`/`"4"`, or `"shared"`/`"shared"`), a replica set as
 * two numbers, and never the shared plan. Each check of a pair, the API's and the
 * provider's, asks {@link serviceSizeProblem} or {@link replicaSetSizeProblem}.
 */

/**
 * A CPU/memory allocation. `shared` is the shared-CPU plan; it is stored as
 * `cpuMillis: 0, memoryGbs: 0` and shown that way in `resources[].spec`.
 */
export interface SizePair {
  /** Milli-cores; 0 for the shared plan. */
  readonly cpuMillis: number;
  /** Gigabytes; 0 for the shared plan. */
  readonly memoryGbs: number;
}

/** The dedicated CPU/memory pairs, as numbers (millicores / gigabytes): what a replica set may have. */
export const DEDICATED_SIZES: readonly SizePair[] = [
  { cpuMillis: 500, memoryGbs: 2 },
  { cpuMillis: 1000, memoryGbs: 4 },
  { cpuMillis: 2000, memoryGbs: 8 },
  { cpuMillis: 4000, memoryGbs: 16 },
  { cpuMillis: 8000, memoryGbs: 32 },
  { cpuMillis: 16000, memoryGbs: 64 },
  { cpuMillis: 32000, memoryGbs: 128 },
];

/** The shared plan, sent as `"shared"/"shared"` and shown as `0/0`. */
export const SHARED_SIZE: SizePair = { cpuMillis: 0, memoryGbs: 0 };

/** The pairs a service may have: the shared plan, then the dedicated ones. */
export const SERVICE_SIZES: readonly SizePair[] = [SHARED_SIZE, ...DEDICATED_SIZES];

/** One amount of a pair as a service request writes it: `"shared"` for the shared plan, else the number. */
export function sizeText(amount: number): string {
  return amount === 0 ? "shared" : String(amount);
}

/** The pairs as text, for messages: `shared/shared, 500/2, ...`. */
export function describeSizes(sizes: readonly SizePair[]): string {
  return sizes.map((p) => `${sizeText(p.cpuMillis)}/${sizeText(p.memoryGbs)}`).join(", ");
}

/** The service size a request's two strings ask for, or undefined when they are not an allowed pair. */
export function serviceSizeFromStrings(cpu: string, memory: string): SizePair | undefined {
  return SERVICE_SIZES.find((p) => sizeText(p.cpuMillis) === cpu && sizeText(p.memoryGbs) === memory);
}

/** The replica set size of two numbers, or undefined when they are not an allowed pair (the shared plan is not offered). */
export function replicaSetSize(cpu: number, memory: number): SizePair | undefined {
  return DEDICATED_SIZES.find((p) => p.cpuMillis === cpu && p.memoryGbs === memory);
}

/**
 * Where a size check found its problem (the CPU, or the memory), what it is (`message`), and
 * the same in words that quote neither amount (`unquoted`: a check failure whose amounts may
 * be secrets quotes them its own way).
 */
export type SizeProblem = { readonly on: "cpu" | "memory"; readonly message: string; readonly unquoted: string };

/**
 * Why a service's optional size (both amounts as a request writes them, or neither) is
 * refused, or undefined when it is allowed. Never throws.
 */
export function serviceSizeProblem(cpu: string | undefined, memory: string | undefined): SizeProblem | undefined {
  if (cpu === undefined && memory === undefined) return undefined;
  if (cpu === undefined || memory === undefined) {
    const message = "CPU and memory go together: expected both or neither";
    return { on: cpu === undefined ? "cpu" : "memory", message, unquoted: message };
  }
  if (serviceSizeFromStrings(cpu, memory) !== undefined) return undefined;
  return notAllowed(cpu, memory, SERVICE_SIZES);
}

/** The problem of a pair of amounts that is none of `sizes`. */
function notAllowed(cpu: string | number, memory: string | number, sizes: readonly SizePair[]): SizeProblem {
  const unquoted = `not an allowed pair; allowed (CPU millicores/memory GB): ${describeSizes(sizes)}`;
  return { on: "memory", message: `${cpu}/${memory} is ${unquoted}`, unquoted };
}

/** Why a replica set's size is refused, or undefined when it is an allowed pair. Never throws. */
export function replicaSetSizeProblem(cpu: number, memory: number): SizeProblem | undefined {
  if (replicaSetSize(cpu, memory) !== undefined) return undefined;
  return notAllowed(cpu, memory, DEDICATED_SIZES);
}
