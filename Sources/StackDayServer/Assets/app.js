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
      return answer.text().then(function (html) { list.innerHTML = html; });
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
  function flush() {
    var items = queued();
    if (flushing || !items.length) return;
    flushing = true;
    var item = items[0];
    send(item).then(function (answer) {
      // Sent: answered, stored or refused; either way it leaves the queue (a refusal is shown).
      keep(queued().filter(function (other) { return other.key !== item.key; }));
      flushing = false;
      if (!answer.ok) show("Error " + answer.status);
      if (queued().length) flush(); else refresh();
    }).catch(function () { flushing = false; });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.matches("form[data-action=sign-out]")) {
      localStorage.removeItem(QUEUE);
      if (navigator.serviceWorker && navigator.serviceWorker.controller) navigator.serviceWorker.controller.postMessage("forget");
      return;
    }
    if (!form.matches("form[data-action=record],form[data-action=undo],form[data-action=skip],form[data-action=unskip],form[data-action=remove],form[data-action=step],form[data-action=step-back]")) return;
    event.preventDefault();
    var item = { action: form.action, body: new URLSearchParams(new FormData(form)).toString(), key: newKey() };
    if (queued().length) { keep(queued().concat([item])); flush(); return; }
    send(item).then(function (answer) {
        // Today's list is refreshed in place; any other page (a habit's day) is shown again.
        if (answer.ok && !list) { window.location.assign(answer.url || window.location.href); return; }
        if (answer.ok) { show(""); return refresh(); }
        return answer.text().then(function (html) {
          var found = new DOMParser().parseFromString(html, "text/html").querySelector("[role=alert]");
          show(found ? found.textContent : "Error " + answer.status);
        });
      }).catch(function () { keep(queued().concat([item])); });
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
  window.addEventListener("online", flush);
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(function () {});
  if (list) setInterval(function () { if (queued().length) flush(); else refresh(); }, 3000);
  flush();
})();
