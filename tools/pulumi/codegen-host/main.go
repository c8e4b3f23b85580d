// A language-runtime plugin that only generates SDKs: `pulumi package gen-sdk` asks the
// language host for GeneratePackage, which the hosts we can build from Go modules (those
// of the old sdk/v3 versions in tools/pulumi/versions.json) do not implement. This one
// answers it with the code generators of the CLI's own pkg/v3 (pkg/codegen/nodejs,
// python and go), so the SDK is the one the CLI's version generates.
//
// One binary serves three languages: `npm run pulumi:build` links it as
// pulumi-language-nodejs, pulumi-language-python and pulumi-language-go into the tools'
// codegen/ folder, and the name it was started under picks the language. Running
// programs is not its job (Run and the rest answer "unimplemented"): bin/ holds the real
// hosts for that.
//
// The build copies this file into a Go module of its own that requires the pkg/v3 of
// tools/pulumi/versions.json, so the versions stay in that file alone.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	nodejsgen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	pythongen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

const namePrefix = "pulumi-language-"

// languages maps each language this host generates to the generator's tool name, which
// the generated files' headers name as their author.
var languages = map[string]string{
	"nodejs": "pulumi-language-nodejs",
	"python": "pulumi-language-python",
	"go":     "pulumi-language-go",
}

type codegenHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	language string
}

func (h *codegenHost) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version.Version}, nil
}

func (h *codegenHost) Handshake(
	context.Context, *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

// GeneratePackage binds the request's schema, resolving references to other packages
// through the CLI's loader (the request's loader target), generates the SDK's files and
// writes them under the request's directory. Schema errors come back as diagnostics.
func (h *codegenHost) GeneratePackage(
	_ context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	if req.LoaderTarget == "" {
		return nil, errors.New("GeneratePackage: the request names no schema loader")
	}
	client, err := schema.NewLoaderClient(req.LoaderTarget)
	if err != nil {
		return nil, fmt.Errorf("connect to the schema loader at %s: %w", req.LoaderTarget, err)
	}
	defer client.Close()
	loader := schema.NewCachedLoader(client)

	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(req.Schema), &spec); err != nil {
		return nil, fmt.Errorf("read the package schema: %w", err)
	}
	pkg, diags, err := schema.BindSpec(spec, loader, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return nil, err
	}
	rpcDiags := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() {
		return &pulumirpc.GeneratePackageResponse{Diagnostics: rpcDiags}, nil
	}

	tool := languages[h.language]
	var files map[string][]byte
	switch h.language {
	case "nodejs":
		files, err = nodejsgen.GeneratePackage(tool, pkg, req.ExtraFiles, req.LocalDependencies, req.Local, loader)
	case "python":
		files, err = pythongen.GeneratePackage(tool, pkg, req.ExtraFiles, loader)
	case "go":
		if len(req.ExtraFiles) > 0 {
			return nil, errors.New("overlays are not supported for Go")
		}
		files, err = gogen.GeneratePackage(tool, pkg, req.LocalDependencies)
	}
	if err != nil {
		return nil, err
	}

	for name, data := range files {
		out := filepath.Join(req.Directory, name)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return nil, fmt.Errorf("create the folder of %s: %w", name, err)
		}
		if err := os.WriteFile(out, data, 0o600); err != nil {
			return nil, fmt.Errorf("write %s: %w", name, err)
		}
	}
	return &pulumirpc.GeneratePackageResponse{Diagnostics: rpcDiags}, nil
}

// languageOf is the language of the name the binary was started under
// (pulumi-language-<language>), or of PULUMI_CODEGEN_LANGUAGE when that is set.
func languageOf(argv0 string) (string, error) {
	language := os.Getenv("PULUMI_CODEGEN_LANGUAGE")
	if language == "" {
		language = strings.TrimPrefix(filepath.Base(argv0), namePrefix)
	}
	if _, ok := languages[language]; !ok {
		return "", fmt.Errorf("%s: start me as %snodejs, %spython or %sgo (or set PULUMI_CODEGEN_LANGUAGE)",
			filepath.Base(argv0), namePrefix, namePrefix, namePrefix)
	}
	return language, nil
}

func main() {
	// The CLI passes logging and tracing flags, then the engine's address: generating a
	// package needs none of them (the schema loader's address comes with the request).
	language, err := languageOf(os.Args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	host := &codegenHost{language: language}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host)
			return nil
		},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: could not start the gRPC server: %v\n", filepath.Base(os.Args[0]), err)
		os.Exit(1)
	}
	// The CLI reads the port from the first line of standard output.
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", filepath.Base(os.Args[0]), err)
		os.Exit(1)
	}
}
