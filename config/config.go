// Package config loads chatsvc's configuration: built-in defaults, then a
// YAML file, then CHATSVC_* environment variables, then command-line flags.
package config

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"
	"github.com/knadh/koanf/parsers/yaml"
	"github.com/knadh/koanf/providers/confmap"
	"github.com/knadh/koanf/providers/env/v2"
	"github.com/knadh/koanf/providers/file"
	"github.com/knadh/koanf/providers/rawbytes"
	"github.com/knadh/koanf/providers/structs"
	"github.com/knadh/koanf/v2"
)

// Config is every setting; config.example.yaml documents each with its
// default (see docs/operations.md, Configuration).
type Config struct {
	Addr       string `koanf:"addr"`
	DataDir    string `koanf:"data_dir"`
	PublicURL  string `koanf:"public_url"`
	OwnerEmail string `koanf:"owner_email"`
	Log        struct {
		Format string `koanf:"format"`
		Level  string `koanf:"level"`
	} `koanf:"log"`
	Metrics struct {
		Token string `koanf:"token"`
	} `koanf:"metrics"`
	Backup struct {
		Every time.Duration `koanf:"every"`
		Keep  int           `koanf:"keep"`
	} `koanf:"backup"`
	Replica   Replica `koanf:"replica"`
	Retention struct {
		ClosedConversations time.Duration `koanf:"closed_conversations"`
		Visitors            time.Duration `koanf:"visitors"`
	} `koanf:"retention"`
	RateLimit struct {
		APIPerSecond    float64 `koanf:"api_per_second"`
		APIBurst        int     `koanf:"api_burst"`
		WidgetPerSecond float64 `koanf:"widget_per_second"`
		WidgetBurst     int     `koanf:"widget_burst"`
	} `koanf:"rate_limit"`
	Network struct {
		AllowPrivate bool `koanf:"allow_private"`
	} `koanf:"network"`
	Attachments struct {
		MaxBytes int64         `koanf:"max_bytes"`
		Timeout  time.Duration `koanf:"timeout"`
	} `koanf:"attachments"`
	Webhooks struct {
		Enabled     bool            `koanf:"enabled"`
		AllowHTTP   bool            `koanf:"allow_http"`
		RetryDelays []time.Duration `koanf:"retry_delays"`
		GiveUpAfter time.Duration   `koanf:"give_up_after"`
		Timeout     time.Duration   `koanf:"timeout"`
	} `koanf:"webhooks"`
	Notify struct {
		WaitingAfter time.Duration `koanf:"waiting_after"`
		VisitorAfter time.Duration `koanf:"visitor_after"`
	} `koanf:"notify"`
	Knowledge struct {
		SyncMinInterval time.Duration `koanf:"sync_min_interval"`
		NightlyAt       string        `koanf:"nightly_at"`
	} `koanf:"knowledge"`
	Crawler struct {
		MaxPages      int           `koanf:"max_pages"`
		MaxDepth      int           `koanf:"max_depth"`
		RespectRobots bool          `koanf:"respect_robots"`
		Delay         time.Duration `koanf:"delay"`
		Parallelism   int           `koanf:"parallelism"`
		Timeout       time.Duration `koanf:"timeout"`
		MaxPageBytes  int           `koanf:"max_page_bytes"`
	} `koanf:"crawler"`
	SMTP struct {
		Host     string `koanf:"host"`
		Port     int    `koanf:"port"`
		Username string `koanf:"username"`
		Password string `koanf:"password"`
		From     string `koanf:"from"`
		TLS      string `koanf:"tls"`
		DKIM     DKIM   `koanf:"dkim"`
	} `koanf:"smtp"`
	Inbound   Inbound `koanf:"inbound"`
	Assistant struct {
		Provider string `koanf:"provider"`
		OpenAI   struct {
			BaseURL string `koanf:"base_url"`
			APIKey  string `koanf:"api_key"`
			Model   string `koanf:"model"`
		} `koanf:"openai"`
		Embeddings struct {
			BaseURL string `koanf:"base_url"`
			APIKey  string `koanf:"api_key"`
			Model   string `koanf:"model"`
			// ModelDir is a model2vec folder: embeddings inside the
			// binary, instead of a server.
			ModelDir string `koanf:"model_dir"`
		} `koanf:"embeddings"`
	} `koanf:"assistant"`

	// Ignored says which CHATSVC_ environment variables set no setting:
	// the environment is shared with other programs (a script's own
	// CHATSVC_URL), so they are reported, not refused as a file's typo is.
	Ignored []string `koanf:"-"`

	derivedURL bool // PublicURL was made from Addr, not set
}

