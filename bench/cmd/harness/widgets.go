package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// widgetsOpen is how many visitors have the widget open, each with its
// event stream, while agent messages are measured a second time.
const widgetsOpen = 500

// openWidgets starts n visitor sessions on site and opens each one's event
// stream, as n browser tabs with the widget would; close ends them.
func openWidgets(base, site string, n int) (close func(), err error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer func() {
		if err != nil {
			cancel() // ends the streams opened so far
		}
	}()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	for i := 0; i < n; i++ {
		token, err := newVisitor(client, base, site)
		if err != nil {
			return nil, err
		}
		req, err := http.NewRequestWithContext(ctx, "GET", base+"/widget/v1/events", nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("X-Visitor-Token", token)
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			resp.Body.Close()
			return nil, fmt.Errorf("widget event stream: %s", resp.Status)
		}
		go func() {
			defer resp.Body.Close()
			io.Copy(io.Discard, resp.Body)
		}()
	}
	return func() { cancel(); client.CloseIdleConnections() }, nil
}

// newVisitor starts a widget session in test mode on site and returns its
// visitor token.
func newVisitor(c *http.Client, base, site string) (string, error) {
	body := fmt.Sprintf(`{"site_id":%q,"page_url":"https://example.com/pricing","test":true}`, site)
	var b []byte
	if err := call(c, "POST", base+"/widget/v1/sessions", nil, body, 200, &b); err != nil {
		return "", err
	}
	var s struct {
		Token string `json:"visitor_token"`
	}
	err := json.Unmarshal(b, &s)
	return s.Token, err
}
