/** The 32 operations of the API (SPEC.md section 4), relative to the base path. */
import type { ClouddbModel } from "../model/clouddb-model";
import type { Credentials, Principal } from "../model/credentials";
import { empty, json, type Answer } from "./answer";
import { Router } from "./router";

/** What an API handler gets. */
export interface ApiContext {
  /** Path parameters (`project_id`, `vpc_id`, `peering_id`, `service_id`, `replica_set_id`). */
  params: Record<string, string>;
  /** The authenticated caller (already checked to reach `project_id`). */
  principal: Principal;
  /** The JSON body (`{}` when empty). @throws InvalidRequestError */
  body(): unknown;
}

/** An API operation. */
export type ApiHandler = (ctx: ApiContext) => Answer;

const P = "/projects/:project_id";
const VPC = `${P}/vpcs/:vpc_id`;
const SERVICE = `${P}/services/:service_id`;
const REPLICA_SET = `${SERVICE}/replicaSets/:replica_set_id`;

/** The router of every API operation. */
export function apiRouter(model: ClouddbModel, credentials: Credentials): Router<ApiHandler> {
  const { network, services, replicaSets } = model;
  return (
    new Router<ApiHandler>()
      .on("GET", "/auth/info", (c) =>
        json(
          200,
          credentials.authInfo(c.principal, (t) => model.reportedClock.report(t)),
        ),
      )
      // VPCs
      .on("GET", `${P}/vpcs`, (c) => json(200, network.listVpcs(c.params.project_id)))
      .on("POST", `${P}/vpcs`, (c) => json(201, network.createVpc(c.params.project_id, c.body())))
      .on("GET", VPC, (c) => json(200, network.getVpc(c.params.project_id, c.params.vpc_id)))
      .on("DELETE", VPC, (c) => {
        network.deleteVpc(c.params.project_id, c.params.vpc_id);
        return empty(204);
      })
      .on("POST", `${VPC}/rename`, (c) => json(200, network.renameVpc(c.params.project_id, c.params.vpc_id, c.body())))
      // Peerings
      .on("GET", `${VPC}/peerings`, (c) => json(200, network.listPeerings(c.params.project_id, c.params.vpc_id)))
      .on("POST", `${VPC}/peerings`, (c) => json(201, network.createPeering(c.params.project_id, c.params.vpc_id, c.body())))
      .on("GET", `${VPC}/peerings/:peering_id`, (c) =>
        json(200, network.getPeering(c.params.project_id, c.params.vpc_id, c.params.peering_id)),
      )
      .on("DELETE", `${VPC}/peerings/:peering_id`, (c) => {
        network.deletePeering(c.params.project_id, c.params.vpc_id, c.params.peering_id);
        return empty(204);
      })
      // Services
      .on("GET", `${P}/services`, (c) => json(200, services.listServices(c.params.project_id)))
      .on("POST", `${P}/services`, (c) => json(202, services.createService(c.params.project_id, c.body())))
      .on("GET", SERVICE, (c) => json(200, services.getService(c.params.project_id, c.params.service_id)))
      .on("DELETE", SERVICE, (c) => {
        services.deleteService(c.params.project_id, c.params.service_id);
        return empty(202);
      })
      .on("POST", `${SERVICE}/start`, (c) => json(202, services.startService(c.params.project_id, c.params.service_id)))
      .on("POST", `${SERVICE}/stop`, (c) => json(202, services.stopService(c.params.project_id, c.params.service_id)))
      .on("POST", `${SERVICE}/attachToVPC`, (c) => json(202, services.attachToVpc(c.params.project_id, c.params.service_id, c.body())))
      .on("POST", `${SERVICE}/detachFromVPC`, (c) => json(202, services.detachFromVpc(c.params.project_id, c.params.service_id, c.body())))
      .on("POST", `${SERVICE}/resize`, (c) => json(202, services.resizeService(c.params.project_id, c.params.service_id, c.body())))
      .on("POST", `${SERVICE}/enablePooler`, (c) => json(200, services.setPooler(c.params.project_id, c.params.service_id, true)))
      .on("POST", `${SERVICE}/disablePooler`, (c) => json(200, services.setPooler(c.params.project_id, c.params.service_id, false)))
      .on("POST", `${SERVICE}/forkService`, (c) => json(202, services.forkService(c.params.project_id, c.params.service_id, c.body())))
      .on("POST", `${SERVICE}/updatePassword`, (c) => {
        services.updatePassword(c.params.project_id, c.params.service_id, c.body());
        return empty(204);
      })
      .on("POST", `${SERVICE}/setEnvironment`, (c) =>
        json(200, services.setEnvironment(c.params.project_id, c.params.service_id, c.body())),
      )
      .on("POST", `${SERVICE}/setHA`, (c) => json(202, services.setHA(c.params.project_id, c.params.service_id, c.body())))
      // Read replica sets
      .on("GET", `${SERVICE}/replicaSets`, (c) => json(200, replicaSets.list(c.params.project_id, c.params.service_id)))
      .on("POST", `${SERVICE}/replicaSets`, (c) => json(202, replicaSets.create(c.params.project_id, c.params.service_id, c.body())))
      .on("DELETE", REPLICA_SET, (c) => {
        replicaSets.delete(c.params.project_id, c.params.service_id, c.params.replica_set_id);
        return empty(202);
      })
      .on("POST", `${REPLICA_SET}/resize`, (c) =>
        json(202, replicaSets.resize(c.params.project_id, c.params.service_id, c.params.replica_set_id, c.body())),
      )
      .on("POST", `${REPLICA_SET}/enablePooler`, (c) =>
        json(200, replicaSets.setPooler(c.params.project_id, c.params.service_id, c.params.replica_set_id, true)),
      )
      .on("POST", `${REPLICA_SET}/disablePooler`, (c) =>
        json(200, replicaSets.setPooler(c.params.project_id, c.params.service_id, c.params.replica_set_id, false)),
      )
      .on("POST", `${REPLICA_SET}/setEnvironment`, (c) =>
        json(200, replicaSets.setEnvironment(c.params.project_id, c.params.service_id, c.params.replica_set_id, c.body())),
      )
  );
}
