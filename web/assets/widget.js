/* chatsvc chat widget. Embed with:
 *   <script src="{public_url}/widget.js" data-site="site_…" async></script>
 * Optional attributes: data-test="true" (test mode), data-title="…",
 * data-locale="auto" (the visitor's browser language before the site's),
 * data-sound="true" (a short tone when the team or the assistant answers).
 * Its looks, language, hours and forms come from the site's settings.
 * No dependencies; talks to {public_url}/widget/v1 only. */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || window.__chatsvcWidget) return;
  window.__chatsvcWidget = true;
  var site = script.getAttribute("data-site");
  var test = script.getAttribute("data-test") === "true";
  var auto = script.getAttribute("data-locale") === "auto";
  var sound = script.getAttribute("data-sound") === "true";
  var base = new URL(script.src, location.href).origin + "/widget/v1";
  var storeKey = "chatsvc:" + site + (test ? ":test" : "");
  var token = null, events = null, retry = 1000, seen = {}, opened = false, starting = null;
  var conf = { locale: "en", position: "right", color: "#2563EB", greeting: "", availability: "online" };
  var conv = null, rated = {}, maxBytes = 0, chosen = [], skipped = {};

  // ---- texts -----------------------------------------------------------
  var T = {
    en: ["Chat", "Chat with us", "Close chat", "Messages", "You: ", "Assistant", "Team", "Sources", "Talk to a person",
      "Your message", "Type your question…", "Send", "A person from the team will join shortly.",
      "You are chatting with the team.", "This conversation is closed. Write again to start a new one.",
      "We're back {when}.", "Your e-mail address", "Save", "Thanks! We'll answer by e-mail.",
      "Please leave your e-mail address to start the chat.", "Start chat", "How was this conversation?",
      "Anything to add? (optional)", "Send rating", "Thank you for your feedback!", "Chat is unavailable right now.",
      "Your message could not be sent.", "Could not reach the team.", "I'd like to talk to a person.", "{n} of 5",
      "just now", "Away", "Helpful", "Not helpful", "Sending…", "Not sent", "Retry", "New messages: {n}",
      "Attach a file", "Emoji", "{name} is larger than {max}.", "{name}: this kind of file cannot be sent.", "Remove {name}", "Write a new message"],
    de: ["Chat", "Schreiben Sie uns", "Chat schließen", "Nachrichten", "Sie: ", "Assistent", "Team", "Quellen",
      "Mit einem Menschen sprechen", "Ihre Nachricht", "Ihre Frage…", "Senden", "Gleich meldet sich jemand aus dem Team.",
      "Sie schreiben mit dem Team.", "Dieses Gespräch ist beendet. Schreiben Sie erneut, um ein neues zu beginnen.",
      "Wir sind {when} wieder da.", "Ihre E-Mail-Adresse", "Speichern", "Danke! Wir antworten per E-Mail.",
      "Bitte geben Sie Ihre E-Mail-Adresse an, um den Chat zu starten.", "Chat starten", "Wie war dieses Gespräch?",
      "Möchten Sie etwas hinzufügen? (optional)", "Bewertung senden", "Vielen Dank für Ihre Rückmeldung!",
      "Der Chat ist gerade nicht erreichbar.", "Ihre Nachricht konnte nicht gesendet werden.",
      "Das Team ist nicht erreichbar.", "Ich möchte mit einem Menschen sprechen.", "{n} von 5", "gerade eben", "Abwesend", "Hilfreich", "Nicht hilfreich",
      "Wird gesendet…", "Nicht gesendet", "Erneut senden", "Neue Nachrichten: {n}",
      "Datei anhängen", "Emoji", "{name} ist größer als {max}.", "{name}: Diese Art von Datei kann nicht gesendet werden.", "{name} entfernen", "Neue Nachricht schreiben"],
    fr: ["Chat", "Discutons", "Fermer le chat", "Messages", "Vous : ", "Assistant", "Équipe", "Sources",
      "Parler à une personne", "Votre message", "Posez votre question…", "Envoyer",
      "Une personne de l'équipe va vous répondre.", "Vous discutez avec l'équipe.",
      "Cette conversation est close. Écrivez à nouveau pour en commencer une autre.", "Nous revenons {when}.",
      "Votre adresse e-mail", "Enregistrer", "Merci ! Nous répondrons par e-mail.",
      "Indiquez votre adresse e-mail pour commencer.", "Commencer", "Comment s'est passée cette conversation ?",
      "Un commentaire ? (facultatif)", "Envoyer la note", "Merci pour votre avis !", "Le chat est indisponible.",
      "Votre message n'a pas pu être envoyé.", "Impossible de joindre l'équipe.", "Je voudrais parler à une personne.",
      "{n} sur 5", "à l'instant", "Absents", "Utile", "Pas utile", "Envoi…", "Non envoyé", "Réessayer", "Nouveaux messages : {n}",
      "Joindre un fichier", "Emoji", "{name} dépasse {max}.", "{name} : ce type de fichier ne peut pas être envoyé.", "Retirer {name}", "Écrire un nouveau message"],
    es: ["Chat", "Escríbenos", "Cerrar el chat", "Mensajes", "Tú: ", "Asistente", "Equipo", "Fuentes",
      "Hablar con una persona", "Tu mensaje", "Escribe tu pregunta…", "Enviar", "Una persona del equipo te atenderá enseguida.",
      "Estás hablando con el equipo.", "Esta conversación está cerrada. Escribe de nuevo para empezar otra.",
      "Volvemos {when}.", "Tu correo electrónico", "Guardar", "¡Gracias! Te responderemos por correo.",
      "Déjanos tu correo electrónico para empezar.", "Empezar", "¿Qué tal ha ido esta conversación?",
      "¿Algo que añadir? (opcional)", "Enviar valoración", "¡Gracias por tu opinión!", "El chat no está disponible.",
      "No se pudo enviar tu mensaje.", "No se pudo contactar con el equipo.", "Quiero hablar con una persona.",
      "{n} de 5", "ahora mismo", "Ausentes", "Útil", "No es útil", "Enviando…", "No enviado", "Reintentar", "Mensajes nuevos: {n}",
      "Adjuntar un archivo", "Emoji", "{name} supera {max}.", "{name}: no se puede enviar este tipo de archivo.", "Quitar {name}", "Escribir un mensaje nuevo"],
    nl: ["Chat", "Chat met ons", "Chat sluiten", "Berichten", "Jij: ", "Assistent", "Team", "Bronnen",
      "Met een mens praten", "Je bericht", "Typ je vraag…", "Versturen", "Iemand van het team komt zo bij je.",
      "Je chat met het team.", "Dit gesprek is gesloten. Schrijf opnieuw om een nieuw gesprek te beginnen.",
      "We zijn {when} terug.", "Je e-mailadres", "Opslaan", "Bedankt! We antwoorden per e-mail.",
      "Laat je e-mailadres achter om de chat te starten.", "Chat starten", "Hoe was dit gesprek?",
      "Nog iets toe te voegen? (optioneel)", "Beoordeling versturen", "Bedankt voor je feedback!",
      "De chat is nu niet beschikbaar.", "Je bericht kon niet worden verstuurd.", "Het team is niet bereikbaar.",
      "Ik wil met een mens praten.", "{n} van 5", "zojuist", "Afwezig", "Nuttig", "Niet nuttig",
      "Versturen…", "Niet verstuurd", "Opnieuw proberen", "Nieuwe berichten: {n}",
      "Bestand bijvoegen", "Emoji", "{name} is groter dan {max}.", "{name}: dit soort bestand kan niet worden verstuurd.", "{name} verwijderen", "Nieuw bericht schrijven"]
  };
  var KEYS = "chat title close messages you bot agent sources human label placeholder send waiting handed_off closed back email save saved prechat start rate comment rateSend thanks unavailable notSent noTeam ask stars now away helpful unhelpful sending failed retry unread attach emoji big type remove skip".split(" ");
  var lang = "en", L = {};
  function pick(l) { return T[l] ? l : T[(l || "").slice(0, 2)] ? l.slice(0, 2) : null; }
  function setLocale() {
    lang = (auto && pick(navigator.language)) || pick(conf.locale) || "en";
    KEYS.forEach(function (k, i) { L[k] = T[lang][i]; });
  }
  function t(k, v) { return L[k].replace(/\{(\w+)\}/g, function (_, n) { return v[n]; }); }
  setLocale();

  function load(k) { try { return localStorage.getItem(storeKey + (k || "")); } catch (e) { return null; } }
  function save(v, k) { try { v ? localStorage.setItem(storeKey + (k || ""), v) : localStorage.removeItem(storeKey + (k || "")); } catch (e) {} }
  var unread = 0, latest = "", readAt = load(":read") || ""; // see read()
  var prechat = false, quiet = true; // quiet: no tone for the messages a page load shows

  // ---- DOM -------------------------------------------------------------
  // Logical properties (inset-inline-*, margin-inline-*) keep the layout
  // right for right-to-left pages; the side comes from the site's settings.
  // Colour and spacing tokens match the dashboard's; a dark palette follows
  // the visitor's system. --csw-c, the site's colour, stays in both.
  var css = ".csw-root{--csw-bg:#fff;--csw-fg:#1d2330;--csw-muted:#4a5570;--csw-bubble:#eef1f7;--csw-agent:#e3f4e8;" +
    "--csw-line:#e1e5ee;--csw-field:#fff;--csw-field-line:#767b86;--csw-away-bg:#fff6e0;--csw-away-fg:#5c4400;--csw-danger:#b42318;--csw-link:var(--csw-link-l);" +
    "--csw-s1:4px;--csw-s2:8px;--csw-s3:12px;--csw-radius:6px}" +
    "@media (prefers-color-scheme:dark){.csw-root{--csw-bg:#14161b;--csw-fg:#e8eaef;--csw-muted:#a9b0bf;--csw-bubble:#262a33;" +
    "--csw-agent:#1b3324;--csw-line:#3a3f4b;--csw-field:#111318;--csw-field-line:#8a909c;--csw-away-bg:#3a2e0a;--csw-away-fg:#f5dc9a;--csw-danger:#f97066;--csw-link:var(--csw-link-d)}}" +
    ".csw-launch{position:fixed;bottom:20px;z-index:2147483000;border:0;border-radius:28px;background:var(--csw-c);" +
    "color:var(--csw-on-c);font:600 15px system-ui,sans-serif;padding:14px 20px;cursor:pointer;box-shadow:0 4px 14px rgba(0,0,0,.25)}" +
    ".csw-badge{position:absolute;top:-6px;inset-inline-end:-6px;min-width:22px;height:22px;padding:0 6px;box-sizing:border-box;" +
    "border-radius:11px;background:#b42318;color:#fff;font:700 12px/22px system-ui,sans-serif;text-align:center;box-shadow:0 0 0 2px #fff}" +
    ".csw-launch,.csw{inset-inline-end:20px}.csw-left .csw-launch,.csw-left .csw{inset-inline-end:auto;inset-inline-start:20px}" +
    ".csw-root button:focus-visible,.csw-root textarea:focus-visible,.csw-root input:focus-visible{outline:3px solid #ffbf47;outline-offset:2px}" +
    ".csw{position:fixed;bottom:84px;z-index:2147483000;width:360px;max-width:calc(100vw - 40px);height:540px;" +
    "max-height:calc(100vh - 110px);display:flex;flex-direction:column;background:var(--csw-bg);color:var(--csw-fg);border-radius:12px;" +
    "box-shadow:0 8px 30px rgba(0,0,0,.3);font:14px/1.45 system-ui,sans-serif;overflow:hidden}" +
    ".csw[hidden],.csw-root [hidden]{display:none}.csw-head{display:flex;align-items:center;justify-content:space-between;background:var(--csw-c);color:var(--csw-on-c);padding:10px 14px}" +
    ".csw-head h2{font-size:16px;margin:0}.csw-x{background:none;border:0;color:inherit;font-size:22px;cursor:pointer;line-height:1}" +
    ".csw-away{background:var(--csw-away-bg);color:var(--csw-away-fg);padding:var(--csw-s2) var(--csw-s3);font-size:13px;border-bottom:1px solid var(--csw-line)}" +
    ".csw-log{flex:1;overflow-y:auto;padding:var(--csw-s3);display:flex;flex-direction:column;gap:var(--csw-s2);margin:0;list-style:none}" +
    ".csw-msg{max-width:85%;padding:8px 11px;border-radius:10px;white-space:pre-wrap;overflow-wrap:anywhere;text-align:start}" +
    ".csw-contact{align-self:flex-end;background:var(--csw-c);color:var(--csw-on-c)}.csw-bot,.csw-agent,.csw-system,.csw-hello{align-self:flex-start;background:var(--csw-bubble)}" +
    ".csw-fb{display:flex;gap:4px;margin-top:4px}.csw-fb button{border:1px solid var(--csw-line);background:none;color:inherit;border-radius:12px;padding:1px 8px;cursor:pointer;font:inherit;font-size:12px}" +
    ".csw-fb button[aria-pressed=true]{background:var(--csw-c);border-color:var(--csw-c);color:var(--csw-on-c)}" +
    ".csw-agent{background:var(--csw-agent)}.csw-who{display:block;font-size:11px;font-weight:600;color:var(--csw-muted);margin-bottom:2px}" +
    ".csw-time{display:block;font-size:11px;color:var(--csw-muted);margin-top:2px}.csw-contact .csw-time{color:inherit}.csw-failed{box-shadow:0 0 0 2px var(--csw-danger)}.csw-retry{margin-inline-start:8px;border:0;border-radius:var(--csw-radius);background:var(--csw-bg);color:var(--csw-fg);font:600 12px system-ui,sans-serif;padding:2px 8px;cursor:pointer}" +
    ".csw-src{margin:6px 0 0;padding-inline-start:16px;font-size:12px}.csw-msg a{color:inherit}" +
    ".csw-typing{font-size:18px;line-height:1;color:var(--csw-muted);padding:0 var(--csw-s3)}" +
    ".csw-status{font-size:12px;color:var(--csw-muted);padding:var(--csw-s1) var(--csw-s3);min-height:1em}" +
    ".csw-form,.csw-mail,.csw-rate{display:flex;flex-wrap:wrap;gap:6px;padding:var(--csw-s2);border-top:1px solid var(--csw-line)}" +
    ".csw-form textarea,.csw-root input[type=email],.csw-rate textarea{flex:1;min-width:0;resize:none;font:inherit;padding:6px;border:1px solid var(--csw-field-line);border-radius:var(--csw-radius);background:var(--csw-field);color:var(--csw-fg)}" +
    ".csw-root form button,.csw-human{border:0;border-radius:var(--csw-radius);background:var(--csw-c);color:var(--csw-on-c);font:600 13px system-ui,sans-serif;padding:6px 12px;cursor:pointer}" +
    ".csw-human{background:none;color:var(--csw-link);text-decoration:underline;padding:4px 12px;align-self:flex-start}" +
    ".csw-note{width:100%;margin:0;font-size:13px}.csw-stars{display:flex;gap:2px;width:100%}" +
    ".csw-root .csw-stars button,.csw-root form .csw-tool,.csw-root .csw-emoji button{background:none;color:var(--csw-muted);padding:2px 6px;font:22px/1 system-ui,sans-serif}" +
    ".csw-root .csw-stars .csw-on{color:var(--csw-link)}.csw-root .csw-rate .csw-skip{background:none;color:var(--csw-link);text-decoration:underline;font-weight:400;width:100%;text-align:start;padding:2px 0}" +
    ".csw-tools,.csw-files{display:flex;flex-wrap:wrap;gap:4px;width:100%;margin:0;padding:0;list-style:none}.csw-root form .csw-tool{font-size:18px}" +
    ".csw-files li{display:flex;align-items:center;gap:4px;font-size:12px;border:1px solid var(--csw-line);border-radius:var(--csw-radius);padding:2px 4px;max-width:100%;overflow-wrap:anywhere}" +
    ".csw-files img{width:32px;height:32px;object-fit:cover;border-radius:4px}.csw-root form .csw-files button{background:none;color:var(--csw-fg);padding:0 4px}" +
    ".csw-emoji{display:grid;grid-template-columns:repeat(8,1fr);width:100%}.csw-root .csw-emoji button{color:inherit;padding:4px 0}" +
    ".csw-att{display:block;margin-top:4px}.csw-img{display:block;max-width:100%;max-height:200px;border-radius:var(--csw-radius)}" +
    ".csw-av{display:inline-block;width:20px;height:20px;border-radius:50%;background:var(--csw-c);color:var(--csw-on-c);font:700 10px/20px system-ui,sans-serif;text-align:center;margin-inline-end:6px}" +
    ".csw-log .csw-cont{margin-top:-5px}.csw-cont .csw-who,.csw-more>.csw-time{display:none}.csw-drop .csw-form{outline:2px dashed var(--csw-link)}" +
    ".csw-sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}" +
    // On a phone the open panel takes the whole screen, clear of the
    // notch and home bar, and the launcher steps aside: × closes it.
    "@media (max-width:480px){.csw-root .csw{inset:0;width:auto;height:auto;max-width:none;max-height:none;border-radius:0;" +
    "padding:env(safe-area-inset-top) env(safe-area-inset-right) env(safe-area-inset-bottom) env(safe-area-inset-left)}" +
    ".csw-open .csw-launch{display:none}.csw-root .csw-form textarea{font-size:16px}}";
  var style = document.createElement("style");
  style.textContent = css;
  document.head.appendChild(style);

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text != null) e.textContent = text;
    return e;
  }
  function add(parent) { for (var i = 1; i < arguments.length; i++) parent.appendChild(arguments[i]); return parent; }
  var root = el("div", { "class": "csw-root" });
  // The launcher stays hidden until the site's look is known (see paint).
  var launch = el("button", { "class": "csw-launch", type: "button", "aria-expanded": "false", "aria-controls": "csw-panel", hidden: "" });
  var launchText = el("span"), dot = el("span", { "class": "csw-badge", "aria-hidden": "true", hidden: "" });
  add(launch, launchText, dot);
  var panel = el("section", { "class": "csw", id: "csw-panel", role: "dialog", hidden: "" });
  var heading = el("h2");
  var close = el("button", { "class": "csw-x", type: "button" }, "\u00d7");
  var away = el("p", { "class": "csw-away", hidden: "" });
  var log = el("ol", { "class": "csw-log", "aria-live": "polite" });
  var hello = el("li", { "class": "csw-msg csw-hello", hidden: "" });
  var status = el("div", { "class": "csw-status", role: "status" });
  var typing = el("div", { "class": "csw-typing", "aria-hidden": "true", hidden: "" }, "\u2022\u2022\u2022"); // the team is typing
  var human = el("button", { "class": "csw-human", type: "button" });
  var form = el("form", { "class": "csw-form" });
  var label = el("label", { "for": "csw-input", "class": "csw-sr" });
  var input = el("textarea", { id: "csw-input", rows: "2", maxlength: "4000" });
  var send = el("button", { type: "submit" });
  // The composer's files (chosen, uploading or uploaded) and tools.
  var fileList = el("ul", { "class": "csw-files" });
  var fileInput = el("input", { type: "file", multiple: "", hidden: "", accept: "image/*,application/pdf,text/plain,audio/*,video/*,.zip" });
  var attachBtn = el("button", { type: "button", "class": "csw-tool", hidden: "" });
  attachBtn.innerHTML = '<svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true">' +
    '<path d="M21 11l-8.5 8.5a5 5 0 01-7-7L14 4a3.5 3.5 0 015 5l-8.5 8.5a2 2 0 01-3-3L15 7"/></svg>'; // a paper clip
  var emojiBtn = el("button", { type: "button", "class": "csw-tool", "aria-expanded": "false", "aria-controls": "csw-emoji" }, "\ud83d\ude0a");
  var emo = el("div", { "class": "csw-emoji", id: "csw-emoji", role: "group", hidden: "" });
  "\ud83d\ude00 \ud83d\ude02 \ud83d\ude0a \ud83d\ude0d \ud83d\ude42 \ud83d\ude09 \ud83d\ude05 \ud83e\udd14 \ud83d\ude2e \ud83d\ude22 \ud83d\udc4d \ud83d\udc4e \ud83d\udc4f \ud83d\ude4f \ud83d\udc4b \ud83d\ude4c \u2764\ufe0f \ud83c\udf89 \ud83d\udd25 \u2705 \u274c \u2b50 \ud83d\udce6 \ud83d\udca1"
    .split(" ").forEach(function (c) { emo.appendChild(el("button", { type: "button" }, c)); });
  // The e-mail form: before the first message (require_email) or while away.
  var mail = el("form", { "class": "csw-mail", hidden: "" });
  var mailNote = el("p", { "class": "csw-note", id: "csw-mail-note" });
  var mailLabel = el("label", { "for": "csw-email", "class": "csw-sr" });
  var mailInput = el("input", { id: "csw-email", type: "email", required: "", autocomplete: "email", "aria-describedby": "csw-mail-note" });
  var mailSend = el("button", { type: "submit" });
  // The rating form, once a conversation is closed.
  var rate = el("form", { "class": "csw-rate", hidden: "" });
  var rateNote = el("p", { "class": "csw-note", id: "csw-rate-note" });
  var stars = el("div", { "class": "csw-stars", role: "group", "aria-labelledby": "csw-rate-note" });
  var rateLabel = el("label", { "for": "csw-comment", "class": "csw-sr" });
  var comment = el("textarea", { id: "csw-comment", rows: "2", maxlength: "1000" });
  var rateSend = el("button", { type: "submit", hidden: "" });
  var skip = el("button", { type: "button", "class": "csw-skip" });
  var score = 0;
  for (var n = 1; n <= 5; n++) stars.appendChild(el("button", { type: "button", "data-score": n, "aria-pressed": "false" }, "\u2606"));
  comment.hidden = true;
  add(form, fileList, label, input, send, add(el("div", { "class": "csw-tools" }), attachBtn, emojiBtn, fileInput), emo);
  add(mail, mailNote, mailLabel, mailInput, mailSend);
  add(rate, rateNote, stars, rateLabel, comment, rateSend, skip);
  log.appendChild(hello);
  add(panel, add(el("div", { "class": "csw-head" }), heading, close), away, log, typing, status, human, mail, rate, form);
  add(root, panel, launch);
  document.body.appendChild(root);

  // texts paints every fixed text in the widget's language.
  function texts() {
    var title = script.getAttribute("data-title") || L.title;
    launchText.textContent = L.chat; badge(); panel.setAttribute("aria-label", title); heading.textContent = title;
    close.setAttribute("aria-label", L.close); log.setAttribute("aria-label", L.messages); human.textContent = L.human;
    label.textContent = L.label; input.placeholder = L.placeholder; send.textContent = L.send;
    mailLabel.textContent = L.email; mailInput.placeholder = L.email; mailSend.textContent = L.save;
    rateNote.textContent = L.rate; rateLabel.textContent = L.comment; comment.placeholder = L.comment; rateSend.textContent = L.rateSend;
    [].forEach.call(stars.children, function (b) { b.title = t("stars", { n: b.getAttribute("data-score") }); b.setAttribute("aria-label", b.title); });
    attachBtn.setAttribute("aria-label", L.attach); attachBtn.title = L.attach; fileInput.setAttribute("aria-label", L.attach); emojiBtn.setAttribute("aria-label", L.emoji); emojiBtn.title = L.emoji;
    emo.setAttribute("aria-label", L.emoji); skip.textContent = L.skip;
    panel.setAttribute("lang", lang); launch.setAttribute("lang", lang);
  }
  // look applies the site's settings from the session.
  function look(s) {
    for (var k in s) conf[k] = s[k];
    setLocale(); texts();
    brand(/^#[0-9a-f]{6}$/i.test(conf.color) ? conf.color : "#2563EB");
    root.classList.toggle("csw-left", conf.position === "left");
    hello.textContent = conf.greeting || ""; hello.hidden = !conf.greeting || log.children.length > 1;
    var off = conf.availability === "offline";
    away.hidden = !off;
    away.textContent = off ? [conf.offline_message || L.away, conf.next_open_at ? t("back", { when: when(conf.next_open_at) }) : ""].join(" ") : "";
    ask();
  }
  function when(ts) {
    return new Date(ts).toLocaleString(lang, { weekday: "long", hour: "2-digit", minute: "2-digit", timeZoneName: "short" });
  }
  // ask shows the e-mail form when the site wants an address and has none.
  function ask() {
    var need = !load(":email") && (conf.require_email || conf.availability === "offline");
    mail.hidden = !need;
    mailNote.textContent = conf.require_email ? L.prechat : L.email;
    prechat = need && !!conf.require_email;
    showConversation(conv);
    mailSend.textContent = conf.require_email ? L.start : L.save;
  }
  // ---- contrast --------------------------------------------------------
  // Any site colour stays readable (WCAG AA, 4.5:1): text on it is light or
  // dark, whichever contrasts more, and links take the site's hue, darkened
  // on the light panel or lightened on the dark one until they reach 4.5:1.
  function rgb(hex) { return [1, 3, 5].map(function (i) { return parseInt(hex.substr(i, 2), 16); }); }
  function luminance(c) {
    var v = c.map(function (x) { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
  }
  function contrast(a, b) {
    var x = luminance(a), y = luminance(b);
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  }
  function hex(c) { return "#" + c.map(function (x) { return (256 + Math.round(x)).toString(16).slice(1); }).join(""); }
  // readableOn is the text colour for background c: white or the widget's
  // dark text, else black when neither reaches 4.5:1 (mid-tone colours).
  function readableOn(c) {
    var light = [255, 255, 255], dark = [29, 35, 48], best = contrast(light, c) >= contrast(dark, c) ? light : dark;
    return hex(contrast(best, c) >= 4.5 ? best : [0, 0, 0]);
  }
  // linkOn moves c towards black or white until it reads at 4.5:1 on bg.
  function linkOn(c, bg, to) {
    for (var k = 0; k <= 20 && contrast(c, bg) < 4.5; k++) c = c.map(function (x, i) { return x + (to[i] - x) * 0.1; });
    return hex(c);
  }
  function brand(color) {
    var c = rgb(color);
    root.style.setProperty("--csw-c", color);
    root.style.setProperty("--csw-on-c", readableOn(c));
    root.style.setProperty("--csw-link-l", linkOn(c, [255, 255, 255], [0, 0, 0]));
    root.style.setProperty("--csw-link-d", linkOn(c, [20, 22, 27], [255, 255, 255]));
  }
  brand(conf.color);
  texts();
  // paint shows the launcher in the site's look, from its first paint: at
  // once with the look this browser kept from an earlier page, else once the
  // server sent it (GET /sites/{id} records no visitor). Without either the
  // launcher shows in the default look rather than not at all.
  function paint(s) {
    if (s) { look(s); save(JSON.stringify(s), ":look"); }
    launch.hidden = false;
  }
  try { var kept = JSON.parse(load(":look")); if (kept && kept.color) { look(kept); launch.hidden = false; } } catch (e) {}
  fetch(base + "/sites/" + encodeURIComponent(site || "-"))
    .then(function (r) { return r.ok ? r.json() : null; })
    .then(paint, function () { paint(null); });

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
  // ago is a message's time as the visitor reads it: relative when recent.
  function ago(ts) {
    var d = new Date(ts), s = (Date.now() - d) / 1000;
    if (s < 60) return L.now;
    if (s < 3600 && window.Intl && Intl.RelativeTimeFormat) return new Intl.RelativeTimeFormat(lang, { numeric: "auto" }).format(-Math.round(s / 60), "minute");
    return d.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
  }
  // Messages of one author within one minute form a group: the name and
  // avatar show once, the time under the last one.
  var lastKey = "", lastLi = null;
  function show(m) {
    if (!m || seen[m.id]) return;
    seen[m.id] = true;
    hello.hidden = true;
    var li = bubble(m), a = m.author || {}, key = a.type + "|" + a.name + "|" + (m.created_at || "").slice(0, 16);
    place(li, m);
    if (key === lastKey && lastLi && lastLi.parentNode && li.previousSibling === lastLi) {
      li.classList.add("csw-cont");
      lastLi.classList.add("csw-more");
    }
    lastKey = key; lastLi = li;
    if (!quiet && a.type !== "contact") chime();
    if (m.created_at > latest) latest = m.created_at;
    if (opened) read();
    else if (m.author && m.author.type !== "contact" && m.created_at > readAt) { unread++; badge(); }
  }
  // The launcher counts the team's and the assistant's messages the visitor
  // has not seen with the panel open, on this page or since their last one:
  // readAt, the time of the latest message seen, is kept in the browser.
  function read() {
    unread = 0; badge();
    if (latest > readAt) { readAt = latest; save(readAt, ":read"); }
  }
  function badge() {
    dot.hidden = !unread;
    dot.textContent = unread > 9 ? "9+" : String(unread);
    if (unread) launch.setAttribute("aria-label", L.chat + " \u2013 " + t("unread", { n: unread }));
    else launch.removeAttribute("aria-label");
  }
  // place adds li to the transcript, in place of the visitor's bubble that
  // waited for this message, if any.
  function place(li, m) {
    var wait = m && m.author && m.author.type === "contact" && [].find.call(log.querySelectorAll(".csw-pending,.csw-failed"),
      function (n) { return n.__text === m.body; });
    if (wait) log.replaceChild(li, wait); else log.appendChild(li);
    log.scrollTop = log.scrollHeight;
  }
  // bubble is the transcript's item for message m.
  function bubble(m) {
    var type = m.author && m.author.type || "system";
    if (type === "agent") typing.hidden = true;
    var li = el("li", { "class": "csw-msg csw-" + type, dir: "auto" });
    if (m.id) li.setAttribute("data-id", m.id);
    if (type !== "contact") {
      var who = (m.author && m.author.name) || { bot: L.bot, agent: L.agent }[type];
      // The avatar: the author's initials.
      if (who) li.appendChild(add(el("span", { "class": "csw-who" }), el("span", { "class": "csw-av", "aria-hidden": "true" },
        who.split(/\s+/).map(function (w) { return w.charAt(0); }).join("").slice(0, 2).toUpperCase()), document.createTextNode(who)));
    } else {
      li.appendChild(el("span", { "class": "csw-sr" }, L.you));
    }
    var body = el("span", { "class": "csw-body" });
    richText(body, m.body);
    li.appendChild(body);
    // Pictures show in the message (a file that is no picture after all
    // falls back to its link); other files are links.
    (m.attachments || []).forEach(function (f) {
      var a = li.appendChild(el("a", { href: f.url, target: "_blank", rel: "noopener", "class": "csw-att" }, f.name));
      if (!/\.(png|jpe?g|gif|webp|bmp)$/i.test(f.name)) return;
      var img = el("img", { src: f.url, alt: f.name, "class": "csw-img" });
      img.onerror = function () { a.textContent = f.name; };
      a.replaceChildren(img);
    });
    if (m.sources && m.sources.length) {
      var ul = el("ul", { "class": "csw-src", "aria-label": L.sources });
      m.sources.forEach(function (s) {
        var item = el("li");
        if (s.url) item.appendChild(el("a", { href: s.url, target: "_blank", rel: "noopener" }, s.title || s.url));
        else item.textContent = s.title;
        ul.appendChild(item);
      });
      li.appendChild(ul);
    }
    // Only an answer from the pages takes feedback: not a greeting nor the
    // word that a person is coming.
    if (type === "bot" && m.sources && m.sources.length) li.appendChild(feedback(m.id));
    if (m.created_at) li.appendChild(el("time", { "class": "csw-time", datetime: m.created_at }, ago(m.created_at)));
    return li;
  }
  // waiting shows the visitor's text at once, as sending (li: again, after
  // a failure), until the server's message takes its place.
  function waiting(text, li, files) {
    if (!li) {
      li = bubble({ body: text, author: { type: "contact" }, attachments: files.map(function (c) { return { url: c.url, name: c.file.name }; }) });
      li.__text = text; li.__files = files;
      li.appendChild(el("span", { "class": "csw-time csw-state" }));
      place(li);
      hello.hidden = true;
    }
    li.className = "csw-msg csw-contact csw-pending";
    li.querySelector(".csw-state").textContent = L.sending;
    var again = li.querySelector(".csw-retry");
    if (again) li.removeChild(again);
    return li;
  }
  // failed marks a waiting bubble as not sent, with a button to send it again.
  function failed(li) {
    if (!li.parentNode) return; // the server's message took its place after all
    li.className = "csw-msg csw-contact csw-failed";
    li.querySelector(".csw-state").textContent = L.failed;
    var again = el("button", { type: "button", "class": "csw-retry" }, L.retry);
    again.onclick = function () { post(li.__text, li, li.__files); };
    li.appendChild(again);
  }
  // feedback: helpful / not helpful under an assistant reply; pressing the
  // other one replaces the verdict.
  function feedback(id) {
    var box = el("span", { "class": "csw-fb" });
    [[true, L.helpful], [false, L.unhelpful]].forEach(function (b) {
      var btn = el("button", { type: "button", "data-helpful": b[0], "aria-pressed": "false" }, b[1]);
      btn.onclick = function () {
        call("POST", "/messages/" + id + "/feedback", { helpful: b[0] }).then(function () {
          box.querySelectorAll("button").forEach(function (o) { o.setAttribute("aria-pressed", String(o === btn)); });
        }, function () {});
      };
      box.appendChild(btn);
    });
    return box;
  }
  var said = null; // what the status line last said of the conversation
  function showConversation(c) {
    conv = c;
    var st = c && c.status, done = c && (c.rating || rated[c.id]);
    // A rated conversation keeps its thanks, whichever of the answer and the
    // live update arrives last.
    // While the team is away, a waiting visitor is told when it is back, as
    // the banner and the assistant say, not that someone joins shortly.
    // A passing message (a file refused, a message not sent) stays until
    // there is something new to say: a live update of the same state does
    // not wipe it.
    var say = done ? L.thanks : st == "waiting" && away.textContent || (st && st != "open" ? L[st] || "" : "");
    if (say !== said) status.textContent = said = say;
    // The rating takes the composer's place (until rated or skipped), the
    // transcript above it kept in view to its last reply.
    rate.hidden = !(st === "closed" && !done && !skipped[c.id]);
    form.hidden = prechat || !rate.hidden;
    human.hidden = form.hidden || st === "waiting" || st === "handed_off" || st === "closed";
    if (!rate.hidden) log.scrollTop = log.scrollHeight;
  }

  // ---- API -------------------------------------------------------------
  function call(method, path, body) {
    var headers = { "Content-Type": "application/json" };
    if (token) headers["X-Visitor-Token"] = token;
    return fetch(base + path, { method: method, headers: headers, body: body ? JSON.stringify(body) : undefined }).then(answer);
  }
  function answer(r) {
    // A proxy's error page is not JSON: the status says enough then.
    return r.json().catch(function () { return {}; }).then(function (j) {
      if (!r.ok) { var e = new Error((j.error && j.error.message) || r.statusText); e.status = r.status; e.param = j.error && j.error.param; throw e; }
      return j;
    });
  }
  function start() {
    if (starting) return starting;
    var saved = load();
    var req = { site_id: site, page_url: location.href, test: test };
    if (saved) req.visitor_token = saved;
    starting = call("POST", "/sessions", req).catch(function (e) {
      if (e.status === 401 && saved) { save(null); save(null, ":email"); delete req.visitor_token; return call("POST", "/sessions", req); }
      throw e;
    }).then(function (s) {
      token = s.visitor_token;
      save(token);
      maxBytes = s.attachment_max_bytes; attachBtn.hidden = !maxBytes;
      if (s.site) paint(s.site);
      showConversation(s.conversation);
      if (s.conversation) return call("GET", "/messages").then(function (l) {
        var first = !readAt; // a browser from before the count: its past counts as seen
        l.data.forEach(show);
        if (first) read();
      });
    }).then(function () { quiet = false; listen(); }).catch(function (e) {
      starting = null;
      status.textContent = L.unavailable + " (" + e.message + ")";
    });
    return starting;
  }
  function listen() {
    if (events) events.close();
    events = new EventSource(base + "/events?visitor_token=" + encodeURIComponent(token));
    events.addEventListener("open", function () { retry = 1000; });
    events.addEventListener("message", function (e) { show(JSON.parse(e.data)); });
    events.addEventListener("conversation", function (e) { showConversation(JSON.parse(e.data)); });
    events.addEventListener("typing", function (e) { showTyping(JSON.parse(e.data).seconds); });
    events.addEventListener("error", function () {
      if (events.readyState === EventSource.CLOSED) { // the browser gave up: reconnect ourselves
        setTimeout(listen, retry);
        retry = Math.min(retry * 2, 30000);
      }
    });
  }
  // showTyping shows the team typing for a few seconds; a message ends it.
  var typingTimer = null;
  function showTyping(seconds) {
    typing.hidden = false;
    clearTimeout(typingTimer);
    typingTimer = setTimeout(function () { typing.hidden = true; }, seconds * 1000);
  }
  // typed tells the team the visitor is typing, at most every few seconds.
  var typedAt = 0;
  function typed() {
    if (!token || Date.now() - typedAt < 3000) return;
    typedAt = Date.now();
    fetch(base + "/typing", { method: "POST", headers: { "Content-Type": "application/json", "X-Visitor-Token": token }, body: "{}" })
      .catch(function () {});
  }
  // post sends the visitor's text, shown at once as a waiting bubble (li
  // when sending it again).
  function post(text, li, files) {
    li = waiting(text, li, files);
    return start().then(function () { return Promise.all(files.map(function (c) { return c.p; })); })
      .then(function (ids) {
        var b = { page_url: location.href };
        if (text) b.body = text;
        if (ids.length) b.attachments = ids;
        return call("POST", "/messages", b);
      })
      .then(function (r) { show(r.message); show(r.reply); }) // a new conversation comes with its own event, which ends any rating step
      .catch(function (e) {
        if (e.param === "email") { conf.require_email = true; save(null, ":email"); ask(); }
        failed(li);
        status.textContent = L.notSent + " (" + e.message + ")";
      });
  }

  // ---- files -----------------------------------------------------------
  // A chosen file uploads at once; the message names it when sent. Files
  // the server would refuse (too large, a kind it does not take) are
  // refused here first, with the reason.
  var KINDS = /^(image\/(png|jpeg|gif|webp|bmp)|application\/(pdf|zip)|text\/plain|audio\/|video\/(mp4|webm))/;
  function size(n) { return n < 1e6 ? Math.ceil(n / 1e3) + " KB" : (n / 1e6).toFixed(1) + " MB"; }
  function attach(list) {
    [].forEach.call(list, function (f) {
      if (maxBytes && f.size > maxBytes) status.textContent = t("big", { name: f.name, max: size(maxBytes) });
      else if (f.type && !KINDS.test(f.type)) status.textContent = t("type", { name: f.name });
      else if (chosen.length < 5) {
        var c = { file: f, url: "" }; // url: the server's, once uploaded (what a page's policy lets in)
        c.p = start().then(function () {
          var fd = new FormData();
          fd.append("file", f, f.name);
          return fetch(base + "/attachments", { method: "POST", headers: { "X-Visitor-Token": token }, body: fd }).then(answer);
        }).then(function (u) { c.url = u.url; chips(); return u.id; });
        c.p.catch(function (e) { unchoose(c); status.textContent = f.name + ": " + e.message; });
        chosen.push(c);
      }
    });
    chips();
  }
  function unchoose(c) { chosen = chosen.filter(function (x) { return x !== c; }); chips(); }
  // chips shows the chosen files above the text box, pictures as thumbnails.
  function chips() {
    fileList.replaceChildren.apply(fileList, chosen.map(function (c) {
      var li = el("li"), x = el("button", { type: "button", "aria-label": t("remove", { name: c.file.name }) }, "\u00d7");
      if (c.url && /^image\//.test(c.file.type)) li.appendChild(el("img", { src: c.url, alt: "" }));
      x.onclick = function () { unchoose(c); input.focus(); };
      return add(li, document.createTextNode(c.file.name), x);
    }));
  }
  // chime plays a short tone for a new reply, when the page asked for it.
  var audio = null;
  function chime() {
    if (!sound) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      var o = audio.createOscillator(), g = audio.createGain(), now = audio.currentTime;
      o.frequency.value = 880;
      g.gain.setValueAtTime(0.2, now);
      g.gain.exponentialRampToValueAtTime(0.001, now + 0.3);
      o.connect(g); g.connect(audio.destination); o.start(now); o.stop(now + 0.3);
    } catch (e) {}
  }
  // Relative times move on ("just now" becomes "1 minute ago"): every 20
  // seconds, and as the panel opens.
  function times() {
    [].forEach.call(log.querySelectorAll("time[datetime]"), function (n) { n.textContent = ago(n.getAttribute("datetime")); });
  }
  setInterval(times, 20000);

  // ---- events ----------------------------------------------------------
  function toggle(open) {
    opened = open;
    panel.hidden = !open;
    root.classList.toggle("csw-open", open);
    if (open) { read(); times(); }
    launch.setAttribute("aria-expanded", String(open));
    // Messages shown while the panel was hidden had no height to scroll by.
    if (open) { log.scrollTop = log.scrollHeight; start(); (form.hidden ? mailInput : input).focus(); } else { launch.focus(); }
  }
  launch.addEventListener("click", function () { toggle(!opened); });
  close.addEventListener("click", function () { toggle(false); });
  panel.addEventListener("keydown", function (e) { if (e.key === "Escape") toggle(false); });
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var text = input.value.trim(), files = chosen;
    if (!text && !files.length) return;
    input.value = ""; chosen = []; chips(); emo.hidden = true;
    post(text, null, files);
  });
  attachBtn.addEventListener("click", function () { fileInput.click(); });
  fileInput.addEventListener("change", function () { attach(fileInput.files); fileInput.value = ""; });
  input.addEventListener("paste", function (e) {
    var f = e.clipboardData && e.clipboardData.files;
    if (f && f.length && maxBytes) { e.preventDefault(); attach(f); }
  });
  panel.addEventListener("dragover", function (e) {
    if (form.hidden || !maxBytes || [].indexOf.call(e.dataTransfer.types, "Files") < 0) return;
    e.preventDefault(); root.classList.add("csw-drop");
  });
  panel.addEventListener("dragleave", function (e) { if (!panel.contains(e.relatedTarget)) root.classList.remove("csw-drop"); });
  panel.addEventListener("drop", function (e) {
    root.classList.remove("csw-drop");
    if (form.hidden || !maxBytes || !e.dataTransfer.files.length) return;
    e.preventDefault(); attach(e.dataTransfer.files);
  });
  emojiBtn.addEventListener("click", function () {
    emo.hidden = !emo.hidden;
    emojiBtn.setAttribute("aria-expanded", String(!emo.hidden));
    if (!emo.hidden) emo.firstChild.focus();
  });
  emo.addEventListener("click", function (e) {
    var b = e.target.closest("button");
    if (!b) return;
    var a = input.selectionStart, z = input.selectionEnd, c = b.textContent;
    input.value = input.value.slice(0, a) + c + input.value.slice(z);
    input.focus();
    input.selectionStart = input.selectionEnd = a + c.length;
  });
  emo.addEventListener("keydown", function (e) {
    if (e.key === "Escape") { e.stopPropagation(); emo.hidden = true; emojiBtn.setAttribute("aria-expanded", "false"); emojiBtn.focus(); }
  });
  input.addEventListener("input", typed);
  input.addEventListener("keydown", function (e) {
    if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); form.requestSubmit ? form.requestSubmit() : form.dispatchEvent(new Event("submit")); }
  });
  mail.addEventListener("submit", function (e) {
    e.preventDefault();
    start().then(function () { return call("POST", "/identify", { email: mailInput.value.trim() }); })
      .then(function () { save("1", ":email"); mail.hidden = true; prechat = false; showConversation(conv); status.textContent = L.saved; input.focus(); })
      .catch(function (e) { status.textContent = e.message; });
  });
  stars.addEventListener("click", function (e) {
    var b = e.target.closest("button");
    if (!b) return;
    score = +b.getAttribute("data-score");
    [].forEach.call(stars.children, function (s, i) {
      s.setAttribute("aria-pressed", String(s === b));
      s.textContent = i < score ? "\u2605" : "\u2606";
      s.classList.toggle("csw-on", i < score);
    });
    comment.hidden = rateSend.hidden = false;
  });
  skip.addEventListener("click", function () { if (conv) skipped[conv.id] = true; showConversation(conv); input.focus(); });
  rate.addEventListener("submit", function (e) {
    e.preventDefault();
    if (!score) return;
    var body = { score: score };
    if (comment.value.trim()) body.comment = comment.value.trim();
    call("POST", "/rating", body).then(function (c) { rated[c.id] = true; showConversation(c); })
      .catch(function (e) { status.textContent = e.message; });
  });
  human.addEventListener("click", function () {
    start().then(function () { return call("POST", "/handoff"); })
      .then(function (c) { showConversation(c); return call("GET", "/messages"); })
      .then(function (l) { l.data.forEach(show); })
      .catch(function (e) {
        if (e.status === 404) return post(L.ask, null, []);
        status.textContent = L.noTeam + " (" + e.message + ")";
      });
  });
  if (load()) start(); // a returning visitor gets live replies even before opening the panel
})();
