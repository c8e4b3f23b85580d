/** The rules of a Service's inputs that read several of them: the size pair, and the HA counts, as the contract has them. */
import { haCountsAllowed } from "../../../contract/rules";
import { serviceSizeProblem } from "../../../contract/sizes";
import type { CrossRule } from "../../framework/check";

/** `cpuMillis` and `memoryGbs` form an allowed pair; `syncReplicaCount` is at most `replicaCount`. */
export const serviceCrossRules: readonly CrossRule[] = [
  {
    properties: ["cpuMillis", "memoryGbs"],
    validate(news, show) {
      const { cpuMillis, memoryGbs } = news;
      // As the create and the resize send them: the amounts as strings (each valid by now: a number or "shared").
      const sent = (amount: unknown) => (typeof amount === "number" || typeof amount === "string" ? String(amount) : undefined);
      const problem = serviceSizeProblem(sent(cpuMillis), sent(memoryGbs));
      if (problem === undefined) return [];
      return [
        {
          property: problem.on === "cpu" ? "cpuMillis" : "memoryGbs",
          reason: `cpuMillis ${show("cpuMillis", cpuMillis)} with memoryGbs ${show("memoryGbs", memoryGbs)}: ${problem.unquoted}`,
        },
      ];
    },
  },
  {
    properties: ["haReplicas"],
    validate(news, show) {
      const ha = (news.haReplicas ?? {}) as { replicaCount?: number; syncReplicaCount?: number };
      const replicas = ha.replicaCount ?? 0;
      const sync = ha.syncReplicaCount ?? 0;
      return !haCountsAllowed(replicas, sync)
        ? [
            {
              property: "haReplicas.syncReplicaCount",
              reason: `haReplicas.syncReplicaCount is ${show("haReplicas", sync)}: expected at most haReplicas.replicaCount (${show("haReplicas", replicas)})`,
            },
          ]
        : [];
    },
  },
];
