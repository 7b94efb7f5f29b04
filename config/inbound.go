package config

import (
	"fmt"
	"strings"
	"time"
)

// Inbound is how e-mail comes in: a built-in SMTP receiver, IMAP polling,
// or both; with neither, replies to the service's e-mails reach nobody.
type Inbound struct {
	SMTPAddr  string `koanf:"smtp_addr"` // e.g. ":2525"; empty: no receiver
	Domain    string `koanf:"domain"`    // the domain replies and new mail are addressed to
	MaxBytes  int64  `koanf:"max_bytes"` // the largest message taken in
	PerSender int    `koanf:"per_sender_per_hour"`
	IMAP      IMAP   `koanf:"imap"`
}

// IMAP is a mailbox polled for new mail.
type IMAP struct {
	Host         string        `koanf:"host"` // empty: no polling
	Port         int           `koanf:"port"`
	Username     string        `koanf:"username"`
	Password     string        `koanf:"password"`
	TLS          string        `koanf:"tls"` // none, starttls or tls
	Mailbox      string        `koanf:"mailbox"`
	PollInterval time.Duration `koanf:"poll_interval"`
}

// Enabled tells whether any way in is configured.
func (in Inbound) Enabled() bool { return in.SMTPAddr != "" || in.IMAP.Host != "" }

func (in Inbound) check() []error {
	var errs []error
	bad := func(key, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", key, fmt.Sprintf(format, args...)))
	}
	if in.SMTPAddr != "" && in.Domain == "" {
		bad("inbound.domain", "must be set when inbound.smtp_addr is (the domain whose mail the receiver accepts)")
	}
	if strings.ContainsAny(in.Domain, "@ /") {
		bad("inbound.domain", "must be a domain name such as support.example.com, got %q", in.Domain)
	}
	if in.MaxBytes < 1024 {
		bad("inbound.max_bytes", "must be at least 1024, got %d", in.MaxBytes)
	}
	if in.PerSender < 1 {
		bad("inbound.per_sender_per_hour", "must be at least 1, got %d", in.PerSender)
	}
	if in.IMAP.Host == "" {
		return errs
	}
	if in.IMAP.Port < 1 || in.IMAP.Port > 65535 {
		bad("inbound.imap.port", "must be a port number, got %d", in.IMAP.Port)
	}
	if !oneOf(in.IMAP.TLS, "none", "starttls", "tls") {
		bad("inbound.imap.tls", "must be none, starttls or tls, got %q", in.IMAP.TLS)
	}
	if in.IMAP.Mailbox == "" {
		bad("inbound.imap.mailbox", "must not be empty")
	}
	if in.IMAP.PollInterval < time.Second {
		bad("inbound.imap.poll_interval", "must be at least 1s, got %s", in.IMAP.PollInterval)
	}
	return errs
}

// DKIM signs outgoing mail when all three are set.
type DKIM struct {
	Selector string `koanf:"selector"`
	Domain   string `koanf:"domain"`
	KeyFile  string `koanf:"key_file"` // PEM private key (RSA or Ed25519)
}

func (d DKIM) check() []error {
	set := 0
	for _, v := range []string{d.Selector, d.Domain, d.KeyFile} {
		if v != "" {
			set++
		}
	}
	if set != 0 && set != 3 {
		return []error{fmt.Errorf("smtp.dkim: selector, domain and key_file are set together or not at all")}
	}
	return nil
}
