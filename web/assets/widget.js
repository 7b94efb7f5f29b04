/* chatsvc chat widget. Embed with:
 *   <script src="{public_url}/widget.js" data-site="site_…" async></script>
 * Optional attributes: data-test="true" (test mode), data-title="…".
 * No dependencies; talks to {public_url}/widget/v1. */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || window.__chatsvcWidget) return;
  window.__chatsvcWidget = true;
  var site = script.getAttribute("data-site");
  var test = script.getAttribute("data-test") === "true";
  var title = script.getAttribute("data-title") || "Chat with us";
  var base = new URL(script.src, location.href).origin + "/widget/v1";
  var storeKey = "chatsvc:" + site + (test ? ":test" : "");
  var token = null, events = null, retry = 1000, seen = {}, opened = false, starting = null;

  function load() { try { return localStorage.getItem(storeKey); } catch (e) { return null; } }
  function save(t) { try { t ? localStorage.setItem(storeKey, t) : localStorage.removeItem(storeKey); } catch (e) {} }

  // ---- DOM -----------------------------------------------------------
  var css = ".csw-launch{position:fixed;right:20px;bottom:20px;z-index:2147483000;border:0;border-radius:28px;" +
    "background:#2451d6;color:#fff;font:600 15px system-ui,sans-serif;padding:14px 20px;cursor:pointer;box-shadow:0 4px 14px rgba(0,0,0,.25)}" +
    ".csw-launch:focus-visible,.csw button:focus-visible,.csw textarea:focus-visible{outline:3px solid #ffbf47;outline-offset:2px}" +
    ".csw{position:fixed;right:20px;bottom:84px;z-index:2147483000;width:360px;max-width:calc(100vw - 40px);height:520px;" +
    "max-height:calc(100vh - 110px);display:flex;flex-direction:column;background:#fff;color:#1d2330;border-radius:12px;" +
    "box-shadow:0 8px 30px rgba(0,0,0,.3);font:14px/1.45 system-ui,sans-serif;overflow:hidden}" +
    ".csw[hidden]{display:none}.csw-head{display:flex;align-items:center;justify-content:space-between;background:#2451d6;color:#fff;padding:10px 14px}" +
    ".csw-head h2{font-size:16px;margin:0}.csw-x{background:none;border:0;color:#fff;font-size:22px;cursor:pointer;line-height:1}" +
    ".csw-log{flex:1;overflow-y:auto;padding:12px;display:flex;flex-direction:column;gap:8px;margin:0;list-style:none}" +
    ".csw-msg{max-width:85%;padding:8px 11px;border-radius:10px;white-space:pre-wrap;word-wrap:break-word}" +
    ".csw-contact{align-self:flex-end;background:#2451d6;color:#fff}.csw-bot,.csw-agent,.csw-system{align-self:flex-start;background:#eef1f7}" +
    ".csw-agent{background:#e3f4e8}.csw-who{display:block;font-size:11px;font-weight:600;opacity:.75;margin-bottom:2px}" +
    ".csw-src{margin:6px 0 0;padding-left:16px;font-size:12px}.csw-msg a{color:inherit}" +
    ".csw-status{font-size:12px;color:#4a5570;padding:4px 12px;min-height:1em}" +
    ".csw-form{display:flex;gap:6px;padding:8px;border-top:1px solid #e1e5ee}.csw-form textarea{flex:1;resize:none;font:inherit;padding:6px;border:1px solid #c4cad8;border-radius:6px}" +
    ".csw-form button,.csw-human{border:0;border-radius:6px;background:#2451d6;color:#fff;font:600 13px system-ui,sans-serif;padding:0 12px;cursor:pointer}" +
    ".csw-human{background:none;color:#2451d6;text-decoration:underline;padding:4px 12px;align-self:flex-start}" +
    ".csw-sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}";
  var style = document.createElement("style");
  style.textContent = css;
  document.head.appendChild(style);

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text != null) e.textContent = text;
    return e;
  }
  var launch = el("button", { "class": "csw-launch", type: "button", "aria-expanded": "false", "aria-controls": "csw-panel" }, "Chat");
  var panel = el("section", { "class": "csw", id: "csw-panel", role: "dialog", "aria-label": title, hidden: "" });
  var head = el("div", { "class": "csw-head" });
  head.appendChild(el("h2", {}, title));
  var close = el("button", { "class": "csw-x", type: "button", "aria-label": "Close chat" }, "\u00d7");
  head.appendChild(close);
  var log = el("ol", { "class": "csw-log", "aria-live": "polite", "aria-label": "Messages" });
  var status = el("div", { "class": "csw-status", role: "status" });
  var human = el("button", { "class": "csw-human", type: "button" }, "Talk to a person");
  var form = el("form", { "class": "csw-form" });
  var label = el("label", { "for": "csw-input", "class": "csw-sr" }, "Your message");
  var input = el("textarea", { id: "csw-input", rows: "2", maxlength: "4000", placeholder: "Type your question…" });
  var send = el("button", { type: "submit" }, "Send");
  form.appendChild(label); form.appendChild(input); form.appendChild(send);
  panel.appendChild(head); panel.appendChild(log); panel.appendChild(status); panel.appendChild(human); panel.appendChild(form);
  document.body.appendChild(panel);
  document.body.appendChild(launch);

  // ---- rendering -------------------------------------------------------
  var linkRE = /\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g;
  function richText(node, text) {
    var last = 0, m;
    linkRE.lastIndex = 0;
    while ((m = linkRE.exec(text))) {
      node.appendChild(document.createTextNode(text.slice(last, m.index)));
      node.appendChild(el("a", { href: m[2], target: "_blank", rel: "noopener" }, m[1]));
      last = m.index + m[0].length;
    }
    node.appendChild(document.createTextNode(text.slice(last)));
  }
  var names = { bot: "Assistant", agent: "Team", system: "" };
  function show(m) {
    if (!m || seen[m.id]) return;
    seen[m.id] = true;
    var type = m.author && m.author.type || "system";
    var li = el("li", { "class": "csw-msg csw-" + type, "data-id": m.id });
    if (type !== "contact") {
      var who = (m.author && m.author.name) || names[type];
      if (who) li.appendChild(el("span", { "class": "csw-who" }, who));
    } else {
      li.appendChild(el("span", { "class": "csw-sr" }, "You: "));
    }
    var body = el("span", { "class": "csw-body" });
    richText(body, m.body);
    li.appendChild(body);
    if (m.sources && m.sources.length) {
      var ul = el("ul", { "class": "csw-src", "aria-label": "Sources" });
      m.sources.forEach(function (s) {
        var item = el("li");
        if (s.url) item.appendChild(el("a", { href: s.url, target: "_blank", rel: "noopener" }, s.title || s.url));
        else item.textContent = s.title;
        ul.appendChild(item);
      });
      li.appendChild(ul);
    }
    log.appendChild(li);
    log.scrollTop = log.scrollHeight;
  }
  var statusText = { waiting: "A person from the team will join shortly.", handed_off: "You are chatting with the team.",
    closed: "This conversation is closed. Write again to start a new one.", open: "" };
  function showConversation(c) { status.textContent = c ? (statusText[c.status] || "") : ""; }

  // ---- API -------------------------------------------------------------
  function call(method, path, body) {
    var headers = { "Content-Type": "application/json" };
    if (token) headers["X-Visitor-Token"] = token;
    return fetch(base + path, { method: method, headers: headers, body: body ? JSON.stringify(body) : undefined })
      .then(function (r) {
        return r.json().then(function (j) {
          if (!r.ok) { var e = new Error((j.error && j.error.message) || r.statusText); e.status = r.status; throw e; }
          return j;
        });
      });
  }
  function start() {
    if (starting) return starting;
    var saved = load();
    var req = { site_id: site, page_url: location.href, test: test };
    if (saved) req.visitor_token = saved;
    starting = call("POST", "/sessions", req).catch(function (e) {
      if (e.status === 401 && saved) { save(null); delete req.visitor_token; return call("POST", "/sessions", req); }
      throw e;
    }).then(function (s) {
      token = s.visitor_token;
      save(token);
      showConversation(s.conversation);
      if (s.conversation) return call("GET", "/messages").then(function (l) { l.data.forEach(show); });
    }).then(listen).catch(function (e) {
      starting = null;
      status.textContent = "Chat is unavailable right now (" + e.message + ").";
    });
    return starting;
  }
  function listen() {
    if (events) events.close();
    events = new EventSource(base + "/events?visitor_token=" + encodeURIComponent(token));
    events.addEventListener("open", function () { retry = 1000; });
    events.addEventListener("message", function (e) { show(JSON.parse(e.data)); });
    events.addEventListener("conversation", function (e) { showConversation(JSON.parse(e.data)); });
    events.addEventListener("error", function () {
      if (events.readyState === EventSource.CLOSED) { // the browser gave up: reconnect ourselves
        setTimeout(listen, retry);
        retry = Math.min(retry * 2, 30000);
      }
    });
  }
  function post(text) {
    return start().then(function () { return call("POST", "/messages", { body: text, page_url: location.href }); })
      .then(function (r) { show(r.message); show(r.reply); })
      .catch(function (e) { status.textContent = "Your message could not be sent (" + e.message + ")."; });
  }

  // ---- events ----------------------------------------------------------
  function toggle(open) {
    opened = open;
    panel.hidden = !open;
    launch.setAttribute("aria-expanded", String(open));
    if (open) { start(); input.focus(); } else { launch.focus(); }
  }
  launch.addEventListener("click", function () { toggle(!opened); });
  close.addEventListener("click", function () { toggle(false); });
  panel.addEventListener("keydown", function (e) { if (e.key === "Escape") toggle(false); });
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var text = input.value.trim();
    if (!text) return;
    input.value = "";
    post(text);
  });
  input.addEventListener("keydown", function (e) {
    if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); form.requestSubmit ? form.requestSubmit() : form.dispatchEvent(new Event("submit")); }
  });
  human.addEventListener("click", function () {
    start().then(function () { return call("POST", "/handoff"); })
      .then(showConversation)
      .catch(function (e) {
        if (e.status === 404) return post("I'd like to talk to a person.");
        status.textContent = "Could not reach the team (" + e.message + ").";
      });
  });
  if (load()) start(); // a returning visitor gets live replies even before opening the panel
})();
