// Live updates for the dashboard: the server streams the inbox's state
// (Server-Sent Events); on a change this page's live regions are reloaded
// the title shows how many messages the member has not read, and the badge
// how many conversations wait for a person.
const title = document.title;
const badge = document.getElementById("badge");
let digest = null; // the last state seen

async function refresh() {
  const regions = document.querySelectorAll("[data-live][id]");
  if (regions.length === 0) return;
  const res = await fetch(location.href, { credentials: "same-origin", headers: { Accept: "text/html" } });
  if (!res.ok || res.redirected) return;
  const doc = new DOMParser().parseFromString(await res.text(), "text/html");
  for (const el of regions) {
    const fresh = doc.getElementById(el.id);
    if (fresh) el.replaceWith(fresh);
  }
  for (const id of ["conv-status", "views"]) {
    const el = document.getElementById(id), fresh = doc.getElementById(id);
    if (el && fresh) el.replaceWith(fresh);
  }
}

function show(state) {
  document.title = state.unread > 0 ? `(${state.unread}) ${title}` : title;
  if (badge) {
    badge.hidden = state.waiting === 0;
    badge.textContent = String(state.waiting);
    badge.setAttribute("aria-label", `${state.waiting} waiting`);
  }
}

// The first state also refreshes: something may have changed between the
// page's rendering and the stream's start.
// A conversation also hears when its visitor types (typing.js shows it).
// When the desk shows another conversation (panes.js sends "chatsvc:page"),
// the stream is opened again for it.
let events = null, watching;

function connect() {
  const conversation = location.pathname.match(/^\/app\/conversations\/([^/]+)$/)?.[1];
  if (events && conversation === watching) return;
  events?.close();
  watching = conversation;
  digest = null;
  events = new EventSource("/app/events" + (conversation ? `?conversation=${encodeURIComponent(conversation)}` : ""));
  events.addEventListener("typing", (e) => document.dispatchEvent(new CustomEvent("chatsvc:typing", { detail: JSON.parse(e.data) })));
  events.addEventListener("inbox", (e) => {
    const state = JSON.parse(e.data);
    show(state);
    if (digest !== state.digest) refresh().then(() => document.dispatchEvent(new CustomEvent("chatsvc:live"))).catch(() => {});
    digest = state.digest;
  });
}
connect();
document.addEventListener("chatsvc:page", connect);