// Sources says where to read configuration from, above the defaults.
type Sources struct {
	Defaults []byte            // YAML with every key (the embedded config.example.yaml)
	File     string            // a config file; "" reads ./config.yaml when it exists
	Environ  []string          // environment, as os.Environ returns it
	Flags    map[string]string // settings given on the command line, by key
}

// EnvPrefix starts every environment variable that sets a key; "__" nests.
const EnvPrefix = "CHATSVC_"

// Load reads and checks the configuration.
func Load(src Sources) (*Config, error) {
	k := koanf.New(".")
	if err := k.Load(rawbytes.Provider(src.Defaults), yaml.Parser()); err != nil {
		return nil, fmt.Errorf("built-in defaults: %w", err)
	}
	path := src.File
	if path == "" {
		if _, err := os.Stat("config.yaml"); err == nil {
			path = "config.yaml"
		}
	}
	var ignored []string
	src.Environ, ignored = knownEnviron(src.Environ, k.Keys())
	o, err := readOrigins(src, path)
	if err != nil {
		return nil, err
	}
	if err := o.unknownKeys(k.Keys(), src.Flags); err != nil {
		return nil, err
	}
	defaults := k.Copy()
	if err := loadSettings(k, src, path); err != nil {
		return nil, err
	}
	// What was set beside the defaults, to tell whether public_url was.
	set := koanf.New(".")
	if err := loadSettings(set, src, path); err != nil {
		return nil, err
	}
	var c Config
	dc := &mapstructure.DecoderConfig{
		DecodeHook: mapstructure.ComposeDecodeHookFunc(
			durationHook, mapstructure.StringToSliceHookFunc(",")),
		WeaklyTypedInput: true, // environment values are strings
		ErrorUnused:      true, // a misspelt key is an error, not a silent default
	}
	if err := k.UnmarshalWithConf("", &c, koanf.UnmarshalConf{Tag: "koanf", DecoderConfig: dc}); err != nil {
		return nil, o.badValues(err, defaults, src.Flags)
	}
	if !set.Exists("public_url") {
		c.PublicURL, c.derivedURL = localURL(c.Addr), true
	}
	c.Ignored = ignored
	return &c, c.check()
}

// ListeningOn returns the configuration of a server whose listener got
// bound, the address that names the port when Addr asked for port 0: a
// public_url nobody set follows that port.
func (c *Config) ListeningOn(bound string) *Config {
	host, _, err := net.SplitHostPort(c.Addr)
	_, port, err2 := net.SplitHostPort(bound)
	if !c.derivedURL || err != nil || err2 != nil {
		return c
	}
	b := *c
	b.PublicURL = localURL(net.JoinHostPort(host, port))
	return &b
}

