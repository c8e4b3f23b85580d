// Command gomodule writes a Go module's files as a module proxy serves them
// (https://go.dev/ref/mod#goproxy-protocol), for `GOPROXY=file://<dir>` and for the release's
// record of the module: `<out>/<module path>/@v/{list,<version>.info,<version>.mod,<version>.zip}`,
// the zip made by golang.org/x/mod/zip as the go command makes it from the tag, and prints
// the module's go.sum hashes (`h1:` of the zip and of its go.mod) as JSON.
//
//	go run . -dir <module folder> -version v0.2.0 -time <RFC 3339> -out <proxy folder>
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb/dirhash"
	"golang.org/x/mod/zip"
)

func main() {
	dir := flag.String("dir", "", "the module's folder (its go.mod at the root)")
	version := flag.String("version", "", "the module's version, v<semver>")
	at := flag.String("time", "", "the version's time (RFC 3339), for its .info")
	out := flag.String("out", "", "the proxy folder to write into")
	flag.Parse()
	if err := write(*dir, *version, *at, *out); err != nil {
		fmt.Fprintf(os.Stderr, "gomodule: %v\n", err)
		os.Exit(1)
	}
}

func write(dir, version, at, out string) error {
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	path := modfile.ModulePath(gomod)
	if path == "" {
		return fmt.Errorf("%s/go.mod names no module", dir)
	}
	mv := module.Version{Path: path, Version: version}
	if err := module.Check(path, version); err != nil {
		return err
	}
	when, err := time.Parse(time.RFC3339, at)
	if err != nil {
		return fmt.Errorf("-time: %v", err)
	}
	escaped, err := module.EscapePath(path)
	if err != nil {
		return err
	}
	vdir := filepath.Join(out, escaped, "@v")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		return err
	}
	base := filepath.Join(vdir, version)
	zipFile := base + ".zip"
	f, err := os.Create(zipFile)
	if err != nil {
		return err
	}
	if err := zip.CreateFromDir(f, mv, dir); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	info, _ := json.Marshal(map[string]string{"Version": version, "Time": when.UTC().Format(time.RFC3339)})
	for file, data := range map[string][]byte{base + ".mod": gomod, base + ".info": info, filepath.Join(vdir, "list"): []byte(version + "\n")} {
		if err := os.WriteFile(file, data, 0o644); err != nil {
			return err
		}
	}
	h1, err := dirhash.HashZip(zipFile, dirhash.Hash1)
	if err != nil {
		return err
	}
	modHash, err := dirhash.Hash1([]string{"go.mod"}, func(string) (io.ReadCloser, error) { return os.Open(base + ".mod") })
	if err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]string{
		"path": path, "version": version, "zip": zipFile, "h1": h1, "goModH1": modHash,
	})
}
