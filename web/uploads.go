package web

import (
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"

	"chatsvc/app"
)

// multipartSlack is what a multipart body may hold beyond its file: the
// boundaries and part headers.
const multipartSlack = 64 << 10

// uploadVisitorFile takes a visitor's file (POST /widget/v1/attachments): a
// multipart/form-data body whose one part, named "file", is the file. The
// bytes stream to the store; nothing holds the whole file in memory.
func (h *handlers) uploadVisitorFile(w http.ResponseWriter, r *http.Request) {
	v, ok := h.visit(w, r, "")
	if !ok {
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, h.svc.AttachmentMaxBytes()+multipartSlack)
	part, err := onePart(r, "file")
	if err != nil {
		writeError(w, r, err)
		return
	}
	up, err := h.svc.UploadVisitorFile(r.Context(), v, app.FileInput{Name: part.FileName(), Body: part})
	reply(w, r, http.StatusCreated, up, bodyErr(err))
}

// onePart opens the first part of a multipart/form-data body, which must be
// the file field name.
func onePart(r *http.Request, name string) (*multipart.Part, error) {
	ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || ct != "multipart/form-data" {
		return nil, &app.Error{Kind: app.Invalid, Code: app.CodeBodyInvalid,
			Message: "Send the file as multipart/form-data, in a part named " + name + "."}
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, &app.Error{Kind: app.Invalid, Code: app.CodeBodyInvalid, Message: "The multipart body could not be read."}
	}
	part, err := mr.NextPart()
	if errors.Is(err, io.EOF) {
		return nil, app.Missing(name)
	} else if err != nil {
		return nil, bodyErr(err)
	}
	if part.FormName() != name {
		return nil, app.Unknown(part.FormName())
	}
	if part.FileName() == "" {
		return nil, app.Invalidf(name, "%s must be a file (a part with a filename).", name)
	}
	return part, nil
}

// bodyErr tells a body cut off at its limit, or unreadable, as such
// rather than as a failure on our side.
func bodyErr(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return &app.Error{Kind: app.TooLarge, Code: "body_too_large",
			Message: "The request body is larger than a file may be, with its multipart headers."}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, multipart.ErrMessageTooLarge) {
		return &app.Error{Kind: app.Invalid, Code: app.CodeBodyInvalid, Message: "The multipart body could not be read."}
	}
	return err
}
