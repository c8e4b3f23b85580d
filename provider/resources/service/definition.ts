/**
 * The Service resource: a managed database, defined once. `name`, `serviceType`,
 * `regionCode`, `projectId` and `forkFrom` replace it (the API cannot rename a service);
 * everything else changes in place through the API's actions, in the table
 * {@link SERVICE_ACTIONS} (run by `convergence.ts`). Each output says how it reads from the
 * live service (./outputs.ts); the desired state is the inputs with their defaults (framework/schema.ts).
 */
import { SERVICE_DEFAULTS } from "../../../contract/defaults";
import * as rules from "../../../contract/rules";
import { describeSizes, SERVICE_SIZES } from "../../../contract/sizes";
import { hasStatusClass, SERVICE_STATUS } from "../../../contract/statuses";
import type { Service } from "../../client";
import { sameValue } from "../../framework/diff";
import type { ResourceDefinition } from "../../framework/resourceProvider";
import { optionalInput, outputsFrom, type DesiredOf, type InputsOf, type OutputsOf, type Props } from "../../framework/schema";
import { resourceSchema } from "../common";
import { AUTONAME_DOC } from "../../framework/autonaming";
import {
  ENVIRONMENTS_TEXT,
  FORK_STRATEGIES_TEXT,
  HA_REPLICA_COUNT_TEXT,
  NAME_LENGTH_TEXT,
  PASSWORD_LENGTH_TEXT,
  SERVICE_TYPES_TEXT,
} from "../../../contract/describe";
import { LIMITS } from "../../../contract/values";
import * as v from "../values";
import { AT_ONCE } from "../../framework/convergence";
import { bodyOf } from "../../framework/requestBodies";
import { kindLookups } from "../../framework/kindLookups";
import type { ServiceAction } from "./convergence";
import { serviceCrossRules } from "./crossRules";
import { showsReadably } from "../../framework/outputs";
import { attachedVpc, isPaused } from "./live";
import { forkFrom, haReplicas, serviceNamedTypes, type ForkFrom } from "./namedTypes";
import { serviceOutputSpecs } from "./outputs";

/** A fork keeps its source's type, region and size unless the inputs set them. */
const forked = (news: Props): boolean => news.forkFrom !== undefined;

/** A size as the API's service requests write it: text (`"1000"`, `"shared"`). */
const cpuText = (cpu: number | "shared") => ({ cpu_millis: String(cpu) });
const memoryText = (memory: number | "shared") => ({ memory_gbs: String(memory) });

