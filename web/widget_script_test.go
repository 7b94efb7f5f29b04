package web

import "testing"

// The served script leaves out line comments and indentation, and nothing
// else: strings holding "//" and the embed instructions stay.
func TestWidgetScriptWithoutLineComments(t *testing.T) {
	src := "/* Embed with:\n *   <script src=…>\n */\n(function () {\n  // a note\n  var u = \"https://x.example/a // b\"; // the URL\n" +
		"  var v = 'it''s'; // a \"quoted\" word\n  return u; // done\n})();"
	want := "/* Embed with:\n*   <script src=…>\n*/\n(function () {\nvar u = \"https://x.example/a // b\";\nvar v = 'it''s';\nreturn u;\n})();"
	if got := string(withoutLineComments([]byte(src))); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
