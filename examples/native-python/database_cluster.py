"""A component built on the native resources: a service (replaced, not resized, when its CPU
changes: ``replace_on_changes``) and a read replica set of it, with its password."""
import pulumi
import pulumi_clouddb as clouddb


class DatabaseCluster(pulumi.ComponentResource):
    """A service and a read replica set of it."""

    def __init__(self, name: str, vpc_id: pulumi.Input[str], cpu_millis: int, read_nodes: int,
                 opts: pulumi.ResourceOptions | None = None):
        super().__init__("examples:index:DatabaseCluster", name, {}, opts)
        db = clouddb.Service(
            f"{name}-db",
            vpc_id=vpc_id,
            cpu_millis=cpu_millis,
            memory_gbs=cpu_millis // 250,
            connection_pooler=True,
            # The engine's property names: the schema's (camelCase).
            opts=pulumi.ResourceOptions(parent=self, replace_on_changes=["cpuMillis"]),
        )
        reads = clouddb.ReadReplicaSet(
            f"{name}-reads",
            service_id=db.service_id,
            nodes=read_nodes,
            cpu_millis=500,
            memory_gbs=2,
            password=db.password,
            opts=pulumi.ResourceOptions(parent=self),
        )
        self.host = db.host
        # `port` is an int: "host:5432".
        self.address = pulumi.Output.concat(db.host, ":", db.port.apply(str))
        self.password = db.password
        self.reads_id = reads.replica_set_id
        self.register_outputs({"host": self.host, "address": self.address, "readsId": self.reads_id})
