package mailer

import (
	"bytes"
	"crypto"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/emersion/go-msgauth/dkim"
	gomail "github.com/wneessen/go-mail"
)

// DKIM is the signing identity of smtp.dkim; a zero value signs nothing.
type DKIM struct {
	Selector string
	Domain   string
	KeyFile  string // PEM: PKCS#8, PKCS#1 (RSA) private key
}

// signedHeaders are the headers the signature covers.
var signedHeaders = []string{"From", "To", "Subject", "Date", "Message-ID", "Reply-To", "In-Reply-To", "References",
	"MIME-Version", "Content-Type", "Auto-Submitted"}

// sign adds a DKIM-Signature header to msg. The key is read for each
// e-mail, so a rotated key applies without a restart.
func (d DKIM) sign(msg *gomail.Msg) error {
	if d.KeyFile == "" {
		return nil
	}
	key, err := loadKey(d.KeyFile)
	if err != nil {
		return err
	}
	var raw bytes.Buffer
	if _, err := msg.WriteTo(&raw); err != nil {
		return err
	}
	var signed bytes.Buffer
	err = dkim.Sign(&signed, bytes.NewReader(raw.Bytes()), &dkim.SignOptions{Domain: d.Domain, Selector: d.Selector,
		Signer: key, HeaderKeys: signedHeaders, HeaderCanonicalization: dkim.CanonicalizationRelaxed,
		BodyCanonicalization: dkim.CanonicalizationRelaxed})
	if err != nil {
		return fmt.Errorf("dkim: %w", err)
	}
	// Sign writes the header before the message; go-mail writes the same
	// bytes again (its boundaries are fixed by the first write).
	header := strings.TrimPrefix(strings.TrimSuffix(string(signed.Bytes()[:signed.Len()-raw.Len()]), "\r\n"), "DKIM-Signature: ")
	msg.SetGenHeaderPreformatted(gomail.Header("DKIM-Signature"), header)
	return nil
}

func loadKey(file string) (crypto.Signer, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("smtp.dkim.key_file: %w", err)
	}
	block, _ := pem.Decode(b)
	if block == nil {
		return nil, errors.New("smtp.dkim.key_file: no PEM block")
	}
	if k, err := x509.ParsePKCS1PrivateKey(block.Bytes); err == nil {
		return k, nil
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("smtp.dkim.key_file: %w", err)
	}
	signer, ok := k.(crypto.Signer)
	if !ok {
		return nil, errors.New("smtp.dkim.key_file: not a signing key")
	}
	return signer, nil
}
