package inbound_test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"os"
	"path/filepath"
	"testing"

	"github.com/emersion/go-msgauth/dkim"

	"chatsvc/mailer"
)

// With smtp.dkim set, what reaches the SMTP server carries a DKIM
// signature that verifies against the published key.
func TestDKIMSignature(t *testing.T) {
	t.Parallel()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(t.TempDir(), "dkim.pem")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	l := newLoop(t, 0)
	l.dkim = mailer.DKIM{Selector: "chat", Domain: domain, KeyFile: keyFile}
	l.restart()
	l.ticket("ann@example.com")
	l.send()
	raw := l.sink.Received()[0].Data
	record := "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)
	vs, err := dkim.VerifyWithOptions(bytes.NewReader(raw), &dkim.VerifyOptions{LookupTXT: func(name string) ([]string, error) {
		if name != "chat._domainkey."+domain {
			t.Errorf("looked up %q", name)
		}
		return []string{record}, nil
	}})
	if err != nil || len(vs) != 1 || vs[0].Err != nil || vs[0].Domain != domain {
		t.Fatalf("verification %+v, %v\n%s", vs, err, raw)
	}
}
