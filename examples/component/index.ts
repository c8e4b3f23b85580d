/**
 * A whole database layout from one reusable component: a service with its pooler and two
 * read replica sets (see databaseCluster.ts).
 */
import { DatabaseCluster } from "./databaseCluster";

export = async () => {
  const analytics = new DatabaseCluster("analytics", {
    name: "analytics",
    cpuMillis: 2000,
    memoryGbs: 8,
    replicaSets: [
      { name: "dashboards", nodes: 2 },
      { name: "exports", nodes: 1, cpuMillis: 1000, memoryGbs: 4 },
    ],
  });
  return { host: analytics.host, poolerEndpoint: analytics.poolerEndpoint, password: analytics.password };
};
