module github.com/clouddb/pulumi-clouddb/scripts/plugin/launcher

go 1.26
