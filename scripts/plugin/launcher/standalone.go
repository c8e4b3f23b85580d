package main

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"time"
)

// target is this machine's <os>-<arch>, as the engine names a plugin's tarball.
var target = runtime.GOOS + "-" + runtime.GOARCH

// exe is the suffix of an executable's name here.
func exe() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}

// standalone returns the single-file build to run: beside the launcher, else in the user's
// cache folder, else downloaded now (checked against standaloneSHA256) into the first of
// them that can be written.
func standalone(dir string) (string, error) {
	file := name + "-standalone" + exe()
	cache := cacheDir()
	for _, d := range []string{dir, cache} {
		if d == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(d, file)); err == nil {
			return filepath.Join(d, file), nil
		}
	}
	if standaloneSHA256 == "" {
		return "", fmt.Errorf("release %s has no single-file build for %s: install Node.js %s or later", version, target, minNode)
	}
	url, err := assetURL()
	if err != nil {
		return "", err
	}
	var lastErr error
	for _, d := range []string{dir, cache} {
		if d == "" {
			continue
		}
		path, err := fetch(url, d, file)
		if err == nil {
			return path, nil
		}
		var perm *os.PathError
		if !errors.As(err, &perm) {
			return "", err // the download itself failed: another folder would not help
		}
		lastErr = err
	}
	return "", lastErr
}

// cacheDir is the user's cache folder for this version, or "" when there is none.
func cacheDir() string {
	base, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(base, "pulumi-clouddb", "v"+version+"-"+target)
}

// fetch downloads the tarball at url, checks its SHA-256, and writes its executable into
// dir as file (through a temporary file and a rename, so a second process starting at the
// same time never runs half a file).
func fetch(url, dir, file string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, file+".download-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()

	fmt.Fprintf(os.Stderr, "%s: no Node.js %s or later here: downloading the single-file build once, from %s\n", name, minNode, url)
	client := &http.Client{Timeout: 15 * time.Minute}
	res, err := client.Get(url)
	if err != nil {
		return "", fmt.Errorf("downloading %s: %v", url, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return "", fmt.Errorf("downloading %s: %s", url, res.Status)
	}
	hash := sha256.New()
	if _, err := io.Copy(io.MultiWriter(tmp, hash), res.Body); err != nil {
		return "", fmt.Errorf("downloading %s: %v", url, err)
	}
	if got := hex.EncodeToString(hash.Sum(nil)); got != standaloneSHA256 {
		return "", fmt.Errorf("%s has SHA-256 %s, not the %s of release %s: it was not run, nor kept", url, got, standaloneSHA256, version)
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	out := filepath.Join(dir, file)
	if err := extract(tmp, name+exe(), out); err != nil {
		return "", fmt.Errorf("unpacking %s: %v", url, err)
	}
	return out, nil
}

// extract writes the tarball's entry `entry` to `out`, executable, through a temporary file.
func extract(r io.Reader, entry, out string) error {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return fmt.Errorf("it has no %s", entry)
		}
		if err != nil {
			return err
		}
		if filepath.Base(h.Name) != entry || h.Typeflag != tar.TypeReg {
			continue
		}
		tmp, err := os.CreateTemp(filepath.Dir(out), filepath.Base(out)+".unpack-*")
		if err != nil {
			return err
		}
		defer os.Remove(tmp.Name())
		if _, err := io.Copy(tmp, tr); err != nil {
			tmp.Close()
			return err
		}
		if err := tmp.Chmod(0o755); err != nil {
			tmp.Close()
			return err
		}
		if err := tmp.Close(); err != nil {
			return err
		}
		return os.Rename(tmp.Name(), out)
	}
}
