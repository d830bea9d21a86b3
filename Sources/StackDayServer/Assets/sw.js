// StackDay's service worker: keeps the app's shell and the last today page, so the page opens
// without a network; check-ins made offline in the page wait in the page's own queue (app.js).
// It also shows reminders pushed by the server (Web Push) with Done and Later: a Done or Later
// tapped without a network waits in the worker's outbox and is sent when the worker next runs.
"use strict";
var CACHE = "stackday-v1";
var OUTBOX = "stackday-outbox";
var SHELL = ["/app.css", "/app.js", "/manifest.webmanifest", "/icon.svg"];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(SHELL); }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name !== CACHE; }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.indexOf("/v1/") === 0) return;
  if (request.mode === "navigate" && url.pathname === "/") {
    // Today: from the network when there is one (and kept), else the last one kept.
    event.respondWith(fetch(request).then(function (answer) {
      if (answer.ok && !answer.redirected) {
        var copy = answer.clone();
        caches.open(CACHE).then(function (cache) { cache.put("/", copy); });
      }
      return answer;
    }).catch(function () {
      return caches.match("/").then(function (kept) { return kept || Response.error(); });
    }));
    return;
  }
  if (SHELL.indexOf(url.pathname) >= 0) {
    event.respondWith(fetch(request).then(function (answer) {
      var copy = answer.clone();
      caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
      return answer;
    }).catch(function () { return caches.match(request); }));
  }
});

function newKey() {
  if (self.crypto && crypto.randomUUID) return crypto.randomUUID();
  return String(Date.now()) + "-" + String(Math.random()).slice(2);
}

// A form post needs the session's CSRF token: the settings page carries it.
function csrf() {
  return fetch("/settings", { credentials: "same-origin" }).then(function (answer) { return answer.text(); }).then(function (html) {
    var found = html.match(/name="csrf" value="([^"]+)"/);
    if (!found) throw new Error("signed out");
    return found[1];
  });
}

// One post of the outbox's kind: a path, its fields and the Idempotency-Key it is always sent with,
// so that sending it again never records twice.
function post(item) {
  return csrf().then(function (token) {
    var body = new URLSearchParams(item.fields);
    body.set("csrf", token);
    return fetch(item.path, { method: "POST", credentials: "same-origin", body: body.toString(),
                              headers: { "Content-Type": "application/x-www-form-urlencoded", "Idempotency-Key": item.key, "X-Requested-With": "fetch" } });
  });
}

function keepForLater(item) {
  return caches.open(OUTBOX).then(function (cache) {
    return cache.put(new Request("/outbox/" + item.key), new Response(JSON.stringify(item), { headers: { "Content-Type": "application/json" } }));
  });
}

// Sends what waits in the outbox, oldest first; an item the server answered (even with a refusal) leaves it.
function flush() {
  return caches.open(OUTBOX).then(function (cache) {
    return cache.keys().then(function (requests) {
      return requests.reduce(function (chain, request) {
        return chain.then(function () {
          return cache.match(request).then(function (kept) { return kept.json(); }).then(function (item) {
            return post(item).then(function (answer) { if (answer.status < 500) return cache.delete(request); });
          });
        });
      }, Promise.resolve());
    });
  }).catch(function () {});
}

function send(item) {
  return post(item).then(function (answer) {
    if (answer.status >= 500) return keepForLater(item);
  }).catch(function () { return keepForLater(item); });
}

// What a tap on a reminder does: Done records the day's check-in (or one step), Later asks for the
// reminder again in an hour, the notification itself opens the habit's page.
function act(action, data) {
  if (!data || !data.habit) return self.clients.openWindow("/");
  var path = "/habits/" + encodeURIComponent(data.habit);
  if (action === "done") return send({ path: path + "/record", fields: { on: data.day }, key: newKey() });
  if (action === "later") return send({ path: "/push/later", fields: { habit: data.habit }, key: newKey() });
  return self.clients.openWindow(path);
}

self.addEventListener("push", function (event) {
  var data;
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = { body: event.data ? event.data.text() : "" }; }
  var options = {
    body: data.body || "", icon: "/icon.svg", actions: (data.actions || []).slice(0, 2),
    tag: data.habit ? "reminder:" + data.habit + ":" + data.day : "stackday",
    data: { habit: data.habit || null, day: data.day || null },
  };
  event.waitUntil(self.registration.showNotification(data.title || "StackDay", options).then(flush));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  event.waitUntil(act(event.action, event.notification.data));
});

self.addEventListener("message", function (event) {
  // Signing out forgets the kept page; a page opening asks for the outbox to be sent.
  if (event.data === "forget") event.waitUntil(caches.delete(CACHE));
  if (event.data === "flush") event.waitUntil(flush());
  // A notification's action, as a tap would take it (a page, or a test that cannot tap).
  if (event.data && event.data.act) event.waitUntil(act(event.data.act, event.data.notification));
});