// loadSettings loads into k, over what it holds, the config file at path
// (if any), then the environment, then the flags.
func loadSettings(k *koanf.Koanf, src Sources, path string) error {
	if path != "" {
		if err := k.Load(file.Provider(path), yaml.Parser()); err != nil {
			return fmt.Errorf("config file %s: %w", path, err)
		}
	}
	environ := func() []string { return src.Environ }
	err := k.Load(env.Provider(".", env.Opt{Prefix: EnvPrefix, EnvironFunc: environ,
		TransformFunc: func(key, v string) (string, any) {
			key = strings.ToLower(strings.TrimPrefix(key, EnvPrefix))
			key = strings.ReplaceAll(key, "__", ".")
			if strings.Contains(v, ",") {
				return key, strings.Split(v, ",")
			}
			return key, v
		}}), nil)
	if err != nil {
		return fmt.Errorf("environment: %w", err)
	}
	flags := make(map[string]any, len(src.Flags))
	for key, v := range src.Flags {
		flags[key] = v
	}
	return k.Load(confmap.Provider(flags, "."), nil)
}

// localURL is the public_url of a server nobody named: http on localhost
// (or the address's own host) at the port it listens on.
func localURL(addr string) string {
	if CheckAddr(addr) != nil {
		return "http://localhost:8080" // serve refuses the address before it prints a URL
	}
	host, port, _ := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// CheckAddr tells whether addr is a listen address, HOST:PORT with a port
// from 0 to 65535, and says what to fix when it is not.
func CheckAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("addr %q is not HOST:PORT (for example :8080 or 127.0.0.1:8080)", addr)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return fmt.Errorf("addr %q: the port must be a number from 0 to 65535", addr)
	}
	return nil
}

// check refuses settings the service cannot run with.
func (c *Config) check() error {
	var errs []error
	bad := func(key, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", key, fmt.Sprintf(format, args...)))
	}
	if u, err := url.Parse(c.PublicURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		bad("public_url", "must be an absolute http(s) URL, got %q", c.PublicURL)
	}
	if c.DataDir == "" {
		bad("data_dir", "must not be empty")
	}
	if c.Attachments.MaxBytes < 1 || c.Attachments.Timeout <= 0 {
		bad("attachments", "max_bytes and timeout must be positive")
	}
	if len(c.Webhooks.RetryDelays) == 0 {
		bad("webhooks.retry_delays", "needs at least one delay")
	}
	for _, d := range c.Webhooks.RetryDelays {
		if d <= 0 {
			bad("webhooks.retry_delays", "delays must be positive, got %s", d)
		}
	}
	if c.Webhooks.Timeout <= 0 || c.Webhooks.GiveUpAfter <= 0 {
		bad("webhooks", "timeout and give_up_after must be positive")
	}
	if c.Notify.WaitingAfter < time.Second || c.Notify.WaitingAfter > 24*time.Hour {
		bad("notify.waiting_after", "must be between 1s and 24h, got %s", c.Notify.WaitingAfter)
	}
	if c.Notify.VisitorAfter < 0 || c.Notify.VisitorAfter > 7*24*time.Hour {
		bad("notify.visitor_after", "must be between 0 (off) and 168h, got %s", c.Notify.VisitorAfter)
	}
	if _, err := time.Parse("15:04", c.Knowledge.NightlyAt); err != nil {
		bad("knowledge.nightly_at", "must be HH:MM (UTC), got %q", c.Knowledge.NightlyAt)
	}
	if c.Crawler.MaxPages < 1 || c.Crawler.MaxDepth < 0 {
		bad("crawler", "max_pages must be at least 1 and max_depth at least 0")
	}
	if c.Crawler.Delay < 0 || c.Crawler.Parallelism < 1 || c.Crawler.Timeout <= 0 || c.Crawler.MaxPageBytes < 1024 {
		bad("crawler", "delay must not be negative, parallelism at least 1, timeout positive, max_page_bytes at least 1024")
	}
	if c.Backup.Every < 0 || c.Backup.Keep < 1 {
		bad("backup", "every must not be negative and keep must be at least 1")
	}
	errs = append(errs, c.Replica.check()...)
	if c.Retention.ClosedConversations < 0 || c.Retention.Visitors < 0 {
		bad("retention", "closed_conversations and visitors must not be negative")
	}
	if c.RateLimit.APIPerSecond < 0 || c.RateLimit.WidgetPerSecond < 0 || c.RateLimit.APIBurst < 0 || c.RateLimit.WidgetBurst < 0 {
		bad("rate_limit", "rates and bursts must not be negative")
	}
	if !oneOf(c.SMTP.TLS, "none", "starttls", "tls") {
		bad("smtp.tls", "must be none, starttls or tls, got %q", c.SMTP.TLS)
	}
	errs = append(errs, c.Inbound.check()...)
	errs = append(errs, c.SMTP.DKIM.check()...)
	if !oneOf(c.Assistant.Provider, "extractive", "openai") {
		bad("assistant.provider", "must be extractive or openai, got %q", c.Assistant.Provider)
	}
	if e := c.Assistant.Embeddings; e.ModelDir != "" {
		if e.BaseURL != "" {
			bad("assistant.embeddings.model_dir", "set either model_dir (a model2vec folder) or base_url (an embeddings server), not both")
		}
		for _, f := range []string{"tokenizer.json", "model.safetensors"} {
			if fi, err := os.Stat(filepath.Join(e.ModelDir, f)); err != nil || !fi.Mode().IsRegular() {
				bad("assistant.embeddings.model_dir", "must be a model2vec folder holding %s and model.safetensors; %s has no %s", "tokenizer.json", e.ModelDir, f)
				break
			}
		}
	}
	if e := c.Assistant.Embeddings; e.BaseURL != "" {
		if u, err := url.Parse(e.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("assistant.embeddings.base_url", "must be an http or https URL such as http://127.0.0.1:11434/v1, got %q", e.BaseURL)
		}
		if e.Model == "" {
			bad("assistant.embeddings.model", "must name the embeddings model when base_url is set, for example nomic-embed-text")
		}
	}
	if !oneOf(c.Log.Format, "text", "json") {
		bad("log.format", "must be text or json, got %q", c.Log.Format)
	}
	if !oneOf(c.Log.Level, "debug", "info", "warn", "error") {
		bad("log.level", "must be debug, info, warn or error, got %q", c.Log.Level)
	}
	return errors.Join(errs...)
}

