// The native plugin from Go: an explicit provider (its API key a secret), a VPC, a
// DatabaseCluster component, an existing service adopted when adoptId is set (the stack
// never deletes it), and a lookup function.
package main

import (
	"github.com/clouddb/pulumi-clouddb/sdk-native/go/clouddb"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		provider, err := clouddb.NewProvider(ctx, "prov", &clouddb.ProviderArgs{
			ApiUrl:          pulumi.String(cfg.Require("apiUrl")),
			ApiKey:          cfg.RequireSecret("apiKey"),
			ProjectId:       pulumi.String(cfg.Require("projectId")),
			PollInterval:    pulumi.String("20ms"),
			PollMaxInterval: pulumi.String("200ms"),
		})
		if err != nil {
			return err
		}
		net, err := clouddb.NewVpc(ctx, "net", &clouddb.VpcArgs{
			Cidr:       pulumi.String("10.40.0.0/16"),
			RegionCode: clouddb.RegionCode_Us_East_1,
		}, pulumi.Provider(provider))
		if err != nil {
			return err
		}
		cpuMillis := cfg.GetInt("cpuMillis")
		if cpuMillis == 0 {
			cpuMillis = 500
		}
		cluster, err := NewDatabaseCluster(ctx, "orders", net.VpcId, cpuMillis, 1, pulumi.Providers(provider))
		if err != nil {
			return err
		}
		if adoptID := cfg.Get("adoptId"); adoptID != "" {
			legacy, err := clouddb.NewService(ctx, "legacy", &clouddb.ServiceArgs{AdoptId: pulumi.String(adoptID)}, pulumi.Provider(provider))
			if err != nil {
				return err
			}
			ctx.Export("legacyId", legacy.ServiceId)
		}
		// Looked up once the cluster exists.
		services := clouddb.GetServicesOutput(ctx, clouddb.GetServicesOutputArgs{}, pulumi.Provider(provider),
			pulumi.DependsOn([]pulumi.Resource{cluster}))
		ctx.Export("vpcId", net.VpcId)
		ctx.Export("host", cluster.Host)
		ctx.Export("address", cluster.Address)
		ctx.Export("password", cluster.Password)
		ctx.Export("readsId", cluster.ReadsID)
		ctx.Export("serviceCount", services.Services().ApplyT(func(s []clouddb.ServiceResult) int { return len(s) }))
		return nil
	})
}
