/**
 * The Service resource: a managed database. `name`, `serviceType`, `regionCode`,
 * `projectId` and `forkFrom` replace it (the API cannot rename a service); everything
 * else changes in place through the API's actions (see `serviceConvergence.ts`).
 */
import { randomBytes } from "crypto";
import { ConflictError, NotFoundError, type Service } from "../../client";
import { assertAdoptable, nothingToAdopt } from "../../framework/adoption";
import { InputConflictError, ResourceInitError } from "../../framework/errors";
import { retryWhileConflict } from "../../framework/pacing";
import { createServiceOnce, createSettled } from "../../framework/journal";
import { defineResourceProvider, type Props, type ResourceDefinition } from "../../framework/resourceProvider";
import { converge, ServiceUnusableError } from "./convergence";
import {
  desiredService,
  SERVICE_DEFAULTS,
  serviceOutputs,
  type ServiceInputs,
  type ServiceOutputs,
} from "./state";
import { client, projectOf, settings } from "../../framework/settings";
import { timeoutMs, type TimeoutsInput } from "../../framework/timeouts";
import * as v from "../values";
import { z } from "zod";

const forkFrom = z
  .strictObject(
    {
      serviceId: v.serviceId,
      strategy: z.enum(["LAST_SNAPSHOT", "NOW", "PITR"], { error: 'expected "LAST_SNAPSHOT", "NOW" or "PITR"' }),
      targetTime: z.iso.datetime({ offset: true, error: "expected an RFC 3339 time such as 2026-01-31T12:00:00Z" }).optional(),
    },
    { error: "expected { serviceId, strategy, targetTime? }" },
  )
  .refine((f) => f.strategy !== "PITR" || f.targetTime !== undefined, {
    error: "strategy PITR needs targetTime (an RFC 3339 time between the source's creation and now)",
    path: ["targetTime"],
  });

const haReplicas = z.strictObject(
  { replicaCount: v.wholeNumber(0, 2).optional(), syncReplicaCount: v.wholeNumber(0, 2).optional() },
  { error: "expected { replicaCount: 0 to 2, syncReplicaCount: 0 to replicaCount }" },
);

/** Generates a password for a service whose initial password was lost (a recovered create). */
function generatedPassword(): string {
  return randomBytes(18).toString("base64url");
}

/** The ready service's outputs; `kept` carries the password and forkFrom. */
function outputs(service: Service, kept: { password?: string; forkFrom?: ServiceInputs["forkFrom"] }): Props {
  return { ...serviceOutputs(service, kept) };
}

/** Starts the service the inputs describe: a fork, an adoption, or a new service. */
async function start(news: ServiceInputs, projectId: string, deadline: number): Promise<Service> {
  const api = client();
  const opts = { projectId };
  if (news.adoptId !== undefined) {
    const live = await api.getService(news.adoptId, opts).catch((e: unknown) => {
      throw NotFoundError.isInstance(e) ? nothingToAdopt(`no service ${news.adoptId} in project ${projectId}`) : e;
    });
    assertAdoptable(`service ${live.service_id}`, [
      ["name", news.name, live.name],
      ["serviceType", news.serviceType ?? SERVICE_DEFAULTS.serviceType, live.service_type],
      ["regionCode", news.regionCode ?? SERVICE_DEFAULTS.regionCode, live.region_code],
    ]);
    return live;
  }
  if (news.forkFrom !== undefined) {
    const { serviceId, strategy, targetTime } = news.forkFrom;
    const source = await api.getService(serviceId, opts);
    for (const [property, want, got] of [
      ["serviceType", news.serviceType, source.service_type],
      ["regionCode", news.regionCode, source.region_code],
    ] as const) {
      if (want !== undefined && want !== got) {
        throw new InputConflictError(
          property,
          `${property}: a fork has its source's ${property} (${JSON.stringify(got)} for ${serviceId}); remove ${property} or set it to that`,
        );
      }
    }
    return retryWhileConflict(deadline, () =>
      api.forkService(
        serviceId,
        {
          fork_strategy: strategy,
          target_time: targetTime,
          name: news.name,
          cpu_millis: news.cpuMillis === undefined ? undefined : String(news.cpuMillis),
          memory_gbs: news.memoryGbs === undefined ? undefined : String(news.memoryGbs),
          environment_tag: news.environment,
        },
        opts,
      ),
    );
  }
  const desired = desiredService(news, {});
  const req = {
    name: news.name,
    service_type: news.serviceType ?? SERVICE_DEFAULTS.serviceType,
    region_code: news.regionCode ?? SERVICE_DEFAULTS.regionCode,
    cpu_millis: String(desired.cpuMillis),
    memory_gbs: String(desired.memoryGbs),
    replica_count: desired.haReplicas.replicaCount,
    environment_tag: desired.environment as "DEV" | "PROD",
  };
  // Takes over what an interrupted create of this program made, else creates (see pendingCreate.ts).
  const intent = { apiUrl: settings().apiUrl ?? "", projectId, name: req.name, serviceType: req.service_type, regionCode: req.region_code };
  return createServiceOnce(api, intent, () => api.createService(req, opts));
}