// durationHook reads durations as time.ParseDuration does, and also in
// whole days ("30d", "1d12h"), the unit retention periods are thought in.
func durationHook(from, to reflect.Type, data any) (any, error) {
	if from.Kind() != reflect.String || to != reflect.TypeOf(time.Duration(0)) {
		return data, nil
	}
	return parseDuration(data.(string))
}

// parseDuration is time.ParseDuration with a leading count of days allowed.
func parseDuration(s string) (time.Duration, error) {
	days, rest, ok := strings.Cut(s, "d")
	if !ok {
		return time.ParseDuration(s)
	}
	n, err := strconv.Atoi(days)
	if err != nil || n < 0 || n > 100000 {
		return 0, fmt.Errorf("invalid duration %q", s)
	}
	d := time.Duration(n) * 24 * time.Hour
	if rest == "" {
		return d, nil
	}
	more, err := time.ParseDuration(rest)
	if err != nil || more < 0 {
		return 0, fmt.Errorf("invalid duration %q", s)
	}
	return d + more, nil
}

func oneOf(v string, allowed ...string) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	return false
}

// secretKeys are the settings left out of a backup unless asked for.
var secretKeys = []string{"smtp.password", "replica.secret_access_key", "assistant.openai.api_key", "assistant.embeddings.api_key", "metrics.token"}

// YAML renders the configuration; secrets are blanked unless withSecrets.
func (c *Config) YAML(withSecrets bool) ([]byte, error) {
	k := koanf.New(".")
	if err := k.Load(structs.Provider(c, "koanf"), nil); err != nil {
		return nil, err
	}
	if !withSecrets {
		for _, key := range secretKeys {
			if k.String(key) != "" {
				k.Set(key, "(left out of the backup)")
			}
		}
	}
	return k.Marshal(yaml.Parser())
}
