// Command pulumi-resource-clouddb (the launcher) is what the engine starts from the plugin's
// release tarball: a small program beside the plugin's loader (pulumi-resource-clouddb.js) and
// bundle (pulumi-resource-clouddb.bundle.js).
//
// Where a Node.js is on PATH (or named by CLOUDDB_PLUGIN_NODE), it runs the loader beside it
// (pulumi-resource-clouddb.js) on it: the process becomes that node (exec), so the engine talks
// to the plugin directly; the loader checks the Node.js is minNode or later and runs the
// bundle from V8's code cache, or hands the start back (CLOUDDB_PLUGIN_OLD_NODE). Where none
// is, or it is too old, it runs the single-file build (a
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
	loader := filepath.Join(dir, name+".js")

	why := "CLOUDDB_PLUGIN_STANDALONE=1"
	if os.Getenv("CLOUDDB_PLUGIN_STANDALONE") != "1" {
		node, reason := findNode()
		if node != "" {
			if _, err := os.Stat(loader); err == nil {
				run(node, append([]string{node, loader}, args...), nodeEnv())
			}
			reason = fmt.Sprintf("%s is missing", loader)
		}
		why = reason
	}
	binary, err := standalone(dir)
	if err != nil {
		fail("%s, and the single-file build cannot be had: %v", why, err)
	}
	run(binary, append([]string{binary}, args...), withHeapOptions(os.Environ()))
}

// heapOptions are the V8 options the plugin's Node.js starts with, before the user's own
// NODE_OPTIONS (a later option wins, so a user's --max-semi-space-size still counts). V8
// grows the young generation while a program allocates fast, and never shrinks it: a plugin
// that made 1,000 services in one `up` kept 134 MB of it (34 MB after 100) for the rest of
// its run; with 8 MB semi-spaces it used as much CPU (docs/performance/large-stacks.md, "The plugin's memory"). The old generation's limit, which an out-of-memory
// crash would come from, is left as Node.js sets it.
const heapOptions = "--max-semi-space-size=8"

// mallocArenaMax is the MALLOC_ARENA_MAX the plugin runs with unless the user set their own
// (any value, which then wins). glibc gives each thread that allocates while another holds an
// arena an arena of its own, up to 8 per core, and keeps what each grew to: V8's worker threads
// (compiling, marking) and libuv's made the native plugin's resident set grow with the run
// (docs/performance/large-stacks.md, "The plugin's memory": its figures). Other C libraries ignore it.
const mallocArenaMax = "2"

// withHeapOptions is env with heapOptions put first in NODE_OPTIONS, and MALLOC_ARENA_MAX set
// to mallocArenaMax unless env has one.
func withHeapOptions(env []string) []string {
	out := make([]string, 0, len(env)+2)
	options := heapOptions
	arenas := false
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "NODE_OPTIONS="); ok {
			if strings.TrimSpace(v) != "" {
				options = heapOptions + " " + v
			}
			continue
		}
		arenas = arenas || strings.HasPrefix(kv, "MALLOC_ARENA_MAX=")
		out = append(out, kv)
	}
	if !arenas {
		out = append(out, "MALLOC_ARENA_MAX="+mallocArenaMax)
	}
	return append(out, "NODE_OPTIONS="+options)
}

// nodeEnv is the environment the loader runs in: the V8 options of heapOptions first in
// NODE_OPTIONS, and the user's cache folder of this version as CLOUDDB_PLUGIN_CACHE_DIR, where
// the loader keeps V8's code cache when the plugin's own folder cannot be written.
func nodeEnv() []string {
	env := withHeapOptions(os.Environ())
	if dir := cacheDir(); dir != "" && os.Getenv("CLOUDDB_PLUGIN_CACHE_DIR") == "" {
		env = append(env, "CLOUDDB_PLUGIN_CACHE_DIR="+dir)
	}
	return env
}

// fail prints why the plugin cannot start and exits: the engine shows the message.
func fail(format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	fmt.Fprintf(os.Stderr, "%s: %s\n", name, strings.TrimSpace(msg))
	os.Exit(1)
}