const definition: ResourceDefinition = {
  kind: "Service",
  idOutput: "serviceId",
  settled: (recorded) => recorded.status === (recorded.paused === true ? "PAUSED" : "READY"),
  rules: {
    schemas: {
      name: v.name,
      serviceType: z.enum(["TIMESERIES", "RELATIONAL", "VECTOR"], {
        error: 'expected "TIMESERIES", "RELATIONAL" or "VECTOR"',
      }),
      regionCode: v.regionCode,
      cpuMillis: v.cpuMillis(true),
      memoryGbs: v.memoryGbs(true),
      haReplicas,
      environment: v.environment,
      connectionPooler: v.flag,
      vpcId: v.numericId,
      password: v.password,
      paused: v.flag,
      forkFrom,
      projectId: v.projectId,
      adoptId: v.serviceId,
      timeouts: v.timeouts,
    },
    required: ["name"],
    secret: ["password"],
    cross: [
      {
        properties: ["cpuMillis", "memoryGbs"],
        validate(news) {
          const { cpuMillis, memoryGbs } = news;
          if (cpuMillis === undefined && memoryGbs === undefined) return [];
          if (cpuMillis === undefined || memoryGbs === undefined || !v.isAllowedPair(v.SERVICE_SIZES, cpuMillis, memoryGbs)) {
            return [
              {
                property: cpuMillis === undefined ? "cpuMillis" : "memoryGbs",
                reason: `cpuMillis ${JSON.stringify(cpuMillis)} with memoryGbs ${JSON.stringify(memoryGbs)} is not an allowed pair; give both, one of (cpuMillis/memoryGbs): ${v.describeSizes(v.SERVICE_SIZES)}`,
              },
            ];
          }
          return [];
        },
      },
      {
        properties: ["haReplicas"],
        validate(news) {
          const ha = (news.haReplicas ?? {}) as { replicaCount?: number; syncReplicaCount?: number };
          const replicas = ha.replicaCount ?? 0;
          const sync = ha.syncReplicaCount ?? 0;
          return sync > replicas
            ? [
                {
                  property: "haReplicas.syncReplicaCount",
                  reason: `haReplicas.syncReplicaCount is ${sync}: expected at most haReplicas.replicaCount (${replicas})`,
                },
              ]
            : [];
        },
      },
    ],
  },
  diffKeys: [
    ...["name", "serviceType", "regionCode", "projectId", "forkFrom"].map((property) => ({ property, replace: true })),
    ...["cpuMillis", "memoryGbs", "haReplicas", "environment", "connectionPooler", "vpcId", "password", "paused"].map(
      (property) => ({ property, replace: false }),
    ),
  ],

  desired(raw, recorded) {
    const news = raw as unknown as ServiceInputs;
    const want = desiredService(news, recorded as Partial<ServiceOutputs>);
    const forked = news.forkFrom !== undefined;
    return {
      name: news.name,
      serviceType: news.serviceType ?? (forked ? recorded.serviceType : SERVICE_DEFAULTS.serviceType),
      regionCode: news.regionCode ?? (forked ? recorded.regionCode : SERVICE_DEFAULTS.regionCode),
      forkFrom: news.forkFrom ?? null,
      cpuMillis: want.cpuMillis,
      memoryGbs: want.memoryGbs,
      haReplicas: want.haReplicas,
      environment: want.environment,
      connectionPooler: want.connectionPooler,
      vpcId: want.vpcId,
      password: want.password ?? recorded.password,
      paused: want.paused,
    };
  },

  secretsOf(props) {
    return [props.password as string | undefined];
  },

  async create(raw) {
    const news = raw as unknown as ServiceInputs;
    const projectId = projectOf(news.projectId);
    const limit = timeoutMs(news.timeouts, "create");
    const deadline = Date.now() + limit;
    const made = await start(news, projectId, deadline);
    const id = made.service_id;
    const initial = made.initial_password;
    const adopted = news.adoptId !== undefined;
    // The password the service will have: the one given, else the initial one (which the
    // API never shows again), else (a create recovered after a lost answer) a new one.
    const password = news.password ?? initial ?? (adopted ? undefined : generatedPassword());
    try {
      const live = await converge(
        { api: client(), projectId, timeoutMs: Math.max(1, deadline - Date.now()), recordedPassword: initial },
        made,
        { ...desiredService(news, serviceOutputs(made, {})), password },
      );
      return { id, outs: outputs(live, { password, forkFrom: news.forkFrom }) };
    } catch (e) {
      // Record the service as last seen, and as password only the one it is known to
      // have (the initial one): a given password not applied yet is applied on resume.
      const last = ServiceUnusableError.isUnusable(e) ? e.service : ((e as { lastSeen?: Service }).lastSeen ?? made);
      const { password: _given, ...inputs } = raw;
      const known = serviceOutputs(last, { password: initial, forkFrom: news.forkFrom });
      const why = ServiceUnusableError.isUnusable(e)
        ? `${(e as Error).message} The service is kept in state: once it is usable again, the next \`pulumi up\` resumes it.`
        : `Service ${id} (${news.name}) was created but is not ready: ${(e as Error).message}. It is kept in state; the next \`pulumi up\` resumes waiting for it.`;
      throw new ResourceInitError(id, { ...inputs, ...known }, why);
    } finally {
      createSettled(id);
    }
  },

  async read(id, props) {
    const live = await client().getService(id, { projectId: projectOf(props.projectId as string | undefined) });
    return outputs(live, {
      password: props.password as string | undefined,
      forkFrom: props.forkFrom as ServiceInputs["forkFrom"],
    });
  },

  async update(id, olds, raw) {
    const news = raw as unknown as ServiceInputs;
    const projectId = projectOf(news.projectId ?? (olds.projectId as string | undefined));
    const api = client();
    const live = await api.getService(id, { projectId, fresh: true });
    const recordedPassword = olds.password as string | undefined;
    const want = desiredService(news, olds as Partial<ServiceOutputs>);
    const final = await converge(
      { api, projectId, timeoutMs: timeoutMs(news.timeouts, "update"), recordedPassword },
      live,
      want,
    );
    return outputs(final, { password: news.password ?? recordedPassword, forkFrom: news.forkFrom });
  },

  async delete(id, props) {
    const projectId = projectOf(props.projectId as string | undefined);
    const api = client();
    try {
      await api.deleteService(id, { projectId });
    } catch (e) {
      if (NotFoundError.isInstance(e)) return;
      // Already DELETING (409): wait for it to go like any other delete.
      if (!ConflictError.isInstance(e)) throw e;
    }
    await api.waitForServiceDeleted(id, { projectId, timeoutMs: timeoutMs(props.timeouts as TimeoutsInput | undefined, "delete") });
  },
};

/** The dynamic provider behind `clouddb.Service`, loaded by the serialized trampoline. */
export const provider = defineResourceProvider(definition);
