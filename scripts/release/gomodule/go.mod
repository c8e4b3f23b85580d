module github.com/clouddb/pulumi-clouddb/scripts/release/gomodule

go 1.26.0

require golang.org/x/mod v0.41.0
