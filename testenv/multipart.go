package testenv

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"mime/multipart"
)

// Multipart is a multipart/form-data body holding data as the file name,
// in the part called field, and its Content-Type header.
func Multipart(field, name string, data []byte) ([]byte, string) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	part, _ := w.CreateFormFile(field, name) // writes to memory: no error
	part.Write(data)
	w.Close()
	return buf.Bytes(), w.FormDataContentType()
}

// PNG is a small real image, w by h pixels of one colour, that browsers
// draw: what tests upload as a picture.
func PNG(w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		for y := range h {
			img.Set(x, y, color.RGBA{R: 200, G: 40, B: 90, A: 255})
		}
	}
	var buf bytes.Buffer
	png.Encode(&buf, img) // to memory: no error
	return buf.Bytes()
}
