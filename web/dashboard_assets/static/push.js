// Browser notifications: registers the service worker and, when the member
// turns them on, subscribes this browser with the server's VAPID key and
// tells the server where to push.
const button = document.getElementById("push-toggle");
const csrf = document.querySelector('input[name="csrf"]')?.value ?? "";

async function post(path, fields) {
  const res = await fetch(path, {
    method: "POST", credentials: "same-origin",
    headers: { "X-CSRF-Token": csrf, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
}

// keyBytes decodes the unpadded base64url key the server gives.
function keyBytes(b64) {
  const bin = atob(b64.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

// save sends a subscription to the server, which keeps it for this member.
async function save(sub) {
  const { endpoint, keys } = sub.toJSON();
  await post("/app/push/subscriptions", { endpoint, p256dh: keys.p256dh, auth: keys.auth });
}

async function turnOn(reg) {
  if (await Notification.requestPermission() !== "granted") return false;
  const res = await fetch("/app/push/key", { credentials: "same-origin" });
  const { public_key: key } = await res.json();
  await save(await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) }));
  return true;
}

async function turnOff(sub) {
  await post("/app/push/unsubscribe", { endpoint: sub.endpoint });
  await sub.unsubscribe();
}

function label(on) {
  button.textContent = on ? "Notifications on" : "Turn on notifications";
  button.setAttribute("aria-pressed", String(on));
}

async function start() {
  if (!button || !("serviceWorker" in navigator) || !("PushManager" in window)) return;
  const reg = await navigator.serviceWorker.register("/app/sw.js", { scope: "/app/" });
  let sub = await reg.pushManager.getSubscription();
  // A browser already subscribed is saved again: the member signed in on it
  // may be another one than before.
  if (sub && Notification.permission === "granted") await save(sub).catch(() => {});
  label(Boolean(sub));
  button.hidden = false;
  button.addEventListener("click", async () => {
    try {
      if (sub) {
        await turnOff(sub);
        sub = null;
      } else if (await turnOn(reg)) {
        sub = await reg.pushManager.getSubscription();
      }
      label(Boolean(sub));
    } catch {
      button.textContent = "Notifications unavailable in this browser";
    }
  });
}

start().catch(() => {});
