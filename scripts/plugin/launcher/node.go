package main

import (
	"fmt"
	"os"
	"os/exec"
)

// findNode returns the Node.js to run the loader on (CLOUDDB_PLUGIN_NODE, else `node` on
// PATH), else "" and why not. It does not run it: the loader checks the version itself, first
// thing, and hands the start back with CLOUDDB_PLUGIN_OLD_NODE set where it is older than
// minNode (a `node --version` here would be a second process on every start).
func findNode() (string, string) {
	if old := os.Getenv("CLOUDDB_PLUGIN_OLD_NODE"); old != "" {
		return "", fmt.Sprintf("the Node.js on PATH is %s, older than the %s the plugin needs", old, minNode)
	}
	if node := os.Getenv("CLOUDDB_PLUGIN_NODE"); node != "" {
		return node, ""
	}
	found, err := exec.LookPath("node")
	if err != nil {
		return "", "no Node.js on PATH"
	}
	return found, ""
}
