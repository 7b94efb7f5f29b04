package replica

import (
	"context"
	"errors"
	"io"
	"os"

	"github.com/benbjohnson/litestream"
	"github.com/superfly/ltx"
)

// wholeWrites is a Litestream client that hands the store's client its
// files in reads as large as the client asks for. Litestream's merges and
// snapshots stream each file through a pipe that gives one page, or one
// page's header, per read, and the file and SFTP clients write each read
// as it comes: three system calls (or network writes) a page, for files of
// tens of megabytes. A file Litestream uploads from its own folder is an
// *os.File and passes as it is (copied by the kernel, without reads).
type wholeWrites struct {
	litestream.ReplicaClient
}

// WriteLTXFile stores r through the wrapped client, in whole reads.
func (c wholeWrites) WriteLTXFile(ctx context.Context, level int, minTXID, maxTXID ltx.TXID, r io.Reader) (*ltx.FileInfo, error) {
	if _, ok := r.(*os.File); !ok {
		r = fullReads{r}
	}
	return c.ReplicaClient.WriteLTXFile(ctx, level, minTXID, maxTXID, r)
}

// fullReads fills each read's buffer unless the stream ends first.
type fullReads struct{ r io.Reader }

func (f fullReads) Read(p []byte) (int, error) {
	n, err := io.ReadFull(f.r, p)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = nil // the stream ended midway: the next read says so
	}
	return n, err
}
