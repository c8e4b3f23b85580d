package main

import (
	"fmt"

	"github.com/clouddb/pulumi-clouddb/sdk-native/go/clouddb"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// DatabaseCluster is a component built on the native resources: a service (replaced, not
// resized, when its CPU changes: ReplaceOnChanges) and a read replica set of it.
type DatabaseCluster struct {
	pulumi.ResourceState

	Host     pulumi.StringOutput    `pulumi:"host"`
	Address  pulumi.StringOutput    `pulumi:"address"`
	Password pulumi.StringPtrOutput `pulumi:"password"`
	ReadsID  pulumi.StringOutput    `pulumi:"readsId"`
}

// NewDatabaseCluster makes the service, attached to vpcID, and its read replica set.
func NewDatabaseCluster(ctx *pulumi.Context, name string, vpcID pulumi.StringInput, cpuMillis int, readNodes int,
	opts ...pulumi.ResourceOption) (*DatabaseCluster, error) {
	c := &DatabaseCluster{}
	if err := ctx.RegisterComponentResource("examples:index:DatabaseCluster", name, c, opts...); err != nil {
		return nil, err
	}
	db, err := clouddb.NewService(ctx, fmt.Sprintf("%s-db", name), &clouddb.ServiceArgs{
		VpcId:            vpcID,
		CpuMillis:        pulumi.Int(cpuMillis),
		MemoryGbs:        pulumi.Int(cpuMillis / 250),
		ConnectionPooler: pulumi.Bool(true),
	}, pulumi.Parent(c), pulumi.ReplaceOnChanges([]string{"cpuMillis"}))
	if err != nil {
		return nil, err
	}
	reads, err := clouddb.NewReadReplicaSet(ctx, fmt.Sprintf("%s-reads", name), &clouddb.ReadReplicaSetArgs{
		ServiceId: db.ServiceId,
		Nodes:     pulumi.Int(readNodes),
		CpuMillis: pulumi.Int(500),
		MemoryGbs: pulumi.Int(2),
		Password:  db.Password,
	}, pulumi.Parent(c))
	if err != nil {
		return nil, err
	}
	c.Host = db.Host
	c.Address = pulumi.Sprintf("%s:%d", db.Host, db.Port)
	c.Password = db.Password
	c.ReadsID = reads.ReplicaSetId
	err = ctx.RegisterResourceOutputs(c, pulumi.Map{"host": db.Host, "address": c.Address, "readsId": reads.ReplicaSetId})
	return c, err
}
