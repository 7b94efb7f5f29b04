// The dashboard's service worker: it shows the team's push notifications
// (a visitor waiting, a visitor's message) and opens the conversation when
// one is clicked. Pushes come encrypted from the browser's push service.
self.addEventListener("push", (event) => {
  let note = {};
  try {
    note = event.data ? event.data.json() : {};
  } catch {
    note = {};
  }
  event.waitUntil(self.registration.showNotification(note.title || "chatsvc", {
    body: note.body || "",
    tag: note.conversation_id || undefined, // one notification per conversation
    data: { url: note.url || "/app/" },
  }));
});

// A click opens the conversation on this server, whatever host the link names.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  let path = "/app/";
  try {
    path = new URL(event.notification.data.url, self.location.origin).pathname;
  } catch {
    path = "/app/";
  }
  event.waitUntil(self.clients.openWindow(path.startsWith("/app/") ? path : "/app/"));
});
