//go:build !windows

package main

import "syscall"

// run replaces this process with the program: the engine's signals, standard streams and
// process id are the plugin's own.
func run(program string, argv, env []string) {
	err := syscall.Exec(program, argv, env)
	fail("cannot run %s: %v", program, err)
}
