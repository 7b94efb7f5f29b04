package web

import (
	"mime"
	"net/http"
	"strconv"
	"time"
)

// downloadFile serves an attachment by its signed URL; the signature is the
// credential, so no API key is needed. The file is always offered as a
// download under its original name, with a content type that cannot run
// script, and the browser is told not to guess another one.
func (h *handlers) downloadFile(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "expires", "signature")
	if err != nil {
		writeError(w, r, err)
		return
	}
	d, err := h.svc.OpenAttachment(r.Context(), r.PathValue("id"), r.PathValue("name"), q.Get("expires"), q.Get("signature"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	defer d.File.Close()
	disposition := mime.FormatMediaType("attachment", map[string]string{"filename": d.Name})
	if disposition == "" {
		disposition = "attachment"
	}
	hdr := w.Header()
	hdr.Set("Content-Type", d.ContentType)
	hdr.Set("Content-Disposition", disposition)
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	hdr.Set("Referrer-Policy", "no-referrer")
	if left := d.Expires.Sub(h.svc.Now()); left > 0 {
		hdr.Set("Cache-Control", "private, max-age="+strconv.Itoa(int(left/time.Second)))
	} else {
		hdr.Set("Cache-Control", "private, no-store")
	}
	http.ServeContent(w, r, "", time.Time{}, d.File)
}
