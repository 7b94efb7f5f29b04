// The desk without page loads: opening a conversation from the list, and
// the forms of the open conversation (reply, notes, tags, assign, close),
// fetch the page the server would show and put its content in place, so
// the member answers one conversation after another in the same page. The
// address follows (back and forward work); without this script every link
// and form works as a plain page load.

const main = document.getElementById("main");
// deskPath: the desk's own pages, the list and a conversation beside it.
const deskPath = /^\/app\/(conversations\/[^/]+)?$/;

// show puts the content of a dashboard page's HTML in place.
function show(html, url, push) {
  const doc = new DOMParser().parseFromString(html, "text/html");
  const fresh = doc.getElementById("main");
  if (!fresh) return false;
  main.replaceChildren(...fresh.childNodes);
  main.className = fresh.className;
  document.title = doc.title;
  document.body.dataset.now = doc.body.dataset.now ?? "";
  if (push) {
    const u = new URL(url);
    u.searchParams.delete("flash"); // said once, not again on a reload
    history.pushState(null, "", u.href);
  }
  document.dispatchEvent(new CustomEvent("chatsvc:page"));
  return true;
}

// open loads a desk page in place; anything else is left to the browser.
async function open(url, push = true) {
  const res = await fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } });
  if (res.redirected && !deskPath.test(new URL(res.url).pathname)) {
    location.assign(res.url);
    return;
  }
  if (!show(await res.text(), res.url, push)) location.assign(url);
}

// inDesk: a link or form of the desk, which the desk keeps in place.
function inDesk(el) {
  return el.closest("#desk") !== null;
}

document.addEventListener("click", (e) => {
  const a = e.target.closest("a[href]");
  if (!a || !inDesk(a) || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || a.target) return;
  const url = new URL(a.href);
  if (url.origin !== location.origin || !deskPath.test(url.pathname)) return;
  e.preventDefault();
  open(url.href).catch(() => location.assign(url.href));
});

document.addEventListener("submit", async (e) => {
  const form = e.target;
  if (e.defaultPrevented || !inDesk(form) || form.method.toLowerCase() !== "post") return;
  e.preventDefault();
  const button = e.submitter;
  const data = new FormData(form, button);
  // A form with files goes as it is (multipart); the others as the browser would send them.
  const body = form.enctype === "multipart/form-data" ? data : new URLSearchParams(data);
  for (const b of form.querySelectorAll("button")) b.disabled = true;
  try {
    const res = await fetch(form.action, { method: "POST", credentials: "same-origin", body });
    // A form that leads out of the desk (a new ticket) goes there, as it would have.
    if (res.ok && !deskPath.test(new URL(res.url).pathname)) {
      location.assign(res.url);
      return;
    }
    // An error page comes with its status: it is shown as it is.
    if (!show(await res.text(), res.ok ? res.url : location.href, res.ok && res.url !== location.href)) form.submit();
  } catch {
    form.submit();
  }
});

window.addEventListener("popstate", () => {
  if (deskPath.test(location.pathname)) open(location.href, false).catch(() => location.reload());
});
