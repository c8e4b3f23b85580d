package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// findNode returns the Node.js to run the bundle on (CLOUDDB_PLUGIN_NODE, else `node` on
// PATH) when its version is minNode or later; else "" and why not.
func findNode() (string, string) {
	node := os.Getenv("CLOUDDB_PLUGIN_NODE")
	if node == "" {
		found, err := exec.LookPath("node")
		if err != nil {
			return "", "no Node.js on PATH"
		}
		node = found
	}
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		return "", fmt.Sprintf("%s --version failed (%v)", node, err)
	}
	have := strings.TrimSpace(string(out))
	if !atLeast(strings.TrimPrefix(have, "v"), minNode) {
		return "", fmt.Sprintf("%s is Node.js %s, older than the %s the plugin needs", node, have, minNode)
	}
	return node, ""
}

// atLeast reports whether version a (major.minor.patch) is b or later.
func atLeast(a, b string) bool {
	pa, pb := parts(a), parts(b)
	for i := range pb {
		if pa[i] != pb[i] {
			return pa[i] > pb[i]
		}
	}
	return true
}

func parts(v string) [3]int {
	var p [3]int
	for i, s := range strings.SplitN(strings.SplitN(v, "-", 2)[0], ".", 3) {
		p[i], _ = strconv.Atoi(s)
	}
	return p
}
