package web

import (
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"

	"chatsvc/app"
	"chatsvc/chat"
)

// fileView is a message's file as the desk shows it.
type fileView struct {
	URL   string // the signed download URL, from this origin
	Name  string
	Size  string // for people: "12 KB"
	Image bool   // shown as a picture
}

// messageFiles pairs a message's signed attachments with what is stored of
// them. The URLs keep only path and query, so the page loads them from its
// own origin whatever public_url says.
func messageFiles(m *chat.Message) []fileView {
	out := make([]fileView, 0, len(m.Attachments))
	for i, a := range m.Attachments {
		v := fileView{URL: a.URL, Name: a.Name, Size: humanBytes(a.Size)}
		if u, err := url.Parse(a.URL); err == nil {
			v.URL = u.RequestURI()
		}
		if i < len(m.Files) {
			ct := m.Files[i].ContentType
			v.Image = app.IsPicture(ct)
		}
		out = append(out, v)
	}
	return out
}

// humanBytes writes a size as people read it.
func humanBytes(n int64) string {
	switch {
	case n < 1000:
		return strconv.FormatInt(n, 10) + " bytes"
	case n < 1000*1000:
		return strconv.FormatInt((n+500)/1000, 10) + " KB"
	default:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " MB"
	}
}

// formFiles opens the files of a multipart form's field (an empty file
// input sends a nameless empty part, which is no file); close closes them.
func formFiles(r *http.Request, field string) (in []app.FileInput, close func(), err error) {
	var opened []multipart.File
	close = func() {
		for _, f := range opened {
			f.Close()
		}
	}
	if r.MultipartForm == nil {
		return nil, close, nil
	}
	for _, fh := range r.MultipartForm.File[field] {
		if fh.Filename == "" && fh.Size == 0 {
			continue
		}
		f, err := fh.Open()
		if err != nil {
			close()
			return nil, func() {}, err
		}
		opened = append(opened, f)
		in = append(in, app.FileInput{Name: fh.Filename, Body: f})
	}
	return in, close, nil
}

// dashBodyLimit is the largest body a dashboard action takes: a form, or
// with files (the reply box) as many files as a message holds.
func dashBodyLimit(r *http.Request, maxFile int64) int64 {
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct == "multipart/form-data" {
		return app.MaxAttachments*maxFile + MaxBodyBytes
	}
	return MaxBodyBytes
}
