(function () {
  "use strict";
  var list = document.getElementById("today-list");
  var tag = list ? list.getAttribute("data-etag") : null;
  var QUEUE = "stackday.queue";
  var waiting = document.getElementById("queue-state");
  function refresh() {
    if (!list) return Promise.resolve();
    var headers = tag ? { "If-None-Match": tag } : {};
    return fetch("/today.html", { headers: headers, credentials: "same-origin" }).then(function (answer) {
      if (answer.status !== 200) return;
      tag = answer.headers.get("ETag");
      return answer.text().then(function (html) { list.innerHTML = html; remark(); showRefusals(); });
    }).catch(function () {});
  }
  function show(message) {
    var box = document.getElementById("notice");
    if (box) { box.textContent = message; }
  }

  // Check-ins made without a network wait here (in this browser's storage, so a closed page
  // keeps them), each with the Idempotency-Key it is sent with, so that a retry never doubles it.
  function queued() {
    try { return JSON.parse(localStorage.getItem(QUEUE) || "[]"); } catch (e) { return []; }
  }
  function keep(items) {
    localStorage.setItem(QUEUE, JSON.stringify(items));
    if (!waiting) return;
    var words = waiting.getAttribute("data-words") || "offline · {n} waiting";
    waiting.textContent = items.length ? words.replace("{n}", String(items.length)) : "";
    waiting.setAttribute("data-waiting", String(items.length));
  }
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return String(Date.now()) + "-" + String(Math.random()).slice(2);
  }
  function send(item) {
    return fetch(item.action, { method: "POST", body: item.body, credentials: "same-origin",
                                headers: { "X-Requested-With": "fetch", "Content-Type": "application/x-www-form-urlencoded", "Idempotency-Key": item.key } });
  }
  var flushing = false;
  var refusals = [];
  function words(name, fallback) { return (waiting && waiting.getAttribute(name)) || fallback; }
  // What a refused answer says: the page's alert, in the page's language.
  function reason(answer) {
    return answer.text().then(function (html) {
      var found = new DOMParser().parseFromString(html, "text/html").querySelector("[role=alert]");
      return found ? found.textContent.trim() : "";
    }).catch(function () { return ""; });
  }
  function cardOf(node) { return node && node.closest ? node.closest("li[data-habit]") : null; }
  function cardFor(habit) {
    if (!list || !habit) return null;
    var cards = list.querySelectorAll("li[data-habit]");
    for (var i = 0; i < cards.length; i++) if (cards[i].getAttribute("data-habit") === habit) return cards[i];
    return null;
  }
  // A refusal stays on the card it concerns, naming what was not kept, across the list's refreshes.
  function showRefusals() {
    refusals.forEach(function (refusal) {
      var card = cardFor(refusal.habit);
      if (!card || card.querySelector("[data-refused]")) return;
      var note = document.createElement("p");
      note.className = "error";
      note.setAttribute("data-refused", refusal.kind);
      note.setAttribute("role", "alert");
      note.textContent = refusal.text;
      card.appendChild(note);
    });
  }
  function refusal(item) {
    return words("data-refused", "Not kept: {what} ({habit}).").replace("{what}", item.what || "").replace("{habit}", item.habit || "");
  }
  function refused(item, text) {
    var line = refusal(item);
    refusals = refusals.filter(function (other) { return other.habit !== item.habit; });
    refusals.push({ habit: item.habit, kind: item.kind, text: text ? line + " " + text : line });
    if (!item.habit) show(refusals[refusals.length - 1].text);
  }
  function flush() {
    var items = queued();
    if (flushing || !items.length) return;
    flushing = true;
    var item = items[0];
    send(item).then(function (answer) {
      // Sent: answered, stored or refused; either way it leaves the queue (a refusal is shown on its card).
      keep(queued().filter(function (other) { return other.key !== item.key; }));
      return (answer.ok ? Promise.resolve() : reason(answer).then(function (text) { refused(item, text); })).then(function () {
        flushing = false;
        if (queued().length) flush(); else refresh().then(showRefusals);
      });
    }).catch(function () { flushing = false; });
  }

  // A check-in waiting shows on its card: the card marked waiting, a toggle shown pressed.
  function isToggle(form) {
    return !!form.querySelector("button[aria-pressed]") || form.matches("form[data-action=skip],form[data-action=unskip]");
  }
  function label(form) {
    var button = form.querySelector("button");
    if (!button) return "";
    var copy = button.cloneNode(true);
    copy.querySelectorAll(".sr").forEach(function (node) { node.remove(); });
    return copy.textContent.replace("✓", "").trim();
  }
  function mark(form, key) {
    form.setAttribute("data-queued", key);
    var card = cardOf(form);
    if (!card) return;
    card.setAttribute("data-waiting", "true");
    var button = form.querySelector("button[aria-pressed]");
    if (button) button.setAttribute("aria-pressed", button.getAttribute("aria-pressed") === "true" ? "false" : "true");
    var state = card.querySelector("[data-field=state]");
    if (state) {
      if (!state.hasAttribute("data-was")) state.setAttribute("data-was", state.textContent);
      state.textContent = words("data-card-words", "waiting · tap to take back");
    }
  }
  function unmark(form) {
    form.removeAttribute("data-queued");
    var card = cardOf(form);
    if (!card) return;
    var button = form.querySelector("button[aria-pressed]");
    if (button) button.setAttribute("aria-pressed", button.getAttribute("aria-pressed") === "true" ? "false" : "true");
    if (card.querySelector("form[data-queued]")) return;
    card.removeAttribute("data-waiting");
    var state = card.querySelector("[data-field=state]");
    if (state && state.hasAttribute("data-was")) { state.textContent = state.getAttribute("data-was"); state.removeAttribute("data-was"); }
  }
  // After a load or a refresh, the cards show what still waits.
  function remark() {
    queued().forEach(function (item) {
      var card = cardFor(item.habit);
      if (!card) return;
      card.querySelectorAll("form[data-action]").forEach(function (form) {
        if (form.action === item.action && form.getAttribute("data-action") === item.kind && !form.hasAttribute("data-queued")) mark(form, item.key);
      });
    });
  }
  function wait(form, item) {
    keep(queued().concat([item]));
    mark(form, item.key);
  }
  var lastTap = { form: null, at: 0 };

  // "Remind me on this device": the browser subscribes with the server's key, and the form posts
  // the subscription (endpoint and keys) with this device's name.
  function keyBytes(text) {
    var padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded), bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }
  function subscribe(form) {
    var state = form.querySelector("[data-push-state]");
    var section = form.closest("[data-push-key]");
    function say(text) { if (state) state.textContent = text; }
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window) || !section) {
      say(form.getAttribute("data-unsupported") || "This browser takes no notifications here (on an iPhone, add StackDay to the home screen first).");
      return;
    }
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") throw new Error("denied");
      return navigator.serviceWorker.register("/sw.js").then(function () { return navigator.serviceWorker.ready; });
    }).then(function (registration) {
      say(form.getAttribute("data-asking") || "Asking this browser's push service…");
      // A browser without a reachable push service may never answer: it is told after 10 seconds.
      var silent = new Promise(function (_, reject) { setTimeout(function () { reject(new Error("its push service did not answer")); }, 10000); });
      return Promise.race([silent, registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(section.getAttribute("data-push-key")) })]);
    }).then(function (subscription) {
      var json = subscription.toJSON();
      form.elements.endpoint.value = json.endpoint;
      form.elements.p256dh.value = json.keys.p256dh;
      form.elements.auth.value = json.keys.auth;
      form.elements.name.value = (navigator.userAgentData && navigator.userAgentData.platform) || navigator.platform || "Browser";
      form.submit();
    }).catch(function (error) {
      say(error && error.message === "denied" ? "Notifications are blocked for this site: allow them in the browser's settings." : "This browser could not subscribe: " + (error && error.message || error));
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.matches("form[data-action=push-subscribe]")) {
      event.preventDefault();
      subscribe(form);
      return;
    }
    if (form.matches("form[data-action=sign-out]")) {
      localStorage.removeItem(QUEUE);
      if (navigator.serviceWorker && navigator.serviceWorker.controller) navigator.serviceWorker.controller.postMessage("forget");
      return;
    }
    if (!form.matches("form[data-action=record],form[data-action=undo],form[data-action=skip],form[data-action=unskip],form[data-action=remove],form[data-action=step],form[data-action=step-back]")) return;
    event.preventDefault();
    var toggle = isToggle(form), now = Date.now();
    // A double tap on a toggle is one tap; a later tap on one still waiting takes it back.
    if (toggle && lastTap.form === form && now - lastTap.at < 500) return;
    lastTap = { form: form, at: now };
    var held = form.getAttribute("data-queued");
    if (toggle && held) {
      keep(queued().filter(function (other) { return other.key !== held; }));
      unmark(form);
      return;
    }
    var card = cardOf(form);
    var item = { action: form.action, body: new URLSearchParams(new FormData(form)).toString(), key: newKey(),
                 habit: card ? card.getAttribute("data-habit") : "", kind: form.getAttribute("data-action"), what: label(form) };
    if (queued().length) { wait(form, item); flush(); return; }
    send(item).then(function (answer) {
      // Today's list is refreshed in place; any other page (a habit's day) is shown again.
      if (answer.ok && !list) { window.location.assign(answer.url || window.location.href); return; }
      if (answer.ok) { show(""); refusals = []; return refresh(); }
      return reason(answer).then(function (text) { show(text || refusal(item)); });
    }).catch(function () { wait(form, item); });
  });
  document.querySelectorAll("select[data-policy-role]").forEach(function (select) {
    function update() {
      var role = select.getAttribute("data-policy-role");
      document.querySelectorAll("fieldset[data-params-for^='" + role + ":']").forEach(function (set) {
        var on = set.getAttribute("data-params-for") === role + ":" + select.value;
        set.hidden = !on;
        set.disabled = !on;
      });
    }
    select.addEventListener("change", update);
    update();
  });
  keep(queued());
  remark();
  window.addEventListener("online", flush);
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(function () {});
    // Done tapped on a notification while offline waits in the worker: it sends it now.
    navigator.serviceWorker.ready.then(function (registration) { if (registration.active) registration.active.postMessage("flush"); }).catch(function () {});
  }
  if (list) setInterval(function () { if (queued().length) flush(); else refresh(); }, 3000);
  flush();
})();
