package config

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/go-viper/mapstructure/v2"
	"github.com/knadh/koanf/parsers/yaml"
	"github.com/knadh/koanf/providers/file"
	"github.com/knadh/koanf/v2"
)

// origins tells where a setting came from, for messages that point the
// operator at the line to fix.
type origins struct {
	path string               // the config file, or ""
	file *koanf.Koanf         // what the file sets
	env  map[string][2]string // key -> the environment variable setting it, and its value
}

func readOrigins(src Sources, path string) (*origins, error) {
	o := &origins{path: path, file: koanf.New("."), env: map[string][2]string{}}
	if path != "" {
		if err := o.file.Load(file.Provider(path), yaml.Parser()); err != nil {
			return nil, fmt.Errorf("config file %s: %w", path, err)
		}
	}
	for _, kv := range src.Environ {
		name, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, EnvPrefix) {
			o.env[envKey(name)] = [2]string{name, v}
		}
	}
	return o, nil
}

// envKey is the key an environment variable sets: CHATSVC_SMTP__HOST is smtp.host.
func envKey(name string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(name, EnvPrefix)), "__", ".")
}

// of names where key was set: the flag, environment variable or file.
func (o *origins) of(key string, flags map[string]string) string {
	if _, ok := flags[key]; ok {
		return "flag --" + strings.ReplaceAll(key, "_", "-")
	}
	if e, ok := o.env[key]; ok {
		return "environment variable " + e[0]
	}
	if o.path != "" && o.file.Exists(key) {
		return "config file " + o.path
	}
	return "built-in defaults"
}

// knownEnviron keeps the environment variables that set one of the known
// keys (and those without the prefix), and explains the others.
func knownEnviron(environ, known []string) (keep, ignored []string) {
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, EnvPrefix) || slices.Contains(known, envKey(name)) {
			keep = append(keep, kv)
			continue
		}
		msg := fmt.Sprintf("environment variable %s sets no setting (%q), so it is ignored", name, envKey(name))
		if near := nearest(envKey(name), known); near != "" {
			msg += fmt.Sprintf("; did you mean %q?", near)
		}
		ignored = append(ignored, msg)
	}
	return keep, ignored
}

// unknownKeys refuses keys that no setting has, suggesting the nearest one.
func (o *origins) unknownKeys(known []string, flags map[string]string) error {
	isKnown := map[string]bool{}
	for _, k := range known {
		isKnown[k] = true
	}
	var given []string
	given = append(given, o.file.Keys()...)
	for k := range o.env {
		given = append(given, k)
	}
	sort.Strings(given)
	var errs []error
	for _, k := range given {
		if isKnown[k] {
			continue
		}
		msg := fmt.Sprintf("%s: unknown setting %q", o.of(k, flags), k)
		if near := nearest(k, known); near != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", near)
		}
		errs = append(errs, errors.New(msg+"; config.example.yaml lists every setting"))
	}
	return errors.Join(errs...)
}

// badValues explains the values that could not be read, with the value
// and the default as an example.
func (o *origins) badValues(err error, defaults *koanf.Koanf, flags map[string]string) error {
	all := []error{err}
	var joined interface{ Unwrap() []error }
	if errors.As(err, &joined) {
		all = joined.Unwrap()
	}
	var out []error
	for _, e := range all {
		var de *mapstructure.DecodeError
		if !errors.As(e, &de) {
			out = append(out, e)
			continue
		}
		key := de.Name()
		want := "a valid value"
		var pe *mapstructure.ParseError
		switch {
		case errors.As(de, &pe):
			want = kinds[pe.Expected.Kind().String()]
		case strings.Contains(de.Unwrap().Error(), "duration"):
			want = "a duration such as 90s, 10m, 2h or 30d"
		}
		out = append(out, fmt.Errorf("%s: %s is %q, which is not %s (the default is %s)",
			o.of(key, flags), key, fmt.Sprint(o.value(key)), want, defaults.String(key)))
	}
	return errors.Join(out...)
}

var kinds = map[string]string{"int": "a whole number", "int64": "a whole number", "bool": "true or false",
	"float64": "a number", "string": "text"}

// value is what the operator set for key, as they wrote it.
func (o *origins) value(key string) any {
	if e, ok := o.env[key]; ok {
		return e[1]
	}
	return o.file.Get(key)
}

// nearest is the known key closest to k in edit distance, if close enough
// to be a typing mistake.
func nearest(k string, known []string) string {
	best, bestD := "", max(2, len(k)/3)+1
	for _, c := range known {
		if d := distance(k, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// distance is the Levenshtein distance between a and b.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
