"""The native plugin from Python: an explicit provider (its API key a secret), a VPC, a
``DatabaseCluster`` component, an existing service adopted when ``adoptId`` is set (the stack
never deletes it), and a lookup function."""
import pulumi
import pulumi_clouddb as clouddb

from database_cluster import DatabaseCluster

config = pulumi.Config()
provider = clouddb.Provider(
    "prov",
    api_url=config.require("apiUrl"),
    api_key=config.require_secret("apiKey"),
    project_id=config.require("projectId"),
    poll_interval="20ms",
    poll_max_interval="200ms",
)

net = clouddb.Vpc("net", cidr="10.40.0.0/16", region_code="us-east-1", opts=pulumi.ResourceOptions(provider=provider))
cluster = DatabaseCluster(
    "orders",
    vpc_id=net.vpc_id,
    cpu_millis=config.get_int("cpuMillis") or 500,
    read_nodes=1,
    opts=pulumi.ResourceOptions(providers=[provider]),
)
adopt_id = config.get("adoptId")
legacy = clouddb.Service("legacy", adopt_id=adopt_id, opts=pulumi.ResourceOptions(provider=provider)) if adopt_id else None
# Looked up once the cluster exists.
services = clouddb.get_services_output(opts=pulumi.InvokeOutputOptions(provider=provider, depends_on=[cluster]))

pulumi.export("vpcId", net.vpc_id)
pulumi.export("host", cluster.host)
pulumi.export("address", cluster.address)
pulumi.export("password", cluster.password)
pulumi.export("readsId", cluster.reads_id)
pulumi.export("legacyId", legacy.service_id if legacy else None)
pulumi.export("serviceCount", services.services.apply(len))
