/** Looking things up with the functions: who we are, and what the project holds. */
import * as clouddb from "pulumi-clouddb";

export = async () => {
  const me = await clouddb.getAuthInfo();
  const services = await clouddb.getServices();
  const vpcs = await clouddb.getVpcs();
  const first = services[0];
  return {
    credential: me.type,
    project: me.apiKey?.project.name ?? "(oauth)",
    serviceNames: services.map((s) => s.name),
    vpcCidrs: vpcs.map((v) => v.cidr),
    firstServiceReplicaSets: first
      ? clouddb.getReadReplicaSetsOutput({ serviceId: first.serviceId }).apply((sets) => sets.map((s) => s.name))
      : [],
  };
};
