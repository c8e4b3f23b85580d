/** The rules of a Service's inputs that read several of them: the size pair, and the HA counts. */
import type { CrossRule } from "../../framework/check";
import * as v from "../values";

/** `cpuMillis` and `memoryGbs` form an allowed pair; `syncReplicaCount` is at most `replicaCount`. */
export const serviceCrossRules: readonly CrossRule[] = [
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
];
