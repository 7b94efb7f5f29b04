package config_test

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"chatsvc/config"
)

func defaults(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../config.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDefaultsMatchDesign(t *testing.T) {
	c, err := config.Load(config.Sources{Defaults: defaults(t), File: writeFile(t, "{}\n")})
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"addr", c.Addr, ":8080"},
		{"data_dir", c.DataDir, "./data"},
		{"public_url", c.PublicURL, "http://localhost:8080"},
		{"network.allow_private", c.Network.AllowPrivate, false},
		{"webhooks.enabled", c.Webhooks.Enabled, true},
		{"webhooks.allow_http", c.Webhooks.AllowHTTP, false},
		{"webhooks.retry_delays", c.Webhooks.RetryDelays, []time.Duration{time.Minute, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 6 * time.Hour}},
		{"webhooks.give_up_after", c.Webhooks.GiveUpAfter, 72 * time.Hour},
		{"webhooks.timeout", c.Webhooks.Timeout, 10 * time.Second},
		{"notify.waiting_after", c.Notify.WaitingAfter, 2 * time.Minute},
		{"notify.visitor_after", c.Notify.VisitorAfter, 5 * time.Minute},
		{"knowledge.sync_min_interval", c.Knowledge.SyncMinInterval, 10 * time.Minute},
		{"knowledge.nightly_at", c.Knowledge.NightlyAt, "03:00"},
		{"crawler.max_pages", c.Crawler.MaxPages, 500},
		{"crawler.max_depth", c.Crawler.MaxDepth, 3},
		{"crawler.respect_robots", c.Crawler.RespectRobots, true},
		{"crawler.delay", c.Crawler.Delay, 100 * time.Millisecond},
		{"crawler.parallelism", c.Crawler.Parallelism, 2},
		{"crawler.timeout", c.Crawler.Timeout, 15 * time.Second},
		{"crawler.max_page_bytes", c.Crawler.MaxPageBytes, 2 << 20},
		{"smtp.host", c.SMTP.Host, ""},
		{"attachments.max_bytes", c.Attachments.MaxBytes, int64(25 << 20)},
		{"attachments.timeout", c.Attachments.Timeout, 20 * time.Second},
		{"assistant.provider", c.Assistant.Provider, "extractive"},
		{"rate_limit.api_per_second", c.RateLimit.APIPerSecond, 0.0},
		{"rate_limit.widget_per_second", c.RateLimit.WidgetPerSecond, 20.0},
		{"retention.closed_conversations", c.Retention.ClosedConversations, time.Duration(0)},
		{"retention.visitors", c.Retention.Visitors, 30 * 24 * time.Hour},
	}
	for _, ch := range checks {
		if !reflect.DeepEqual(ch.got, ch.want) {
			t.Errorf("%s = %v, want %v", ch.name, ch.got, ch.want)
		}
	}
}

func writeFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPrecedence(t *testing.T) {
	file := writeFile(t, "addr: \":9000\"\ndata_dir: /from/file\nsmtp:\n  host: file.example.com\n  port: 2525\n")
	env := []string{"CHATSVC_DATA_DIR=/from/env", "CHATSVC_SMTP__HOST=env.example.com",
		"CHATSVC_WEBHOOKS__RETRY_DELAYS=1s,2s", "CHATSVC_NETWORK__ALLOW_PRIVATE=true", "OTHER_VAR=1"}
	c, err := config.Load(config.Sources{Defaults: defaults(t), File: file, Environ: env,
		Flags: map[string]string{"data_dir": "/from/flag"}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":9000" || c.SMTP.Port != 2525 {
		t.Errorf("file should beat defaults: addr %q port %d", c.Addr, c.SMTP.Port)
	}
	if c.SMTP.Host != "env.example.com" || !c.Network.AllowPrivate {
		t.Errorf("env should beat file: smtp.host %q allow_private %v", c.SMTP.Host, c.Network.AllowPrivate)
	}
	if want := []time.Duration{time.Second, 2 * time.Second}; !reflect.DeepEqual(c.Webhooks.RetryDelays, want) {
		t.Errorf("env list: retry_delays %v, want %v", c.Webhooks.RetryDelays, want)
	}
	if c.DataDir != "/from/flag" {
		t.Errorf("flag should beat env: data_dir %q", c.DataDir)
	}
}

// Retention periods are written in days, alone or followed by a Go
// duration, in the file and in the environment alike.
func TestDurationsInDays(t *testing.T) {
	c, err := config.Load(config.Sources{Defaults: defaults(t), File: writeFile(t, "retention:\n  visitors: 1d12h\n"),
		Environ: []string{"CHATSVC_RETENTION__CLOSED_CONVERSATIONS=90d"}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Retention.Visitors != 36*time.Hour || c.Retention.ClosedConversations != 90*24*time.Hour {
		t.Errorf("retention: visitors %v, closed_conversations %v", c.Retention.Visitors, c.Retention.ClosedConversations)
	}
}

func TestBadSettingsAreRefused(t *testing.T) {
	cases := map[string]string{
		"misspelt key":       "adress: \":1\"\n",
		"relative url":       "public_url: example.com\n",
		"bad duration":       "webhooks:\n  timeout: soon\n",
		"bad nightly time":   "knowledge:\n  nightly_at: \"3am\"\n",
		"bad tls mode":       "smtp:\n  tls: maybe\n",
		"bad provider":       "assistant:\n  provider: oracle\n",
		"embeddings url":     "assistant:\n  embeddings:\n    base_url: ftp://models\n    model: m\n",
		"embeddings model":   "assistant:\n  embeddings:\n    base_url: http://127.0.0.1:11434/v1\n",
		"empty model folder": "assistant:\n  embeddings:\n    model_dir: " + t.TempDir() + "\n",
		"folder and server":  "assistant:\n  embeddings:\n    model_dir: /nonexistent\n    base_url: http://127.0.0.1:11434/v1\n    model: m\n",
		"no retry delays":    "webhooks:\n  retry_delays: []\n",
		"instant alert":      "notify:\n  waiting_after: 0s\n",
		"negative visitor":   "notify:\n  visitor_after: -1m\n",
		"zero crawler pages": "crawler:\n  max_pages: 0\n",
		"zero parallelism":   "crawler:\n  parallelism: 0\n",
		"tiny page cap":      "crawler:\n  max_page_bytes: 10\n",
		"bad days":           "retention:\n  visitors: \"30x\"\n",
		"days and junk":      "retention:\n  visitors: \"2dx\"\n",
		"negative retention": "retention:\n  closed_conversations: \"-1h\"\n",
	}
	for name, body := range cases {
		if _, err := config.Load(config.Sources{Defaults: defaults(t), File: writeFile(t, body)}); err == nil {
			t.Errorf("%s: accepted %q", name, body)
		}
	}
	if _, err := config.Load(config.Sources{Defaults: defaults(t), Environ: []string{"CHATSVC_SMTP__PORT=abc"}, File: writeFile(t, "{}")}); err == nil || !strings.Contains(err.Error(), "port") {
		t.Errorf("non-numeric env port: %v", err)
	}
}

// A server asked for port 0 links to the port its listener got, unless a
// public_url was set.
func TestPublicURLFollowsTheBoundPort(t *testing.T) {
	cases := []struct {
		flags map[string]string
		bound string
		want  string
	}{
		{map[string]string{"addr": ":0"}, "[::]:41234", "http://localhost:41234"},
		{map[string]string{"addr": "127.0.0.1:0"}, "127.0.0.1:41234", "http://127.0.0.1:41234"},
		{map[string]string{"addr": "localhost:9090"}, "127.0.0.1:9090", "http://localhost:9090"},
		{map[string]string{"addr": ":0", "public_url": "https://chat.example.com"}, "[::]:41234", "https://chat.example.com"},
	}
	for _, c := range cases {
		cfg, err := config.Load(config.Sources{Defaults: defaults(t), File: writeFile(t, "{}\n"), Flags: c.flags})
		if err != nil {
			t.Fatal(err)
		}
		if got := cfg.ListeningOn(c.bound).PublicURL; got != c.want {
			t.Errorf("flags %v bound to %s: public_url %q, want %q", c.flags, c.bound, got, c.want)
		}
	}
}

// Without a public_url of its own, a server on another address links to
// that address; a public_url given anywhere is kept.
func TestPublicURLFollowsAddrUnlessSet(t *testing.T) {
	cases := []struct {
		flags   map[string]string
		environ []string
		want    string
	}{
		{map[string]string{"addr": ":9090"}, nil, "http://localhost:9090"},
		{map[string]string{"addr": "0.0.0.0:9090"}, nil, "http://localhost:9090"},
		{map[string]string{"addr": "127.0.0.1:9091"}, nil, "http://127.0.0.1:9091"},
		{map[string]string{"addr": "[::1]:9092"}, nil, "http://[::1]:9092"},
		{map[string]string{"addr": ":9090"}, []string{"CHATSVC_PUBLIC_URL=https://chat.example.com"}, "https://chat.example.com"},
		{map[string]string{"addr": ":9090", "public_url": "http://localhost:8080"}, nil, "http://localhost:8080"},
	}
	for _, c := range cases {
		got, err := config.Load(config.Sources{Defaults: defaults(t), File: writeFile(t, "{}\n"), Flags: c.flags, Environ: c.environ})
		if err != nil {
			t.Fatal(err)
		}
		if got.PublicURL != c.want {
			t.Errorf("flags %v, env %v: public_url %q, want %q", c.flags, c.environ, got.PublicURL, c.want)
		}
	}
}

// A mistake names where it was made, suggests the setting meant, and shows
// the value with the default as an example.
func TestMistakesSayWhereAndWhat(t *testing.T) {
	file := writeFile(t, "adr: \":9000\"\ncrawler:\n  max_pages: many\n")
	for _, c := range []struct {
		name string
		src  config.Sources
		want []string
	}{
		{"a misspelt key in the file", config.Sources{File: file},
			[]string{"config file " + file + `: unknown setting "adr" (did you mean "addr"?)`}},
		{"bad values", config.Sources{File: writeFile(t, "knowledge:\n  sync_min_interval: 10x\n"),
			Environ: []string{"CHATSVC_WEBHOOKS__ENABLED=maybe"}},
			[]string{`knowledge.sync_min_interval is "10x", which is not a duration such as 90s, 10m, 2h or 30d (the default is 10m)`,
				`environment variable CHATSVC_WEBHOOKS__ENABLED: webhooks.enabled is "maybe", which is not true or false (the default is true)`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.src.Defaults = defaults(t)
			_, err := config.Load(c.src)
			if err == nil {
				t.Fatal("loaded")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// A CHATSVC_ variable that sets no setting belongs to some other program
// sharing the environment: it is reported, with the setting it may mean,
// and the configuration loads.
func TestUnknownEnvironmentIsIgnored(t *testing.T) {
	c, err := config.Load(config.Sources{Defaults: defaults(t), File: writeFile(t, "{}\n"),
		Environ: []string{"CHATSVC_URL=http://x", "CHATSVC_SMTP__PORTT=25", "CHATSVC_SMTP__PORT=2525", "HOME=/root"}})
	if err != nil {
		t.Fatal(err)
	}
	if c.SMTP.Port != 2525 {
		t.Errorf("smtp.port %d, want 2525 from the environment", c.SMTP.Port)
	}
	want := []string{
		`environment variable CHATSVC_URL sets no setting ("url"), so it is ignored`,
		`environment variable CHATSVC_SMTP__PORTT sets no setting ("smtp.portt"), so it is ignored; did you mean "smtp.port"?`,
	}
	if !slices.Equal(c.Ignored, want) {
		t.Errorf("ignored %q,\nwant %q", c.Ignored, want)
	}
}
