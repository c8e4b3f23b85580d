// Command pulumi-resource-clouddb (the launcher) is what the engine starts from the plugin's
// release tarball: a small program beside the bundled plugin (pulumi-resource-clouddb.js).
//
// Where a Node.js of the version the plugin needs is on PATH (or named by
// CLOUDDB_PLUGIN_NODE), it runs the bundle on it: the process becomes that node (exec), so
// the engine talks to the plugin directly. Where none is, it runs the single-file build (a
// Node.js single-executable application): the one beside it, else the one it downloaded
// before, else it downloads it now, once, from the release the engine took this tarball
// from (PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES honoured as the engine honours it), checks its
// SHA-256 against the sum built into this launcher, and keeps it beside itself (or in the
// user's cache folder when the plugin folder cannot be written). CLOUDDB_PLUGIN_STANDALONE=1
// takes the single-file build even where Node.js is present.
//
// Every value below is set at build time (-ldflags -X) by scripts/plugin/pack.js.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

var (
	// version is the plugin's version.
	version = "0.0.0"
	// minNode is the oldest Node.js that runs the bundle.
	minNode = "20.18.1"
	// pluginDownloadURL is the schema's pluginDownloadURL, which the engine's overrides are matched against.
	pluginDownloadURL = "github://api.github.com/clouddb/pulumi-clouddb"
	// standaloneSHA256 is the SHA-256 (hex) of this target's single-file tarball; empty where the release has none.
	standaloneSHA256 = ""
)

const name = "pulumi-resource-clouddb"

func main() {
	self, err := os.Executable()
	if err == nil {
		self, err = filepath.EvalSymlinks(self)
	}
	if err != nil {
		fail("cannot find its own folder: %v", err)
	}
	dir := filepath.Dir(self)
	args := os.Args[1:]
	bundle := filepath.Join(dir, name+".js")

	why := "CLOUDDB_PLUGIN_STANDALONE=1"
	if os.Getenv("CLOUDDB_PLUGIN_STANDALONE") != "1" {
		node, reason := findNode()
		if node != "" {
			if _, err := os.Stat(bundle); err == nil {
				run(node, append([]string{node, bundle}, args...), nodeEnv())
			}
			reason = fmt.Sprintf("%s is missing", bundle)
		}
		why = reason
	}
	binary, err := standalone(dir)
	if err != nil {
		fail("%s, and the single-file build cannot be had: %v", why, err)
	}
	run(binary, append([]string{binary}, args...), os.Environ())
}

// nodeEnv is the environment the bundle runs in: Node's on-disk compile cache on (Node 22.1
// and later read NODE_COMPILE_CACHE before the bundle loads), unless the user set or
// disabled it.
func nodeEnv() []string {
	env := os.Environ()
	if os.Getenv("NODE_COMPILE_CACHE") == "" && os.Getenv("NODE_DISABLE_COMPILE_CACHE") == "" {
		env = append(env, "NODE_COMPILE_CACHE="+filepath.Join(os.TempDir(), "node-compile-cache"))
	}
	return env
}

// fail prints why the plugin cannot start and exits: the engine shows the message.
func fail(format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	fmt.Fprintf(os.Stderr, "%s: %s\n", name, strings.TrimSpace(msg))
	os.Exit(1)
}
