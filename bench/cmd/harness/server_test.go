package main

import (
	"bytes"
	"testing"
)

func TestServeLogReportsTheAddressAndKeepsWarnings(t *testing.T) {
	var out bytes.Buffer
	l := &serveLog{out: &out, addr: make(chan string, 1)}
	for _, chunk := range []string{
		"time=1 level=INFO msg=\"retention: anonymous visitors forgotten\" count=0\ntime=2 level=INFO msg=\"chatsvc lis",
		"tening\" addr=127.0.0.1:40123 public_url=http://127.0.0.1:40123\ntime=3 level=WARN msg=\"slow\"\n",
	} {
		l.Write([]byte(chunk))
	}
	select {
	case addr := <-l.addr:
		if addr != "127.0.0.1:40123" {
			t.Fatalf("address %q", addr)
		}
	default:
		t.Fatal("the listening line was not reported")
	}
	if got := out.String(); got != "time=3 level=WARN msg=\"slow\"\n" {
		t.Fatalf("passed on %q, want only the warning", got)
	}
}
