//go:build windows

package main

import (
	"errors"
	"os"
	"os/exec"
)

// run starts the program with this process's standard streams and exits with its code
// (Windows has no exec).
func run(program string, argv, env []string) {
	cmd := exec.Command(program, argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr, cmd.Env = os.Stdin, os.Stdout, os.Stderr, env
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		os.Exit(exit.ExitCode())
	}
	if err != nil {
		fail("cannot run %s: %v", program, err)
	}
	os.Exit(0)
}
