package app

import (
	"crypto/rand"
	"sync"
	"time"
)

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// Id prefixes, one per kind of object.
const (
	PrefixConversation = "conv_"
	PrefixMessage      = "msg_"
	PrefixTicket       = "tkt_"
	PrefixContact      = "ctc_"
	PrefixEvent        = "evt_"
	PrefixSite         = "site_"
	PrefixMember       = "mem_"
	PrefixKey          = "key_"
	PrefixNote         = "note_"
	PrefixMail         = "eml_"
	PrefixRequest      = "req_"
	PrefixAttachment   = "att_"
	PrefixCannedReply  = "cnr_"
	PrefixSynonym      = "syn_"
)

var idClock struct {
	sync.Mutex
	last uint64
}

// NewID returns prefix followed by 24 base62 characters: 10 that grow with
// time (milliseconds and a counter, so ids made later by this process sort
// later, which breaks ordering ties in insertion order) and 14 random ones.
func NewID(prefix string) string {
	idClock.Lock()
	v := uint64(time.Now().UnixMilli()) << 12
	if v <= idClock.last {
		v = idClock.last + 1
	}
	idClock.last = v
	idClock.Unlock()
	b := make([]byte, len(prefix)+24)
	copy(b, prefix)
	for i := len(prefix) + 9; i >= len(prefix); i-- { // 62^10 > 2^59: ample
		b[i] = base62[v%62]
		v /= 62
	}
	copy(b[len(prefix)+10:], randomBase62(14))
	return string(b)
}

// randomBase62 returns n uniformly random base62 characters.
func randomBase62(n int) []byte {
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/2)
	for len(out) < n {
		if _, err := rand.Read(buf); err != nil {
			panic("crypto/rand: " + err.Error())
		}
		for _, c := range buf {
			if c < 248 && len(out) < n { // 248 = 4*62: no modulo bias
				out = append(out, base62[c%62])
			}
		}
	}
	return out
}

// RandomToken returns n random base62 characters, for secrets.
func RandomToken(n int) string { return string(randomBase62(n)) }
