// The dashboard's forms: the header's menu on a phone, copy buttons, the
// widget's preview in Settings, a confirmation before what deletes, the
// Knowledge form's fields for the chosen type, sources that refresh while
// they are indexed, and relative times that stay true.

// The header's menu on a phone: one button shows or hides the navigation.
const top = document.getElementById("top");
const menu = document.getElementById("menu-toggle");
menu?.addEventListener("click", () => {
  const open = !top.classList.contains("open");
  top.classList.toggle("open", open);
  menu.setAttribute("aria-expanded", String(open));
});

// A button with data-copy copies the field it names, and says so.
document.addEventListener("click", async (e) => {
  const b = e.target.closest("button[data-copy]");
  if (!b) return;
  const field = document.getElementById(b.dataset.copy);
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
  } catch {
    document.execCommand("copy"); // a page served over plain HTTP has no clipboard API
  }
  b.textContent = "Copied";
  setTimeout(() => { b.textContent = "Copy"; }, 2000);
});

// A form whose button deletes asks first (data-confirm holds the question).
document.addEventListener("submit", (e) => {
  const q = e.target.dataset?.confirm;
  if (q && !confirm(q)) e.preventDefault();
}, true);

// readable is the text colour (dark or white) that reads best on bg, as
// the widget picks it.
function readable(bg) {
  const n = parseInt(bg.slice(1), 16);
  const lin = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const l = 0.2126 * lin(n >> 16 & 255) + 0.7152 * lin(n >> 8 & 255) + 0.0722 * lin(n & 255);
  return (1.05 / (l + 0.05)) >= ((l + 0.05) / 0.05) ? "#ffffff" : "#111111";
}

// The widget's preview in a site's settings follows the form as one types.
for (const preview of document.querySelectorAll("[data-preview]")) {
  const form = preview.closest("form");
  const head = preview.querySelector(".wp-head"), launch = preview.querySelector(".wp-launch");
  const hello = preview.querySelector(".wp-hello"), visitor = preview.querySelector(".wp-visitor");
  const panel = preview.querySelector(".wp-panel");
  const paint = () => {
    const color = form.elements.color.value, ink = readable(color);
    for (const el of [head, launch, visitor]) {
      el.style.background = color;
      el.style.color = ink;
    }
    const side = form.elements.position.value;
    panel.dataset.side = side;
    launch.dataset.side = side;
    hello.textContent = form.elements.greeting.value || "Hi! How can we help?";
    head.querySelector("strong").textContent = form.elements.name.value;
  };
  form.addEventListener("input", paint);
  paint();
}

// The Knowledge form shows the address field for a page or a sitemap and
// the text field for a text source.
const type = document.getElementById("k-type");
if (type) {
  const show = () => {
    const text = type.value === "text";
    for (const [id, on] of [["k-url", !text], ["k-content", text]]) {
      const field = document.getElementById(id);
      field.hidden = !on;
      field.labels[0].hidden = !on;
      field.required = on;
    }
  };
  type.addEventListener("change", show);
  show();
}

// Sources waiting for or in their sync refresh by themselves until done.
const sources = document.getElementById("sources");
async function refreshSources() {
  const busy = [...sources.querySelectorAll("td.status")].some((td) => /^(pending|indexing)/.test(td.textContent.trim()));
  if (!busy) return;
  const res = await fetch(location.href, { credentials: "same-origin" });
  if (res.ok && !res.redirected) {
    const fresh = new DOMParser().parseFromString(await res.text(), "text/html").getElementById("sources");
    if (fresh) sources.querySelector("tbody").replaceWith(fresh.querySelector("tbody"));
  }
  setTimeout(refreshSources, 3000);
}
if (sources) setTimeout(refreshSources, 3000);

// Relative times ("3 min ago") are kept true while the page stays open.
export function ago(iso, now = Date.now()) {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}
// The server's clock may differ from this computer's: times are counted
// from the server's "now" the page carries, moved on as this clock moves.
const skew = Date.now() - Date.parse(document.body.dataset.now || new Date().toISOString());
function tick() {
  for (const t of document.querySelectorAll("time.ago[datetime]")) t.textContent = ago(t.getAttribute("datetime"), Date.now() - skew);
}

// Avatars get a colour of their own, drawn from the name, with white initials.
function paintAvatars() {
  for (const a of document.querySelectorAll(".avatar[data-name]:not(.bot)")) {
    let h = 0;
    for (const c of a.dataset.name) h = (h * 31 + c.codePointAt(0)) % 360;
    a.style.setProperty("--av", `hsl(${h} 45% 36%)`);
    a.style.setProperty("--on-av", "#fff");
  }
}

function refreshed() {
  tick();
  paintAvatars();
}
document.addEventListener("chatsvc:page", refreshed);
document.addEventListener("chatsvc:live", refreshed);
refreshed();
setInterval(tick, 30000);
