// The agent's desk: canned replies on "/" in the reply box, and keyboard
// shortcuts (j/k through the inbox, r to reply, e to close, Ctrl+Enter to
// send, ? for the list of shortcuts).

// The reply box's parts: looked up again each time the desk shows another
// conversation (panes.js sends "chatsvc:page").
let form, box, menu;

// fill replaces each {{variable}} of a canned reply with its value here;
// a variable with no value (or an unknown one) becomes empty text.
function fill(body) {
  const values = {
    "contact.name": form.dataset.contactName,
    "contact.email": form.dataset.contactEmail,
    "agent.name": form.dataset.agentName,
    "ticket.number": form.dataset.ticketNumber,
  };
  // An empty value takes the space before it along: "Hi {{contact.name}}, …"
  // reads "Hi, …" to an anonymous visitor, not "Hi , …".
  return body.replace(/([ \t]*)\{\{\s*([a-z_.]+)\s*\}\}/g, (_, space, name) => values[name] ? space + values[name] : "");
}

// slash finds the "/shortcut" being typed just before the caret, if any.
function slash() {
  const before = box.value.slice(0, box.selectionStart);
  const m = before.match(/(^|\s)\/([a-z0-9-]*)$/);
  return m ? { start: before.length - m[2].length - 1, prefix: m[2] } : null;
}

function options() {
  return [...menu.querySelectorAll("[role=option]")].filter((o) => !o.hidden);
}

function select(o) {
  for (const x of menu.querySelectorAll("[role=option]")) x.setAttribute("aria-selected", String(x === o));
}

function showMenu() {
  const s = slash();
  let any = false;
  for (const o of menu.querySelectorAll("[role=option]")) {
    o.hidden = !s || !o.dataset.shortcut.startsWith(s.prefix);
    any ||= !o.hidden;
  }
  menu.hidden = !any;
  if (any && !options().some((o) => o.getAttribute("aria-selected") === "true")) select(options()[0]);
}

function insert(o) {
  const s = slash();
  if (!s) return;
  const text = fill(o.dataset.body);
  box.value = box.value.slice(0, s.start) + text + box.value.slice(box.selectionStart);
  box.selectionStart = box.selectionEnd = s.start + text.length;
  menu.hidden = true;
  box.focus();
}

function bind() {
  form = document.getElementById("reply-form");
  box = document.getElementById("reply");
  menu = document.getElementById("canned");
  if (!form || !box || !menu) return;
  box.addEventListener("input", showMenu);
  if (document.activeElement === box) showMenu(); // typed before this module ran
  box.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      form.requestSubmit();
      return;
    }
    if (menu.hidden) return;
    const opts = options();
    const at = opts.findIndex((o) => o.getAttribute("aria-selected") === "true");
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      select(opts[(at + (e.key === "ArrowDown" ? 1 : opts.length - 1)) % opts.length]);
    } else if (e.key === "Enter" || e.key === "Tab") {
      e.preventDefault();
      insert(opts[Math.max(at, 0)]);
    } else if (e.key === "Escape") {
      menu.hidden = true;
    }
  });
  menu.addEventListener("mousedown", (e) => {
    const o = e.target.closest("[role=option]");
    if (o) {
      e.preventDefault();
      insert(o);
    }
  });
}
bind();
document.addEventListener("chatsvc:page", () => { current = -1; bind(); });

// A select marked data-autosubmit sends its form on change: one click assigns.
document.addEventListener("change", (e) => {
  if (e.target.matches("select[data-autosubmit]")) e.target.form.requestSubmit();
});

// Keyboard shortcuts, except while typing in a field.
const help = document.createElement("div");
help.id = "shortcuts";
help.className = "overlay";
help.hidden = true;
help.setAttribute("role", "dialog");
help.setAttribute("aria-label", "Keyboard shortcuts");
const keys = [["j / k", "next / previous conversation in the list"], ["Enter", "open it beside the list"],
  ["1 2 3 4", "the Mine, Unassigned, All and Waiting views"], ["r", "reply"],
  ["e", "close the conversation"], ["Ctrl+Enter", "send the reply"], ["/", "canned replies, in the reply box"], ["?", "this list"]];
const dl = document.createElement("dl");
for (const [k, what] of keys) {
  const dt = document.createElement("dt"), dd = document.createElement("dd");
  dt.textContent = k;
  dd.textContent = what;
  dl.append(dt, dd);
}
const h = document.createElement("h2");
h.textContent = "Keyboard shortcuts";
help.append(h, dl);
document.body.append(help);

let current = -1; // the inbox row j/k moved to

// move goes to the next (1) or previous (-1) conversation of the list;
// the first move starts from the conversation open beside it.
function move(by) {
  const rows = [...document.querySelectorAll("#inbox li.conv > .conv-main > a")];
  if (rows.length === 0) return;
  if (current < 0) current = rows.findIndex((a) => a.hasAttribute("aria-current"));
  current = current < 0 && by < 0 ? 0 : Math.min(Math.max(current + by, 0), rows.length - 1);
  rows[current].focus();
}

document.addEventListener("keydown", (e) => {
  const t = e.target;
  if (e.ctrlKey || e.metaKey || e.altKey || t.closest("input, textarea, select")) return;
  switch (e.key) {
    case "?":
      help.hidden = !help.hidden;
      break;
    case "Escape":
      help.hidden = true;
      break;
    case "j":
      move(1);
      break;
    case "k":
      move(-1);
      break;
    case "1":
    case "2":
    case "3":
    case "4": {
      const view = document.querySelectorAll("#views a")[Number(e.key) - 1];
      if (!view) return;
      view.click();
      break;
    }
    case "r":
      if (!document.getElementById("reply")) return;
      document.getElementById("reply").focus();
      break;
    case "e": {
      const close = document.getElementById("close");
      if (!close) return;
      close.click();
      break;
    }
    default:
      return;
  }
  e.preventDefault();
});
