// Typing indicators on a conversation: the visitor sees when the member
// types a reply (the server is told at most every few seconds), and the
// member sees when the visitor types (the live stream's `typing` event,
// which dashboard.js passes on). Bound again whenever the desk shows
// another conversation (panes.js sends "chatsvc:page").
let note = null, timer = null;

function bind() {
  const form = document.getElementById("reply-form");
  const reply = document.getElementById("reply");
  note = null;
  if (!form || !reply) return;
  const csrf = form.querySelector('input[name="csrf"]')?.value ?? "";
  const typingPath = form.getAttribute("action").replace(/\/reply$/, "/typing");
  let sentAt = 0;
  reply.addEventListener("input", () => {
    if (Date.now() - sentAt < 3000) return;
    sentAt = Date.now();
    fetch(typingPath, { method: "POST", credentials: "same-origin", headers: { "X-CSRF-Token": csrf } }).catch(() => {});
  });
  note = document.createElement("p");
  note.id = "visitor-typing";
  note.className = "meta";
  note.hidden = true;
  note.setAttribute("role", "status");
  note.textContent = "The visitor is typing…";
  form.before(note);
}

document.addEventListener("chatsvc:typing", (e) => {
  if (!note) return;
  note.hidden = false;
  clearTimeout(timer);
  timer = setTimeout(() => { note.hidden = true; }, e.detail.seconds * 1000);
});
document.addEventListener("chatsvc:page", bind);
bind();