/** Inputs and outputs of a Service. */
export const serviceSchema = resourceSchema({
  kind: "Service",
  doc: "A managed database service. The API cannot rename a service, so a new `name` replaces it (a new, empty database): protect production services with `protect: true`.",
  example:
    'const db = new clouddb.Service("db", { name: "orders", cpuMillis: 1000, memoryGbs: 4 }, { protect: true });\nexport const password = db.password; // secret',
  inputs: {
    name: optionalInput(rules.name, {
      change: "replace",
      unsetKeeps: () => true,
      doc: `Name, ${NAME_LENGTH_TEXT}. ${AUTONAME_DOC}`,
      wire: { createService: "name", forkService: "name" },
    }),
    serviceType: optionalInput(rules.serviceType, {
      change: "replace",
      doc: `${SERVICE_TYPES_TEXT}. A fork has its source's.`,
      default: SERVICE_DEFAULTS.serviceType,
      unsetKeeps: forked,
      wire: { createService: "service_type" },
    }),
    regionCode: optionalInput(rules.region, {
      change: "replace",
      doc: "Region. A fork has its source's.",
      default: SERVICE_DEFAULTS.regionCode,
      unsetKeeps: forked,
      sdkType: "string",
      wire: { createService: "region_code" },
    }),
    forkFrom: optionalInput(forkFrom, {
      change: "replace",
      doc: `Make the service by forking another: \`strategy\` is ${FORK_STRATEGIES_TEXT} (needs \`targetTime\`, RFC 3339).`,
      sdkType: "ForkFromArgs",
      // The source is the fork's path (operations.ts); its strategy and time are the body's.
      wire: { forkService: (f) => ({ fork_strategy: f.strategy, target_time: f.targetTime }) },
    }),
    cpuMillis: optionalInput(v.cpuMillis(true), {
      change: "in-place",
      doc: `CPU in millicores, paired with \`memoryGbs\`: ${describeSizes(SERVICE_SIZES)} (shared is 0 in the native plugin's SDKs). A change resizes the service.`,
      default: SERVICE_DEFAULTS.cpuMillis,
      unsetKeeps: forked,
      sdkType: "Size",
      wire: { createService: cpuText, forkService: cpuText, resizeService: cpuText },
    }),
    memoryGbs: optionalInput(v.memoryGbs(true), {
      change: "in-place",
      doc: "Memory in GB, paired with `cpuMillis`.",
      default: SERVICE_DEFAULTS.memoryGbs,
      unsetKeeps: forked,
      sdkType: "Size",
      wire: { createService: memoryText, forkService: memoryText, resizeService: memoryText },
    }),
    haReplicas: optionalInput(haReplicas, {
      change: "in-place",
      doc: `High-availability replicas: \`replicaCount\` ${HA_REPLICA_COUNT_TEXT}, \`syncReplicaCount\` ${LIMITS.haReplicaCountMin} to \`replicaCount\`.`,
      default: { replicaCount: SERVICE_DEFAULTS.replicaCount, syncReplicaCount: SERVICE_DEFAULTS.syncReplicaCount },
      sdkType: "HaReplicasArgs",
      // A create cannot ask for synchronous replicas (contract/defaults.ts).
      wire: {
        createService: (ha) => ({ replica_count: ha.replicaCount }),
        setServiceHA: (ha) => ({ replica_count: ha.replicaCount, sync_replica_count: ha.syncReplicaCount }),
      },
    }),
    environment: optionalInput(rules.environment, {
      change: "in-place",
      doc: `${ENVIRONMENTS_TEXT}.`,
      default: SERVICE_DEFAULTS.environment,
      wire: { createService: "environment_tag", forkService: "environment_tag", setServiceEnvironment: "environment" },
    }),
    connectionPooler: optionalInput(v.flag, { change: "in-place", doc: "Connection pooler on or off.", default: false }),
    vpcId: optionalInput(rules.numericId, {
      change: "in-place",
      doc: "VPC to attach the service to (same project and region); a change detaches it from the old one first.",
      // A detach names the VPC the service is attached to, read from the live service (SERVICE_ACTIONS).
      wire: { attachServiceToVpc: "vpc_id" },
    }),
    password: optionalInput(rules.password, {
      change: "in-place",
      secret: true,
      unsetKeeps: () => true,
      doc: `Password, ${PASSWORD_LENGTH_TEXT} (secret). Unset: the service keeps the initial password the API generated, exposed as the \`password\` output.`,
      wire: { updateServicePassword: "password" },
    }),
    paused: optionalInput(v.flag, { change: "in-place", doc: "Paused (stopped) or running.", default: false }),
  },
  adopt: { id: v.serviceId, what: "service (its name, type and region)" },
  outputs: serviceOutputSpecs,
  idOutput: "serviceId",
  lookup: ["projectId"],
  cross: serviceCrossRules,
  namedTypes: serviceNamedTypes,
});

/** Inputs of a Service, parsed. */
export type ServiceInputs = InputsOf<typeof serviceSchema.inputs>;
/** Outputs of a Service. */
export type ServiceOutputs = OutputsOf<typeof serviceSchema.outputs>;
/** What the inputs ask for, defaults filled in (a fork keeps its source's type, region and size unless set). */
export type DesiredService = DesiredOf<typeof serviceSchema.inputs>;

/** The outputs of a live service; `kept` carries what the API cannot return again. */
export function serviceOutputs(live: Service, kept: { password?: string; forkFrom?: ForkFrom } = {}): ServiceOutputs {
  return outputsFrom(serviceSchema, { live, projectId: live.project_id, ...kept });
}

/**
 * An action's `needed`: the live service's outputs differ from what is wanted in one of
 * `properties`; one the answer does not show readably never differs (tolerant reading never
 * invents a value, so it never triggers a write).
 */
function differs(...properties: ReadonlyArray<keyof DesiredService & keyof ServiceOutputs>) {
  return (live: Service, want: DesiredService): boolean => {
    const outs = serviceOutputs(live);
    return properties.some((p) => showsReadably(serviceSchema, live, p) && !sameValue(outs[p], want[p]));
  };
}

/**
 * The API's actions on a service, in the order they run, which is one the API accepts:
 * resume first and pause last (a paused service refuses the others), and a VPC's detach
 * before the new one's attach. Adding an update action is adding an entry.
 */
