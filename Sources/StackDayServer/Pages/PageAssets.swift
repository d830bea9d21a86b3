/// The pages' one stylesheet and one script, served by the binary (`/app.css`, `/app.js`).
///
/// The script only makes the pages smoother: forms post in the background and the list of today
/// follows writes made elsewhere (it polls `/today.html` with `If-None-Match` every 3 seconds).
/// Every action works without it, as a plain form POST answered with a redirect.
enum PageAssets {
    static let stylesheet = """
    :root{color-scheme:light dark;--fg:#1f2328;--muted:#57606a;--bg:#fff;--card:#f6f8fa;--line:#d0d7de;--accent:#1a7f37;--accent-fg:#fff;
    --bad:#b3261e;--bar:#dfe3e8;--focus:#0550ae;--met:#1a7f37;--partial:#9a6700;--missed:#b3261e;--skipped:#57606a;--muted-bg:#eaeef2}
    @media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9da7b3;--bg:#0d1117;--card:#161b22;--line:#30363d;--accent:#2ea043;
    --accent-fg:#fff;--bad:#ff7b72;--bar:#30363d;--focus:#79c0ff;--met:#3fb950;--partial:#d29922;--missed:#ff7b72;--skipped:#9da7b3;--muted-bg:#21262d}}
    *{box-sizing:border-box}html{-webkit-text-size-adjust:100%}
    body{margin:0;font:16px/1.45 system-ui,-apple-system,"Noto Sans KR","Noto Sans CJK KR",sans-serif;color:var(--fg);background:var(--bg)}
    main,header.top{max-width:48rem;margin:0 auto;padding:0 1rem}
    header.top{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;justify-content:space-between;padding-top:.75rem}
    header.top h1{font-size:1.3rem;margin:0}header.top a{color:inherit}
    h2{font-size:1.15rem;margin:1.5rem 0 .5rem}h3{font-size:1rem;margin:1rem 0 .4rem;color:var(--muted)}
    a{color:var(--focus)}
    :focus-visible{outline:3px solid var(--focus);outline-offset:2px}
    button,input,select,textarea{font:inherit;color:inherit}
    button,.button{min-height:44px;min-width:44px;padding:.4rem .9rem;border:1px solid var(--line);border-radius:8px;background:var(--card);cursor:pointer}
    button.primary{background:var(--accent);color:var(--accent-fg);border-color:var(--accent)}
    input,select,textarea{min-height:44px;padding:.4rem .6rem;border:1px solid var(--line);border-radius:8px;background:var(--bg);max-width:100%}
    input[type=checkbox]{min-height:auto;width:1.4rem;height:1.4rem}
    label{display:block;margin:.5rem 0 .2rem;font-weight:600}
    label.check{display:inline-flex;align-items:center;gap:.3rem;font-weight:400;min-height:44px;margin:0 .6rem 0 0}
    ul.habits{list-style:none;margin:0;padding:0;display:grid;gap:.75rem}
    li.habit{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:.75rem}
    li.habit .head{display:flex;justify-content:space-between;gap:.5rem;align-items:baseline;flex-wrap:wrap}
    li.habit .head a{font-weight:700;font-size:1.05rem;overflow-wrap:anywhere}
    header.top h1 a,header.top nav a,li.habit .head a{display:inline-flex;align-items:center;min-height:44px;min-width:44px}
    header.top nav{display:flex;gap:.75rem}
    .figures{color:var(--muted);font-size:.95rem;display:flex;flex-wrap:wrap;gap:.25rem .9rem}
    .bar{height:.6rem;background:var(--bar);border-radius:4px;overflow:hidden;margin:.5rem 0}
    .bar span{display:block;height:100%;background:var(--accent)}
    .actions{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:.5rem;align-items:center}
    .actions form{display:flex;gap:.4rem;align-items:center;margin:0}
    .actions input[name=amount]{width:5.5rem}
    button.done{border-color:var(--met);color:var(--met);font-weight:700}
    .bar.limit span{background:var(--partial)}li.habit.over{border-color:var(--bad)}li.habit.over .bar span{background:var(--bad)}
    li.habit.over [data-field=state]{color:var(--bad);font-weight:700}
    ul.records{list-style:none;margin:.5rem 0 0;padding:0;display:grid;gap:.25rem}
    ul.records li{display:flex;justify-content:space-between;align-items:center;gap:.5rem;color:var(--muted);overflow-wrap:anywhere}
    ul.records form{margin:0}
    ul.archived{list-style:none;margin:0;padding:0;display:grid;gap:.25rem}
    ul.archived li{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem}ul.archived li a{display:inline-flex;align-items:center;min-height:44px}
    ul.archived form{margin:0 0 0 auto}
    ul.devices{list-style:none;margin:0;padding:0;display:grid;gap:.25rem}
    ul.devices li{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;overflow-wrap:anywhere}ul.devices form{margin:0 0 0 auto}
    .pairing-code output{font:700 2rem/1.2 ui-monospace,monospace;letter-spacing:.1em}
    figure[data-pairing-qr]{margin:.5rem 0}figure[data-pairing-qr] svg{display:block;width:min(240px,70vw);height:auto}
    .pairing code,.pairing a{overflow-wrap:anywhere}
    .sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
    .error{color:var(--bad);font-weight:600}
    details{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:.5rem .75rem;margin:1rem 0}
    summary{min-height:44px;display:flex;align-items:center;font-weight:700;cursor:pointer}
    fieldset{border:1px solid var(--line);border-radius:8px;margin:.5rem 0;padding:.5rem .75rem;min-width:0}
    legend{font-weight:600;padding:0 .3rem}
    .hint{color:var(--muted);font-size:.9rem;margin:.2rem 0}
    table.month{width:100%;border-collapse:collapse;table-layout:fixed}
    table.month th{font-weight:600;color:var(--muted);font-size:.85rem;padding:.2rem 0}
    table.month td{padding:2px}
    table.month .cell{min-height:44px;border-radius:8px;border:1px solid var(--line);display:flex;flex-direction:column;align-items:center;justify-content:center;font-size:.9rem;color:inherit;text-decoration:none;font-weight:600}
    table.month [data-state=met] .cell,.key[data-state=met]{background:var(--met);color:#fff;border-color:var(--met)}
    table.month [data-state=partial] .cell,.key[data-state=partial]{background:repeating-linear-gradient(45deg,var(--partial) 0 4px,transparent 4px 8px);border-color:var(--partial)}
    table.month [data-state=missed] .cell,.key[data-state=missed]{border:2px solid var(--missed)}
    table.month [data-state=skipped] .cell,.key[data-state=skipped]{background:var(--muted-bg);border-style:dashed}
    table.month [data-state=notDue] .cell,.key[data-state=notDue]{border-color:transparent;color:var(--muted)}
    table.month [data-state=pending] .cell,.key[data-state=pending]{border:2px dotted var(--focus)}
    table.month [data-state=future] .cell,.key[data-state=future]{color:var(--muted);border-style:dotted;font-weight:400}
    .mark{font-size:.8rem;line-height:1}
    ul.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.4rem .9rem;font-size:.9rem}
    ul.legend li{display:flex;gap:.35rem;align-items:center}
    .key{display:inline-flex;width:1.6rem;height:1.6rem;border-radius:6px;border:1px solid var(--line);align-items:center;justify-content:center;font-size:.8rem}
    nav.months{display:flex;justify-content:space-between;align-items:center;gap:.5rem}
    svg{display:block;width:100%;height:auto}
    svg.lab-key{display:inline-block;width:24px;height:10px;margin-right:.35rem}
    svg text{fill:var(--muted);font:10px system-ui,sans-serif}
    .stats{display:grid;grid-template-columns:repeat(auto-fit,minmax(9rem,1fr));gap:.5rem;margin:.5rem 0}
    .stats div{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:.5rem .7rem}
    .stats strong{display:block;font-size:1.3rem}
    pre{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--card);padding:.75rem;border-radius:8px}
    footer{max-width:48rem;margin:2rem auto;padding:0 1rem 2rem;color:var(--muted)}
    """

    static let script = """
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
    """
}
