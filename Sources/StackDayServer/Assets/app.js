(function () {
  "use strict";
  var list = document.getElementById("today-list");
  var tag = list ? list.getAttribute("data-etag") : null;
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
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches("form[data-action=record],form[data-action=undo],form[data-action=skip],form[data-action=unskip],form[data-action=remove]")) return;
    event.preventDefault();
    fetch(form.action, { method: "POST", body: new URLSearchParams(new FormData(form)), credentials: "same-origin",
                         headers: { "X-Requested-With": "fetch" } })
      .then(function (answer) {
        if (answer.ok) { show(""); return refresh(); }
        return answer.text().then(function (html) {
          var found = new DOMParser().parseFromString(html, "text/html").querySelector("[role=alert]");
          show(found ? found.textContent : "Error " + answer.status);
        });
      }).catch(function () { form.submit(); });
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
  if (list) setInterval(refresh, 3000);
})();
