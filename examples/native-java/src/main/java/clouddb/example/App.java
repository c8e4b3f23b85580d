package clouddb.example;

import com.pulumi.Pulumi;
import com.pulumi.core.Output;
import io.github.clouddb.pulumi.clouddb.Provider;
import io.github.clouddb.pulumi.clouddb.ProviderArgs;
import io.github.clouddb.pulumi.clouddb.Service;
import io.github.clouddb.pulumi.clouddb.ServiceArgs;
import io.github.clouddb.pulumi.clouddb.Vpc;
import io.github.clouddb.pulumi.clouddb.VpcArgs;
import io.github.clouddb.pulumi.clouddb.enums.RegionCode;
import com.pulumi.resources.CustomResourceOptions;

/**
 * The native plugin from Java: an explicit provider (its API key a secret), a VPC and a
 * service attached to it.
 */
public final class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            var config = ctx.config();
            var provider = new Provider("prov", ProviderArgs.builder()
                .apiUrl(config.require("apiUrl"))
                .apiKey(config.requireSecret("apiKey"))
                .projectId(config.require("projectId"))
                .pollInterval("20ms")
                .pollMaxInterval("200ms")
                .build());
            var opts = CustomResourceOptions.builder().provider(provider).build();
            var net = new Vpc("net", VpcArgs.builder()
                .cidr("10.40.0.0/16")
                .regionCode(RegionCode.Useast1)
                .build(), opts);
            var db = new Service("orders-db", ServiceArgs.builder()
                .vpcId(net.vpcId())
                .cpuMillis(500)
                .memoryGbs(2)
                .build(), opts);
            ctx.export("vpcId", net.vpcId());
            ctx.export("serviceId", db.serviceId());
            ctx.export("host", db.host());
            ctx.export("address", Output.format("%s:%s", db.host(), db.port()));
            ctx.export("password", db.password()); // a secret
        });
    }
}
