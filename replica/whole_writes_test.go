package replica

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	lsfile "github.com/benbjohnson/litestream/file"
	"github.com/superfly/ltx"
)

// ltxFile encodes an LTX file of pages random pages, as a merge writes one.
func ltxFile(t *testing.T, pages int) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc, err := ltx.NewEncoder(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if err := enc.EncodeHeader(ltx.Header{Version: ltx.Version, Flags: ltx.HeaderFlagNoChecksum, PageSize: 4096,
		Commit: uint32(pages), MinTXID: 1, MaxTXID: 1, Timestamp: time.Now().UnixMilli()}); err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	page := make([]byte, 4096)
	for pgno := 1; pgno <= pages; pgno++ {
		for i := range page[:512] { // the rest zeros: a page compresses as a b-tree page does
			page[i] = byte(rnd.Uint32())
		}
		if err := enc.EncodePage(ltx.PageHeader{Pgno: uint32(pgno)}, page); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// trickle streams b through a pipe in pieces of n bytes, as Litestream's
// merges hand a file over, and ends the stream with end (nil: EOF).
func trickle(b []byte, n int, end error) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		for len(b) > 0 {
			k := min(n, len(b))
			if _, err := pw.Write(b[:k]); err != nil {
				return
			}
			b = b[k:]
		}
		pw.CloseWithError(end)
	}()
	return pr
}

// TestWholeWritesStoreTheFileAsStreamed: a file streamed a few bytes at a
// time is stored whole and unchanged by the file client behind wholeWrites.
func TestWholeWritesStoreTheFileAsStreamed(t *testing.T) {
	want := ltxFile(t, 300)
	c := wholeWrites{lsfile.NewReplicaClient(t.TempDir())}
	ctx := context.Background()
	if _, err := c.WriteLTXFile(ctx, 1, 1, 1, trickle(want, 7, nil)); err != nil {
		t.Fatal(err)
	}
	rc, err := c.OpenLTXFile(ctx, 1, 1, 1, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	got, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("stored %d bytes, not the %d streamed", len(got), len(want))
	}
}

// TestFullReadsFillEachReadAndPassErrors: each read is filled from a
// trickling stream; the tail comes whole before EOF, and a failed stream's
// error reaches the reader after the bytes that came before it.
func TestFullReadsFillEachReadAndPassErrors(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789"), 100) // 1,000 bytes
	r := fullReads{trickle(data, 3, nil)}
	buf := make([]byte, 256)
	var sizes []int
	for {
		n, err := r.Read(buf)
		if n > 0 {
			sizes = append(sizes, n)
		}
		if errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	if want := []int{256, 256, 256, 232}; !slices.Equal(sizes, want) {
		t.Fatalf("reads of %v bytes, want %v", sizes, want)
	}

	failed := errors.New("merge failed")
	r = fullReads{trickle(data[:100], 3, failed)}
	n, err := r.Read(buf)
	if n != 100 || !errors.Is(err, failed) {
		t.Fatalf("a failed stream: %d bytes and %v, want 100 and %v", n, err, failed)
	}
}