export const SERVICE_ACTIONS: readonly ServiceAction[] = [
  {
    name: "start",
    needed: (live, want, ctx) =>
      isPaused(live) && (!want.paused || SERVICE_ACTIONS.some((a) => a.needsRunning && a.needed(live, want, ctx))),
    send: (ctx, id) => ctx.api.perform("startService", { service: id, projectId: ctx.projectId }),
    then: SERVICE_STATUS.READY,
    needsRunning: false,
  },
  {
    name: "resize",
    needed: differs("cpuMillis", "memoryGbs"),
    send: (ctx, id, want) =>
      ctx.api.perform("resizeService", { service: id, body: bodyOf(serviceSchema, "resizeService", want), projectId: ctx.projectId }),
    then: SERVICE_STATUS.READY,
    needsRunning: true,
  },
  {
    name: "setHA",
    needed: differs("haReplicas"),
    send: (ctx, id, want) =>
      ctx.api.perform("setServiceHA", { service: id, body: bodyOf(serviceSchema, "setServiceHA", want), projectId: ctx.projectId }),
    then: SERVICE_STATUS.READY,
    needsRunning: true,
  },
  {
    name: "setEnvironment",
    needed: differs("environment"),
    send: (ctx, id, want) =>
      ctx.api.perform("setServiceEnvironment", {
        service: id,
        body: bodyOf(serviceSchema, "setServiceEnvironment", want),
        projectId: ctx.projectId,
      }),
    then: AT_ONCE,
    needsRunning: true,
  },
  {
    name: "pooler",
    needed: differs("connectionPooler"),
    send: (ctx, id, want) =>
      ctx.api.perform(want.connectionPooler ? "enableServicePooler" : "disableServicePooler", { service: id, projectId: ctx.projectId }),
    then: AT_ONCE,
    needsRunning: true,
  },
  {
    name: "detachFromVpc",
    // A VPC endpoint the answer does not show readably says nothing of the VPC: no attach or detach because of it.
    needed: (live, want) =>
      showsReadably(serviceSchema, live, "vpcId") && attachedVpc(live) !== undefined && attachedVpc(live) !== (want.vpcId ?? undefined),
    send: (ctx, id, _want, live) =>
      ctx.api.perform("detachServiceFromVpc", { service: id, body: { vpc_id: attachedVpc(live)! }, projectId: ctx.projectId }),
    then: SERVICE_STATUS.READY,
    needsRunning: true,
  },
  {
    name: "attachToVpc",
    needed: (live, want) => showsReadably(serviceSchema, live, "vpcId") && want.vpcId !== null && attachedVpc(live) !== want.vpcId,
    send: (ctx, id, want) =>
      ctx.api.perform("attachServiceToVpc", {
        service: id,
        body: bodyOf(serviceSchema, "attachServiceToVpc", want),
        projectId: ctx.projectId,
      }),
    then: SERVICE_STATUS.READY,
    needsRunning: true,
  },
  {
    name: "updatePassword",
    needed: (_live, want, ctx) => want.password !== null && want.password !== ctx.recordedPassword,
    send: (ctx, id, want) =>
      ctx.api.perform("updateServicePassword", {
        service: id,
        body: bodyOf(serviceSchema, "updateServicePassword", want),
        projectId: ctx.projectId,
      }),
    then: AT_ONCE,
    needsRunning: true,
  },
  {
    name: "stop",
    // A status the table does not know says nothing of whether the service runs: no stop because of it.
    needed: (live, want) => want.paused && showsReadably(serviceSchema, live, "paused") && !isPaused(live),
    send: (ctx, id) => ctx.api.perform("stopService", { service: id, projectId: ctx.projectId }),
    then: SERVICE_STATUS.PAUSED,
    needsRunning: false,
  },
];

/** How warnings and lookups name a Service they are about: `service 1a2b`. */
export function serviceNamed(live: Service): string {
  return `service ${live.service_id}`;
}

/** The Service resource type. */
export const serviceDefinition: ResourceDefinition<typeof serviceSchema.inputs, typeof serviceSchema.outputs> = {
  schema: serviceSchema,
  // Ready or paused (dormant): a status that stays put. (Whether it is the one the program asks for is the diff of `paused`.)
  settled: (recorded) => hasStatusClass("service", recorded.status, "ready", "dormant"),
  lookups: kindLookups<Service>({
    one: {
      name: "getService",
      finds: "One service of the project",
      read: (api, id, { projectId }) => api.perform("getService", { service: id, projectId }),
    },
    all: {
      name: "getServices",
      doc: "Every service of the project.",
      list: "services",
      listDoc: "The services.",
      read: async (api, { projectId }) => (await api.perform("listServices", { projectId })).items,
    },
    named: serviceNamed,
    idOf: (live) => live.service_id,
    outputs: (live) => serviceOutputs(live),
    // One being deleted is not imported, nor its replica sets.
    imported: {
      name: (live) => live.name ?? live.service_id,
      importable: (live) => !hasStatusClass("service", live.status, "ending", "gone"),
    },
  }),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  operations: () => (require("./operations") as typeof import("./operations")).serviceOperations,
};
