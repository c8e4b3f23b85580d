package main

import (
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strings"
)

// assetURL is where this target's single-file tarball is: the release the engine downloads
// the plugin from (the schema's pluginDownloadURL, or what PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES
// turns it into), and the asset's name.
func assetURL() (string, error) {
	base := pluginDownloadURL
	if o, ok, err := override(os.Getenv("PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES"), base); err != nil {
		return "", err
	} else if ok {
		base = o
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", fmt.Errorf("plugin download URL %q: %v", base, err)
	}
	switch u.Scheme {
	case "github":
		// github://<api host>/<owner>/<repo>: a release's assets are at github.com/<owner>/<repo>/releases/download/v<version>.
		host := strings.TrimPrefix(u.Host, "api.")
		base = fmt.Sprintf("https://%s%s/releases/download/v${VERSION}", host, strings.TrimSuffix(u.Path, "/"))
	case "http", "https":
	default:
		return "", fmt.Errorf("plugin download URL %q: the launcher downloads over http(s) or from GitHub only", base)
	}
	base = interpolate(base)
	asset := fmt.Sprintf("%s-standalone-v%s-%s.tar.gz", name, version, target)
	return strings.TrimSuffix(base, "/") + "/" + asset, nil
}

// override applies the engine's PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES (`regexp=URL,...`, the
// first match wins, `$1` and `${name}` stand for the match's groups) to source.
func override(overrides, source string) (string, bool, error) {
	if overrides == "" {
		return "", false, nil
	}
	for _, pair := range strings.Split(overrides, ",") {
		split := strings.Split(pair, "=")
		if len(split) != 2 || split[0] == "" || split[1] == "" {
			return "", false, fmt.Errorf("PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: expected \"regexp1=URL1,regexp2=URL2\", got %q", overrides)
		}
		re, err := regexp.Compile(split[0])
		if err != nil {
			return "", false, fmt.Errorf("PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: %v", err)
		}
		match := re.FindStringSubmatch(source)
		if match == nil {
			continue
		}
		result := split[1]
		for i, group := range re.SubexpNames() {
			result = strings.ReplaceAll(result, fmt.Sprintf("$%d", i), match[i])
			if i != 0 && group != "" {
				result = strings.ReplaceAll(result, "${"+group+"}", match[i])
			}
		}
		return result, true, nil
	}
	return "", false, nil
}

// interpolate replaces ${NAME}, ${VERSION}, ${OS} and ${ARCH} (or their URL-escaped forms), as the engine does.
func interpolate(u string) string {
	goos, arch, _ := strings.Cut(target, "-")
	values := map[string]string{"NAME": "clouddb", "VERSION": version, "OS": goos, "ARCH": arch}
	for k, v := range values {
		u = strings.ReplaceAll(u, "${"+k+"}", v)
		u = strings.ReplaceAll(u, "$%7B"+k+"%7D", v)
	}
	return u
}
