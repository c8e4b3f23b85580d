package main

import (
	"context"
	_ "embed"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/provider"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
)

// schema is the package schema the provider serves (schema.json, "%s" its version): one
// resource, its outputs shaped like a Service's. The Node.js floor (bench/noop-provider-node)
// serves the same file.
//
//go:embed schema.json
var schema string

// replaces names the inputs whose change replaces a Thing.
var replaces = map[string]bool{"name": true}

// server is the provider: every method works on the request alone.
type server struct {
	pulumirpc.UnimplementedResourceProviderServer
	host    *provider.HostClient
	version string
}

func newServer(host *provider.HostClient, version string) *server {
	return &server{host: host, version: version}
}

func (s *server) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: s.version}, nil
}

func (s *server) GetSchema(context.Context, *pulumirpc.GetSchemaRequest) (*pulumirpc.GetSchemaResponse, error) {
	return &pulumirpc.GetSchemaResponse{Schema: fmt.Sprintf(schema, s.version)}, nil
}

func (s *server) CheckConfig(_ context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	return &pulumirpc.CheckResponse{Inputs: req.GetNews()}, nil
}

func (s *server) DiffConfig(context.Context, *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	return &pulumirpc.DiffResponse{}, nil
}

func (s *server) Configure(context.Context, *pulumirpc.ConfigureRequest) (*pulumirpc.ConfigureResponse, error) {
	return &pulumirpc.ConfigureResponse{AcceptSecrets: true, SupportsPreview: true}, nil
}

func (s *server) Check(_ context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	return &pulumirpc.CheckResponse{Inputs: req.GetNews()}, nil
}

func (s *server) Diff(_ context.Context, req *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	olds, news := req.GetOldInputs().GetFields(), req.GetNews().GetFields()
	var diffs, replaceKeys []string
	for key := range union(olds, news) {
		if !reflect.DeepEqual(olds[key].AsInterface(), news[key].AsInterface()) {
			diffs = append(diffs, key)
			if replaces[key] {
				replaceKeys = append(replaceKeys, key)
			}
		}
	}
	changes := pulumirpc.DiffResponse_DIFF_NONE
	if len(diffs) > 0 {
		changes = pulumirpc.DiffResponse_DIFF_SOME
	}
	return &pulumirpc.DiffResponse{Changes: changes, Diffs: diffs, Replaces: replaceKeys}, nil
}

func (s *server) Create(_ context.Context, req *pulumirpc.CreateRequest) (*pulumirpc.CreateResponse, error) {
	id := newID()
	return &pulumirpc.CreateResponse{Id: id, Properties: outputs(req.GetProperties(), id, time.Now().UTC().Format(time.RFC3339))}, nil
}

func (s *server) Read(_ context.Context, req *pulumirpc.ReadRequest) (*pulumirpc.ReadResponse, error) {
	return &pulumirpc.ReadResponse{Id: req.GetId(), Properties: req.GetProperties(), Inputs: req.GetInputs()}, nil
}

func (s *server) Update(_ context.Context, req *pulumirpc.UpdateRequest) (*pulumirpc.UpdateResponse, error) {
	created := req.GetOlds().GetFields()["created"].GetStringValue()
	return &pulumirpc.UpdateResponse{Properties: outputs(req.GetNews(), req.GetId(), created)}, nil
}

func (s *server) Delete(context.Context, *pulumirpc.DeleteRequest) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, nil
}

func (s *server) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, nil
}

// outputs are the inputs, the id, the time of creation, and what a clouddb Service's state
// holds besides, in the same shape (the same 19 outputs, password and connectionString secret;
// haReplicas an object, resources a list of one object, no vpcId when there is none), so that
// the floor's state and the engine's work per resource compare like with like with ours: the
// engine's CPU follows the outputs' shape, not only their bytes (docs/performance/large-stacks.md, "A destroy's
// engine CPU"). Not the provider's own records (__adopted, the dynamic host's __provider).
func outputs(inputs *structpb.Struct, id, created string) *structpb.Struct {
	fields := map[string]*structpb.Value{}
	for k, v := range inputs.GetFields() {
		if !strings.HasPrefix(k, "__") {
			fields[k] = v
		}
	}
	host := "t-" + id + ".noop.example.com"
	password := newID() + newID() + newID()
	defaults := map[string]*structpb.Value{
		"projectId":        structpb.NewStringValue("noop000001"),
		"name":             structpb.NewStringValue("thing-" + id),
		"serviceType":      structpb.NewStringValue("TIMESCALEDB"),
		"regionCode":       structpb.NewStringValue("us-east-1"),
		"status":           structpb.NewStringValue("READY"),
		"port":             structpb.NewNumberValue(5432),
		"connectionPooler": structpb.NewBoolValue(false),
		"cpuMillis":        structpb.NewNumberValue(500),
		"memoryGbs":        structpb.NewNumberValue(2),
		"haReplicas":       object(map[string]*structpb.Value{"replicaCount": structpb.NewNumberValue(0), "syncReplicaCount": structpb.NewNumberValue(0)}),
		"environment":      structpb.NewStringValue("DEV"),
		"paused":           structpb.NewBoolValue(false),
	}
	for k, v := range defaults {
		if _, given := fields[k]; !given {
			fields[k] = v
		}
	}
	fields["serviceId"] = structpb.NewStringValue(id)
	fields["resources"] = structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{object(map[string]*structpb.Value{
		"id":         structpb.NewStringValue(id + "-0"),
		"cpuMillis":  fields["cpuMillis"],
		"memoryGbs":  fields["memoryGbs"],
		"volumeType": structpb.NewStringValue("gp3"),
	})}})
	fields["created"] = structpb.NewStringValue(created)
	fields["host"] = structpb.NewStringValue(host)
	fields["password"] = secret(password)
	fields["connectionString"] = secret(fmt.Sprintf("postgres://tsdbadmin:%s@%s:5432/tsdb?sslmode=require", password, host))
	return &structpb.Struct{Fields: fields}
}

// object is a Struct value of fields.
func object(fields map[string]*structpb.Value) *structpb.Value {
	return structpb.NewStructValue(&structpb.Struct{Fields: fields})
}

// secret is s as the engine's wire form of a secret value (the signature key of
// sdk/go/common/resource/sig: a secret).
func secret(s string) *structpb.Value {
	return structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{
		"4dabf18193072939515e22adb298388d": structpb.NewStringValue("1b47061264138c4ac30d75fd1eb44270"),
		"value":                            structpb.NewStringValue(s),
	}})
}

func union(a, b map[string]*structpb.Value) map[string]bool {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	return keys
}

func newID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
