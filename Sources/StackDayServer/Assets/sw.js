// StackDay's service worker: keeps the app's shell and the last today page, so the page opens
// without a network; check-ins made offline wait in the page's own queue (app.js), not here.
"use strict";
var CACHE = "stackday-v1";
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

self.addEventListener("message", function (event) {
  // Signing out forgets the kept page.
  if (event.data === "forget") event.waitUntil(caches.delete(CACHE));
});
