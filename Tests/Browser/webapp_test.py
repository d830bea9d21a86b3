#!/usr/bin/env python3
"""The web app in a real browser: headless Chromium driven by Selenium, at a phone width
(390 x 844) and a desktop one (1280 x 800), and once more at the phone width with JavaScript off.
Usage: webapp_test.py STACKDAY OUTPUT_DIR.

It starts its own `stackday serve` on 127.0.0.1 and a free port over a fresh database, and stops
it (and the browser) even when a check fails. Each run signs in, adds a habit through the form,
records, undoes and skips, sees a record made through the API appear without a reload, reads
each day's data-state of a month against GET /v1/calendar, runs axe-core on every page, checks
that nothing scrolls sideways, signs out, and checks that the old cookie opens nothing.
Screenshots of each page go to OUTPUT_DIR."""

import base64
import hashlib
import json
import os
import re
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

from axe_selenium_python import Axe
from selenium import webdriver
from selenium.common.exceptions import TimeoutException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import Select, WebDriverWait

NOW = "2026-10-11T22:00:00+09:00"


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def api(port, token, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=20) as response:
        return response.status, response.read().decode()


def raw(port, method, path, cookie=None, body=None, headers=None):
    """A request without the browser: status and body (redirects not followed)."""
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None
    opener = urllib.request.build_opener(NoRedirect)
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body.encode() if body is not None else None, method=method,
                                     headers=dict(headers or {}, **({"Cookie": f"stackday_session={cookie}"} if cookie else {})))
    try:
        with opener.open(request, timeout=20) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def mark(day):
    """The data-state a calendar day should carry (DayMark in the application layer)."""
    state, progress = day["state"], day["progress"]
    if state == "upcoming":
        return "future"
    if state == "completed":
        return "met"
    if state == "skipped":
        return "skipped"
    if state in ("missed", "pending"):
        return "partial" if progress > 0 else state
    return "partial" if 0 < progress < 1 else "notDue"


def accessible(driver, page):
    if not driver.javascript:
        return  # axe-core is a script: the runs with JavaScript check every page
    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    bad = [(v["id"], v["impact"], [(n["target"], n.get("failureSummary", "")) for n in v["nodes"]][:3])
           for v in results["violations"] if v["impact"] in ("serious", "critical")]
    check(not bad, f"{page}: axe-core found {bad}")


def no_sideways_scroll(driver, page):
    if not driver.javascript:
        return  # measured by a script: the runs with JavaScript check every page
    width, inner = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    check(width <= inner, f"{page}: the page scrolls sideways ({width} > {inner})")


def tap_targets(driver, page):
    """At a phone's width every control is at least 44 x 44 px (a checkbox counts by its label)."""
    if not driver.javascript:
        return
    small = driver.execute_script("""
        var small = [];
        document.querySelectorAll('button, select, input:not([type=hidden]):not([type=checkbox]), summary, a.button, a.cell, label.check, '
                                  + 'header.top h1 a, header.top nav a, li.habit .head a')
          .forEach(function (element) {
            var box = element.getBoundingClientRect();
            if (box.width === 0 && box.height === 0) return;  // not shown
            if (box.height < 44 || box.width < 44) small.push(element.outerHTML.slice(0, 80) + ' ' + box.width + 'x' + box.height);
          });
        return small;""")
    check(not small, f"{page}: tap targets under 44 px: {small[:5]}")


def inspect(driver, label, page, width, suffix, output):
    """The checks every signed-in page gets, then its screenshot; returns the screenshot's name."""
    accessible(driver, f"{label}: {page}")
    no_sideways_scroll(driver, f"{label}: {page}")
    if width < 500:
        tap_targets(driver, f"{label}: {page}")
    name = f"{page}-{suffix}.png"
    driver.save_screenshot(os.path.join(output, name))
    return name


def browser(width, height, javascript=True, trusted_key=None):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},{height}",
                     "--lang=en-US", "--force-device-scale-factor=1"]:
        options.add_argument(argument)
    if trusted_key:
        # The test's own certificate, trusted by its key (what a private CA's root in the trust store gives).
        options.add_argument(f"--ignore-certificate-errors-spki-list={trusted_key}")
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    if width < 500:
        # The window's size includes the browser's frame: make the page itself the phone's size.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
    return driver


def row(driver, name):
    return driver.find_element(By.CSS_SELECTOR, f'li[data-habit="{name}"]')


def replaced(error):
    """Whether `error` says the element read belonged to a page that has since been replaced.

    Chromium reports this either as a stale element or, when the navigation lands between the
    find and the read, as an inspector error about a node that no longer belongs to the document.
    """
    if isinstance(error, StaleElementReferenceException):
        return True
    return "does not belong to the document" in str(error) or "No node with given id" in str(error)


def field(driver, name, key):
    """One figure of a habit's card, read in one step (the script may replace the cards at any moment)."""
    if not getattr(driver, "javascript", True):
        try:
            found = driver.find_elements(By.CSS_SELECTOR, f'li[data-habit="{name}"] [data-field="{key}"]')
            return found[0].text if found else None
        except WebDriverException as error:
            if replaced(error):
                return None  # the page is being replaced by the next one
            raise
    return driver.execute_script(
        "var found = document.querySelector('li[data-habit=\"' + arguments[0] + '\"] [data-field=\"' + arguments[1] + '\"]');"
        " return found ? found.textContent : null;", name, key)


def settled(condition):
    """`condition` for a wait, read as false while the page it looks at is being replaced."""
    def check(driver):
        try:
            return condition(driver)
        except WebDriverException as error:
            if replaced(error):
                return False
            raise
    return check


def retrying(action):
    """Runs `action` again when the cards it found were replaced under it."""
    for attempt in range(5):
        try:
            return action()
        except WebDriverException as error:
            if not replaced(error):
                raise
            time.sleep(0.2)
    return action()


def try_the_lab(driver, wait, port, token, label):
    """On the habit page: try grace for the streak, find the differing days, apply it from a day."""
    form = driver.find_element(By.CSS_SELECTOR, "form[data-form=simulate]")
    Select(form.find_element(By.NAME, "role")).select_by_value("streak")
    Select(form.find_element(By.NAME, "policy")).select_by_value("grace")
    misses = form.find_element(By.NAME, "labParam.grace.misses")
    misses.clear()
    misses.send_keys("3")
    start = form.find_element(By.NAME, "from")
    driver.execute_script("arguments[0].value = '2026-10-01'", start)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait.until(expected_conditions.presence_of_element_located((By.ID, "lab-result")))
    differing = [item.get_attribute("data-diff-day") for item in driver.find_elements(By.CSS_SELECTOR, "[data-diff-day]")]
    # Three misses a week forgiven: 10-02, 10-03 and 10-08 keep the streak, so from 10-02 on it differs.
    check("2026-10-02" in differing and "2026-10-10" in differing, f"{label}: differing days {differing}")
    check(driver.find_elements(By.CSS_SELECTOR, "svg.lab polyline.proposed-streak"), f"{label}: no lab chart")
    keys = [item.get_attribute("data-key") for item in driver.find_elements(By.CSS_SELECTOR, "ul[data-legend=lab] li")]
    check(keys == ["current-score", "proposed-score", "current-streak", "proposed-streak", "diff"], f"{label}: the lab chart's legend {keys}")
    current = driver.find_element(By.CSS_SELECTOR, "tr[data-figure=current] [data-field=delta]").text
    check(current.startswith("+"), f"{label}: grace should lengthen the current streak, delta {current}")
    accessible(driver, f"{label}: the lab")
    check(len(json.loads(api(port, token, "GET", "/v1/habits/" + urllib.parse.quote("물 마시기") + "/revisions")[1])["revisions"]) == 1,
          f"{label}: trying a rule wrote a revision")
    apply = driver.find_element(By.CSS_SELECTOR, "form[data-form=apply]")
    driver.execute_script("arguments[0].value = '2026-10-03'", apply.find_element(By.NAME, "from"))
    apply.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait.until(settled(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#revisions li")) == 2))
    revisions = json.loads(api(port, token, "GET", "/v1/habits/" + urllib.parse.quote("물 마시기") + "/revisions")[1])["revisions"]
    check(len(revisions) == 2 and revisions[1]["streak"]["name"] == "grace" and revisions[1]["from"] == "2026-10-03", f"{label}: revisions {revisions}")


def policy_editor(driver, wait, port, token, label, base, output):
    """The editor refuses a broken script, showing its line, and installs the fixed one."""
    driver.get(base + "/policies")
    form = driver.find_element(By.CSS_SELECTOR, "form[data-form=policy-editor]")
    name = form.find_element(By.NAME, "name")
    name.clear()
    name.send_keys("lenient")
    broken = "return {\n  streak = function(state, day, outcome)\n    return state end end\n}\n"
    driver.execute_script("arguments[0].value = arguments[1]", form.find_element(By.NAME, "source"), broken)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait.until(expected_conditions.presence_of_element_located((By.ID, "failures")))
    lines = [item.get_attribute("data-line") for item in driver.find_elements(By.CSS_SELECTOR, "#failures li[data-line]")]
    check("3" in lines and driver.find_elements(By.CSS_SELECTOR, "li#line-3[data-failed-line]"), f"{label}: failures at lines {lines}")
    accessible(driver, f"{label}: the policy editor")
    form = driver.find_element(By.CSS_SELECTOR, "form[data-form=policy-editor]")
    fixed = "return {\n  streak = function(state, day, outcome)\n    return state\n  end,\n}\n"
    driver.execute_script("arguments[0].value = arguments[1]", form.find_element(By.NAME, "source"), fixed)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait.until(expected_conditions.presence_of_element_located((By.ID, "installed")))
    names = [script["name"] for script in json.loads(api(port, token, "GET", "/v1/policies")[1])["policies"]]
    check("lenient" in names, f"{label}: installed {names}")
    # The user's script in full; the built-ins the habits are pinned to only by name, folded away.
    shown = [section.get_attribute("data-policy") for section in driver.find_elements(By.CSS_SELECTOR, "section.script")]
    check(shown == ["lenient"], f"{label}: scripts shown in full {shown}")
    check(driver.find_elements(By.CSS_SELECTOR, "details[data-pinned-builtins] li[data-policy=goal]")
          and driver.find_elements(By.CSS_SELECTOR, "details[data-builtins]"), f"{label}: pinned built-ins not folded away")
    driver.save_screenshot(os.path.join(output, "policies-1280.png"))


TWO_MISSES = """-- Two misses in a row break the streak; one alone is forgiven.
return {
  description = "Two misses in a row break the streak",
  examples = {
    { history = "YYNYY", current = 4, longest = 4 },
    { history = "YYNNY", current = 1, longest = 2 },
  },
  initial = function(params) return { current = 0, longest = 0, missed = 0 } end,
  streak = function(state, day, outcome, params)
    if outcome.status == "completed" then
      state.current = state.current + 1
      state.missed = 0
      if state.current > state.longest then state.longest = state.current end
    elseif outcome.status == "missed" then
      state.missed = state.missed + 1
      if state.missed >= 2 then state.current = 0 else trace("forgiven", day.iso) end
    end
    return state
  end,
}
"""


def figures(port, token, name):
    """A habit's figures as GET /v1/stats answers them, without the rules in force."""
    habit = [h for h in json.loads(api(port, token, "GET", "/v1/stats")[1])["habits"] if h["name"] == name][0]
    habit.pop("rules", None)
    return json.dumps(habit, sort_keys=True)


def policy_journey(driver, wait, port, token, label, base):
    """The author's journey on a phone: install a rule in the editor, find it listed, try it in the lab on the habit's real
    history (with what it traced), apply it from a day, take it back with one button: every figure as before."""
    name = "물 마시기"
    before = figures(port, token, name)
    driver.get(base + "/policies")
    form = driver.find_element(By.CSS_SELECTOR, "form[data-form=policy-editor]")
    form.find_element(By.NAME, "name").clear()
    form.find_element(By.NAME, "name").send_keys("two")
    driver.execute_script("arguments[0].value = arguments[1]", form.find_element(By.NAME, "source"), TWO_MISSES)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait.until(expected_conditions.presence_of_element_located((By.ID, "installed")))
    check(driver.find_elements(By.CSS_SELECTOR, "table[data-policies] tr[data-policy=two][data-source=installed]"), f"{label}: two is not listed as installed")
    check(driver.find_elements(By.CSS_SELECTOR, "table[data-policies] tr[data-policy=grace][data-source=built-in]"), f"{label}: grace is not listed as built-in")
    accessible(driver, f"{label}: the policies list")
    no_sideways_scroll(driver, f"{label}: the policies list")
    # "Try on my history" opens the habit's lab with the rule chosen.
    tried = driver.find_element(By.CSS_SELECTOR, "tr[data-policy=two] form[data-action=try-policy]")
    Select(tried.find_element(By.NAME, "habit")).select_by_visible_text(name)
    tried.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait.until(expected_conditions.presence_of_element_located((By.ID, "lab-result")))
    check(driver.find_elements(By.CSS_SELECTOR, "details[data-trace] li"), f"{label}: the lab shows nothing the rule traced")
    check(figures(port, token, name) == before, f"{label}: trying the rule changed the figures")
    apply = driver.find_element(By.CSS_SELECTOR, "form[data-form=apply]")
    driver.execute_script("arguments[0].value = '2026-10-01'", apply.find_element(By.NAME, "from"))
    apply.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait.until(settled(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#revisions li[data-revision]")) == 2))
    check(figures(port, token, name) != before, f"{label}: applying the rule changed no figure")
    retrying(lambda: driver.find_element(By.CSS_SELECTOR, "form[data-form=rollback] button[data-action=take-back]").click())
    wait.until(settled(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#revisions li[data-revision]")) == 3))
    check(driver.find_elements(By.CSS_SELECTOR, "#revisions li[data-revision='2'][data-taken-back-by='3']"), f"{label}: revision 2 is not shown taken back")
    check(figures(port, token, name) == before, f"{label}: the rollback did not bring the figures back")
    accessible(driver, f"{label}: the habit page after a rollback")
    no_sideways_scroll(driver, f"{label}: the habit page after a rollback")
    print(f"web app: {label}: a rule installed in the editor, tried and applied in the lab, taken back: figures as before")


def start_server(stackday, db, folder, name, extra=(), port=0):
    """A `stackday serve` of the test's own on 127.0.0.1 and PORT (0: a free one), its stderr in
    FOLDER/NAME.log; the process and the port, once it listens (stopped here if it never does)."""
    log = open(os.path.join(folder, name + ".log"), "w+")
    server = subprocess.Popen([stackday, "--db", db, "--now", NOW, "serve", "--listen", f"127.0.0.1:{port}", *extra], stderr=log)
    port = None
    deadline = time.time() + 30
    while port is None and time.time() < deadline and server.poll() is None:
        log.seek(0)
        found = re.search(r"listening on https?://127\.0\.0\.1:(\d+)", log.read())
        port = int(found.group(1)) if found else None
        time.sleep(0.05)
    if port is None:
        server.terminate()
        server.wait(timeout=20)
    check(port is not None, f"stackday serve {' '.join(extra)} did not start")
    return server, port


def https_sign_in(stackday, db, folder, output):
    """Over HTTPS (`serve --tls-cert`): a password sign-in at 390 × 844 gets a Secure cookie, and
    every answer says Strict-Transport-Security."""
    def openssl(*arguments, stdin=None):
        return subprocess.run(["openssl", *arguments], input=stdin, capture_output=True, check=True).stdout
    key, cert, ext = (os.path.join(folder, name) for name in ("tls.key", "tls.pem", "tls.ext"))
    with open(ext, "w") as handle:
        handle.write("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", cert,
            "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1")
    public = openssl("x509", "-in", cert, "-pubkey", "-noout")
    der = openssl("pkey", "-pubin", "-outform", "der", stdin=public)
    spki = base64.b64encode(hashlib.sha256(der).digest()).decode()
    subprocess.run([stackday, "--db", db, "--tz", "+09:00", "user", "add", "dana"], check=True, capture_output=True)
    subprocess.run([stackday, "--db", db, "user", "passwd", "dana"], input=b"correct horse battery\n", check=True, capture_output=True)
    server, port = start_server(stackday, db, folder, "serve-tls", ["--tls-cert", cert, "--tls-key", key])
    try:
        driver = browser(390, 844, True, trusted_key=spki)
        driver.javascript = True
        try:
            driver.get(f"https://localhost:{port}/")
            check(driver.find_elements(By.ID, "name"), "https: no sign-in form")
            driver.find_element(By.ID, "name").send_keys("dana")
            driver.find_element(By.ID, "password").send_keys("correct horse battery")
            driver.find_element(By.ID, "sign-in").click()
            WebDriverWait(driver, 20).until(expected_conditions.presence_of_element_located((By.ID, "user")))
            cookie = driver.get_cookie("stackday_session")
            check(cookie and cookie["secure"] and cookie["httpOnly"], f"https: session cookie {cookie}")
            accessible(driver, "https: today")
        finally:
            driver.quit()
        context = ssl.create_default_context(cafile=cert)
        with urllib.request.urlopen(f"https://localhost:{port}/healthz", context=context) as answer:
            pass
        with urllib.request.urlopen(urllib.request.Request(f"https://localhost:{port}/", method="GET"), context=context) as answer:
            check(answer.headers.get("Strict-Transport-Security") == "max-age=31536000", f"https: HSTS {answer.headers}")
        print("web app: dana over HTTPS at 390x844: signed in by password; Secure cookie; Strict-Transport-Security")
    finally:
        server.terminate()
        server.wait(timeout=20)


def network(driver, online):
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": not online, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def card(driver, name):
    """What a card shows of a check-in waiting: its data-waiting mark and its state's words."""
    return driver.execute_script("""
        var name = arguments[0];
        var card = Array.from(document.querySelectorAll('li[data-habit]')).find(function (c) { return c.getAttribute('data-habit') === name; });
        if (!card) return null;
        var state = card.querySelector('[data-field=state]'), refused = card.querySelector('[data-refused]');
        return {waiting: card.getAttribute('data-waiting'), state: state ? state.textContent : null, refused: refused ? refused.textContent : null};
        """, name)


def past_double_tap(driver, wait):
    """Waits until a tap is no longer the second of a double tap (the page takes two taps within
    half a second as one)."""
    started = driver.execute_script("return Date.now()")
    wait.until(lambda d: d.execute_script("return Date.now()") - started > 600)


def korean_names(driver, wait, label, base):
    """In Korean, the add form and a habit's page name policies as people do: no option shows a
    policy's id, no description shows a backtick; the page fits a phone and passes axe-core."""
    driver.get(base + "/")
    Select(driver.find_element(By.ID, "language")).select_by_value("ko")
    driver.find_element(By.CSS_SELECTOR, "form[data-action=language] button").click()
    wait.until(lambda d: d.execute_script("return document.documentElement.lang") == "ko")
    try:
        for path in ("/", "/habits/" + urllib.parse.quote("물 마시기")):
            driver.get(base + path)
            wait.until(lambda d: d.execute_script("return document.documentElement.lang") == "ko")
            options = [(o.get_attribute("value"), o.get_attribute("textContent").strip())
                       for o in driver.find_elements(By.CSS_SELECTOR, "select[data-policy-role] option")]
            check(options and not [o for o in options if o[0] == o[1]], f"{label}: Korean options show ids: {[o for o in options if o[0] == o[1]]}")
            text = driver.find_element(By.TAG_NAME, "body").get_attribute("textContent")
            check("`" not in text, f"{label}: a backtick on the Korean page {path}")
            no_sideways_scroll(driver, f"{label}: Korean {path}")
            accessible(driver, f"{label}: Korean {path}")
    finally:
        driver.get(base + "/")
        Select(driver.find_element(By.ID, "language")).select_by_value("en")
        driver.find_element(By.CSS_SELECTOR, "form[data-action=language] button").click()
        wait.until(lambda d: d.execute_script("return document.documentElement.lang") == "en")
    print(f"web app: {label}: a Korean page names policies in Korean ({len(options)} options, none an id), no backtick")


def offline_check_ins(driver, wait, port, token, label, base):
    """Installed and offline: the service worker keeps today's page; a check-in made without a
    network shows on its card at once (waiting), a double tap is one check-in, a second tap on a
    waiting toggle takes it back; what waits survives a reload made offline and is stored once
    when the network is back; a check-in refused when it is sent says so on its card, in the
    page's language."""
    manifest = driver.find_element(By.CSS_SELECTOR, "link[rel=manifest]").get_attribute("href")
    check(manifest.endswith("/manifest.webmanifest"), f"{label}: no manifest link")
    controlled = driver.execute_async_script("""
        var done = arguments[arguments.length - 1];
        navigator.serviceWorker.ready.then(function () {
          if (navigator.serviceWorker.controller) return done(true);
          navigator.serviceWorker.addEventListener("controllerchange", function () { done(true); });
        });""")
    check(controlled, f"{label}: the service worker does not control the page")
    # Loaded once under the worker, so that it keeps today's page.
    driver.get(base + "/")
    wait.until(expected_conditions.presence_of_element_located((By.ID, "today-list")))
    words = driver.find_element(By.ID, "queue-state")
    waiting_words, refused_words = words.get_attribute("data-card-words"), words.get_attribute("data-refused")
    before = {h["name"]: h["total"] for h in json.loads(api(port, token, "GET", "/v1/today")[1])["habits"]}
    was = card(driver, "gym")["state"]
    network(driver, online=False)
    try:
        # A double tap on Done: one check-in waiting, shown on the card.
        driver.execute_script("""
            var card = Array.from(document.querySelectorAll('li[data-habit]')).find(function (c) { return c.getAttribute('data-habit') === 'stretch'; });
            var button = card.querySelector('form[data-action=record] button'); button.click(); button.click();""")
        wait.until(lambda d: d.find_element(By.ID, "queue-state").text == "offline · 1 waiting")
        shown = card(driver, "stretch")
        check(shown["waiting"] == "true" and shown["state"] == waiting_words, f"{label}: a waiting check-in is not on its card: {shown}")
        # A tap, then a second tap on the waiting toggle takes it back; a third puts it back.
        retrying(lambda: row(driver, "gym").find_element(By.CSS_SELECTOR, "form[data-action=record] button").click())
        wait.until(lambda d: d.find_element(By.ID, "queue-state").text == "offline · 2 waiting")
        past_double_tap(driver, wait)
        retrying(lambda: row(driver, "gym").find_element(By.CSS_SELECTOR, "form[data-action=record] button").click())
        wait.until(lambda d: d.find_element(By.ID, "queue-state").text == "offline · 1 waiting")
        shown = card(driver, "gym")
        check(shown["waiting"] is None and shown["state"] == was, f"{label}: a check-in taken back still shows: {shown}")
        past_double_tap(driver, wait)
        retrying(lambda: row(driver, "gym").find_element(By.CSS_SELECTOR, "form[data-action=record] button").click())
        wait.until(lambda d: d.find_element(By.ID, "queue-state").text == "offline · 2 waiting")
        driver.get(base + "/")
        wait.until(expected_conditions.presence_of_element_located((By.ID, "today-list")))
        wait.until(lambda d: d.find_element(By.ID, "queue-state").text == "offline · 2 waiting")
        check(driver.find_element(By.ID, "user").text, f"{label}: the page kept offline is not today's")
        check(card(driver, "stretch")["waiting"] == "true", f"{label}: after a reload the card does not show its waiting check-in")
    finally:
        network(driver, online=True)
    wait.until(lambda d: d.find_element(By.ID, "queue-state").get_attribute("data-waiting") == "0")
    wait.until(lambda d: field(d, "stretch", "total") == "1/1" and card(d, "stretch")["waiting"] is None)
    check(card(driver, "stretch")["state"] != waiting_words, f"{label}: a stored check-in still shows waiting")
    time.sleep(3.5)  # one more round of the page's timer: nothing is sent twice
    after = {h["name"]: h["total"] for h in json.loads(api(port, token, "GET", "/v1/today")[1])["habits"]}
    check(after["stretch"] == before["stretch"] + 1 and after["gym"] == before["gym"] + 1,
          f"{label}: offline check-ins stored {after} (before {before})")
    # Taken back offline, while another device took it back first: refused when sent, on its card.
    network(driver, online=False)
    try:
        retrying(lambda: row(driver, "gym").find_element(By.CSS_SELECTOR, "form[data-action=undo] button").click())
        wait.until(lambda d: d.find_element(By.ID, "queue-state").get_attribute("data-waiting") == "1")
        check(api(port, token, "DELETE", "/v1/habits/gym/records/latest")[0] == 200, "undo through the API")
    finally:
        network(driver, online=True)
    wait.until(lambda d: (card(d, "gym") or {}).get("refused"))
    said = card(driver, "gym")["refused"]
    check(said.startswith(refused_words.split("{what}")[0]) and "(gym)" in said and len(said) > len(refused_words),
          f"{label}: the refusal on the card says {said!r}")
    print(f"web app: {label}: offline taps shown on their cards (a double tap one check-in, a second tap taking one back), "
          f"kept across an offline reload, each stored once when back online; on its card: {said!r}")


def groups(driver, wait, port, token, label, base, width, suffix, output):
    """A routine on today's page: its section folds and unfolds, "done all" records its open
    members up to their goals (the API's figures after agree), and its page shows its calendar."""
    check(api(port, token, "POST", "/v1/habits", {"name": "floss", "start": "2026-10-01"})[0] == 201, "create floss")
    check(api(port, token, "POST", "/v1/habits", {"name": "vitamins", "goal": 2, "unit": "pills", "start": "2026-10-01"})[0] == 201, "create vitamins")
    check(api(port, token, "POST", "/v1/habits/floss/records", {"on": "2026-10-10"})[0] == 201, "floss record")
    check(api(port, token, "POST", "/v1/habits/vitamins/records", {"on": "2026-10-11", "amount": 0.5})[0] == 201, "vitamins record")
    status, body = api(port, token, "POST", "/v1/groups", {"name": "morning", "members": ["vitamins", "floss"]})
    check(status == 201, f"{label}: group not made: {body}")
    before = json.loads(api(port, token, "GET", "/v1/groups/morning")[1])["today"]
    check(before["state"] == "pending", f"{label}: the group today: {before}")
    driver.get(base + "/")
    section = 'section[data-group="morning"]'
    wait.until(settled(lambda d: d.find_elements(By.CSS_SELECTOR, section)))

    def group_field(key):
        found = driver.find_elements(By.CSS_SELECTOR, f'{section} [data-field="{key}"]')
        return found[0].text if found else None
    check(group_field("state") == "to do" and group_field("done") == f"{before['done']} of 2", f"{label}: the group's line: {group_field('state')}, {group_field('done')}")
    driver.execute_script("document.querySelector(arguments[0]).scrollIntoView()", section)
    shots = [inspect(driver, label, "today-group", width, suffix, output)]
    # It folds and unfolds: its members and "done all" hide and show.
    retrying(lambda: driver.find_element(By.CSS_SELECTOR, f"{section} summary").click())
    wait.until(settled(lambda d: d.find_element(By.CSS_SELECTOR, f"{section} details").get_attribute("open") is None))
    check(not driver.find_element(By.CSS_SELECTOR, f"{section} form[data-action=group-done] button").is_displayed(), f"{label}: folded, done all still shows")
    retrying(lambda: driver.find_element(By.CSS_SELECTOR, f"{section} summary").click())
    wait.until(settled(lambda d: d.find_element(By.CSS_SELECTOR, f"{section} details").get_attribute("open") is not None))
    # Done all: both members recorded up to their goals, the group done and its streak grown.
    retrying(lambda: driver.find_element(By.CSS_SELECTOR, f"{section} form[data-action=group-done] button").click())
    wait.until(settled(lambda d: group_field("state") == "done"))
    after = json.loads(api(port, token, "GET", "/v1/groups/morning")[1])["today"]
    check(after["state"] == "completed" and after["done"] == 2 and after["current"] == before["current"] + 1, f"{label}: after done all: {after}")
    habits = {h["name"]: h for h in json.loads(api(port, token, "GET", "/v1/today")[1])["habits"]}
    check(habits["vitamins"]["total"] == 2 and habits["floss"]["total"] == 1, f"{label}: done all recorded {habits['vitamins']['total']}, {habits['floss']['total']}")
    check(not driver.find_elements(By.CSS_SELECTOR, f"{section} form[data-action=group-done]"), f"{label}: done all offered on a done day")
    # Its page: the figures and a calendar whose today is met, yesterday's floss alone not enough.
    retrying(lambda: driver.find_element(By.CSS_SELECTOR, f"{section} a.button").click())
    wait.until(expected_conditions.presence_of_element_located((By.ID, "group-name")))
    check(driver.find_element(By.ID, "group-name").text == "morning", f"{label}: the group page")
    cells = {cell.get_attribute("data-day"): cell.get_attribute("data-state") for cell in driver.find_elements(By.CSS_SELECTOR, "td[data-day]")}
    today = json.loads(api(port, token, "GET", "/v1/today")[1])["day"]
    check(cells.get(today) == "met" and cells.get("2026-10-10") in ("missed", "partial"), f"{label}: the group's calendar {cells}")
    # The year's heatmap draws the same days as the calendar, today met.
    heat = {rect.get_attribute("data-day"): rect.get_attribute("data-state") for rect in driver.find_elements(By.CSS_SELECTOR, "svg rect.day[data-day]")}
    check(heat.get(today) == "met" and heat.get("2026-10-10") == cells.get("2026-10-10"), f"{label}: the group's heatmap {len(heat)} days")
    check(driver.find_element(By.CSS_SELECTOR, "[data-field=current]").text.startswith(str(after["current"])), f"{label}: the group's streak")
    # Why the streak is what it is: the fold's last days, today's done with the streak the API gives.
    explained = driver.find_elements(By.CSS_SELECTOR, f'ol.explain li[data-day="{today}"][data-state=completed] [data-field=streak]')
    check(explained and explained[0].text == str(after["current"]), f"{label}: the group's explanation of today: {[e.text for e in explained]}")
    driver.execute_script("window.scrollTo(0, 0)")
    shots.append(inspect(driver, label, "group", width, suffix, output))
    # The rule lab: "any" member done, tried from 10-05 on the real history, the API's figures;
    # applied, it is the group's next revision.
    lab = driver.find_element(By.CSS_SELECTOR, "form[data-form=simulate]")
    Select(lab.find_element(By.NAME, "role")).select_by_value("group")
    Select(lab.find_element(By.NAME, "policy")).select_by_value("any")
    driver.execute_script("arguments[0].value = '2026-10-05'", lab.find_element(By.NAME, "from"))
    retrying(lambda: driver.find_element(By.CSS_SELECTOR, "form[data-form=simulate] button[type=submit]").click())
    try:
        wait.until(settled(lambda d: d.find_elements(By.CSS_SELECTOR, "#lab-result tr[data-figure=longest]")))
    except TimeoutException:
        alerts = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "[role=alert]")]
        raise AssertionError(f"{label}: the group lab gave no result at {driver.current_url}: {alerts}")
    expected = json.loads(api(port, token, "POST", "/v1/groups/morning/simulate", {"policy": "any", "from": "2026-10-05"})[1])
    proposed = driver.find_element(By.CSS_SELECTOR, "#lab-result tr[data-figure=longest] td:nth-of-type(2)").text
    check(proposed.startswith(str(expected["proposed"]["longest"])), f"{label}: the lab's proposed longest streak {proposed!r}, the API's {expected['proposed']}")
    check(json.loads(api(port, token, "GET", "/v1/groups/morning")[1])["rule"]["name"] == "all", f"{label}: trying wrote the rule")
    shots.append(inspect(driver, label, "group-lab", width, suffix, output))
    retrying(lambda: driver.find_element(By.CSS_SELECTOR, "form[data-form=apply] button[type=submit]").click())
    wait.until(settled(lambda d: len(d.find_elements(By.CSS_SELECTOR, "ol.revisions li[data-revision]")) == 2))
    applied = json.loads(api(port, token, "GET", "/v1/groups/morning")[1])
    check(applied["rule"]["name"] == "any" and applied["revisions"][-1]["from"] == "2026-10-05", f"{label}: applied {applied['revisions'][-1]}")
    check(applied["today"]["longest"] == expected["proposed"]["longest"], f"{label}: the applied figures {applied['today']} differ from the trial's")
    driver.get(base + "/")
    wait.until(expected_conditions.presence_of_element_located((By.ID, "today-list")))
    print(f"web app: {label}: a group folded and unfolded, done all recorded its members, its page's calendar read; screenshots {', '.join(shots)}")


def run(port, stackday, db, user, width, height, javascript, output, lab=False):
    label = f"{user} at {width}x{height}" + ("" if javascript else " without JavaScript")
    token = subprocess.run([stackday, "--db", db, "--tz", "+09:00", "user", "add", user], check=True, capture_output=True, text=True).stdout.strip()
    water = "/v1/habits/" + urllib.parse.quote("물 마시기")
    check(api(port, token, "POST", "/v1/habits", {"name": "물 마시기", "goal": 8, "unit": "잔", "start": "2026-09-01"})[0] == 201, "create")
    for offset, amount in enumerate([8, 0, 6, 8, 0, 8, 9, 3, 8, 8, 0]):
        if amount:
            check(api(port, token, "POST", water + "/records", {"amount": amount, "on": f"2026-10-{offset + 1:02d}"})[0] == 201, "record")
    check(api(port, token, "POST", water + "/skips", {"on": "2026-10-05"})[0] == 201, "skip")
    check(api(port, token, "POST", "/v1/habits", {"name": "gym", "schedule": "times-per-week", "scheduleParams": {"times": 3},
                                                  "start": "2026-09-28"})[0] == 201, "create gym")
    driver = browser(width, height, javascript)
    driver.javascript = javascript
    # A read may land on a page the script or a navigation has just replaced: the wait reads again.
    wait = WebDriverWait(driver, 20, ignored_exceptions=(StaleElementReferenceException,))
    shots = []
    suffix = f"{width}{'' if javascript else '-nojs'}"
    try:
        base = f"http://127.0.0.1:{port}"
        driver.get(base + "/")
        check(driver.find_elements(By.ID, "token"), f"{label}: no sign-in form at /")
        accessible(driver, f"{label}: sign-in")
        no_sideways_scroll(driver, f"{label}: sign-in")
        driver.find_element(By.ID, "token").send_keys("sd_" + "0" * 64)
        driver.find_element(By.ID, "sign-in").click()
        wait.until(expected_conditions.presence_of_element_located((By.ID, "error")))
        check("belongs to no user" in driver.find_element(By.ID, "error").text, f"{label}: a wrong token was not refused")
        if width >= 1280:
            # By name and password (`stackday user passwd`), as a person types them.
            subprocess.run([stackday, "--db", db, "user", "passwd", user], input="correct horse battery\n", check=True, capture_output=True, text=True)
            driver.find_element(By.ID, "name").send_keys(user)
            driver.find_element(By.ID, "password").send_keys("correct horse wrong")
            # The wrong token's page still shows its own error until the answer replaces it: wait for this one's.
            refused = driver.find_element(By.ID, "error")
            driver.find_element(By.ID, "sign-in").click()
            wait.until(expected_conditions.staleness_of(refused))
            try:
                wait.until(expected_conditions.text_to_be_present_in_element((By.ID, "error"), "do not match"))
            except TimeoutException:
                check(False, f"{label}: a wrong password was not refused")
            driver.find_element(By.ID, "name").send_keys(user)
            driver.find_element(By.ID, "password").send_keys("correct horse battery")
        else:
            driver.find_element(By.ID, "token").send_keys(token)
        driver.find_element(By.ID, "sign-in").click()
        wait.until(expected_conditions.presence_of_element_located((By.ID, "user")))
        check(driver.find_element(By.ID, "user").text == user, f"{label}: not signed in")
        cookie = driver.get_cookie("stackday_session")
        check(cookie and cookie["httpOnly"] and cookie.get("sameSite") == "Lax", f"{label}: session cookie {cookie}")
        check(token not in cookie["value"] and cookie["value"].startswith("ss_"), f"{label}: the cookie carries the token")
        if javascript:
            check(driver.execute_script("return document.cookie") == "", f"{label}: the session cookie is readable from scripts")
        check(driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en", f"{label}: html lang")

        # The figures are the API's.
        today = json.loads(api(port, token, "GET", "/v1/today")[1])
        for habit in today["habits"]:
            check(field(driver, habit["name"], "total") == f"{habit['total']:g}/{habit['goal']:g}", f"{label}: {habit['name']} total")
        check(field(driver, "gym", "period") == "0 of 3 this week", f"{label}: gym's period")
        shots.append(inspect(driver, label, "today", width, suffix, output))

        # The settings page, with its sync line: no sync of this user has needed a decision.
        driver.get(base + "/settings")
        check(driver.find_elements(By.CSS_SELECTOR, "[data-sync-decided=none]"), f"{label}: the settings page has no sync line")
        shots.append(inspect(driver, label, "settings", width, suffix, output))
        # A calendar feed's address is one long word: the page still fits the phone's width.
        driver.find_element(By.CSS_SELECTOR, "button[data-action=feed]").click()
        wait.until(settled(lambda d: d.find_elements(By.CSS_SELECTOR, "code[data-feed-url]")))
        no_sideways_scroll(driver, f"{label}: settings with a calendar feed")
        # Connect a device: a code with its QR code; the link it holds signs a browser in as this
        # user and lists the device, which Revoke removes.
        driver.find_element(By.CSS_SELECTOR, "button[data-action=pair]").click()
        wait.until(settled(lambda d: d.find_elements(By.CSS_SELECTOR, "output[data-pairing-code]")))
        code = driver.find_element(By.CSS_SELECTOR, "output[data-pairing-code]").text
        check(re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}", code), f"{label}: pairing code {code!r}")
        qr = driver.find_element(By.CSS_SELECTOR, "figure[data-pairing-qr] svg")
        check(80 <= qr.size["width"] <= 240 and qr.size["width"] == qr.size["height"], f"{label}: QR code size {qr.size}")
        link = driver.find_element(By.CSS_SELECTOR, "a[data-pairing-link]").get_attribute("href")
        check(link.endswith("/pair?code=" + code), f"{label}: pairing link {link}")
        shots.append(inspect(driver, label, "pairing", width, suffix, output))
        driver.get(link)
        check(driver.find_element(By.ID, "code").get_attribute("value") == code, f"{label}: /pair lacks the code")
        accessible(driver, f"{label}: pair")
        no_sideways_scroll(driver, f"{label}: pair")
        driver.find_element(By.ID, "pair").click()
        try:
            wait.until(settled(lambda d: d.find_elements(By.ID, "user")))
        except TimeoutException:
            raise AssertionError(f"{label}: /pair did not sign in: {driver.current_url} {driver.page_source[:1500]}")
        # The browser is now signed in as the paired device: revoking that device signs it out.
        driver.get(base + "/settings")
        devices = driver.find_elements(By.CSS_SELECTOR, "li[data-device]")
        check(len(devices) == 1 and "phone" in devices[0].text, f"{label}: devices {[d.text for d in devices]}")
        devices[0].find_element(By.CSS_SELECTOR, "button[data-action=revoke]").click()
        wait.until(settled(lambda d: d.find_elements(By.CSS_SELECTOR, "form[data-form=sign-in]")))
        driver.get(base + "/")
        driver.find_element(By.ID, "token").send_keys(token)
        driver.find_element(By.ID, "sign-in").click()
        wait.until(expected_conditions.presence_of_element_located((By.ID, "user")))
        cookie = driver.get_cookie("stackday_session")
        driver.get(base + "/settings")
        check(driver.find_elements(By.CSS_SELECTOR, "[data-devices=none]"), f"{label}: the revoked device is still listed")
        driver.get(base + "/")

        # Add a habit through the form.
        details = driver.find_element(By.ID, "add")
        if not details.get_attribute("open"):
            details.find_element(By.TAG_NAME, "summary").click()
        form = driver.find_element(By.CSS_SELECTOR, "form[data-form=add-habit]")
        form.find_element(By.NAME, "name").send_keys("read")
        goal = form.find_element(By.NAME, "goal")
        goal.clear()
        goal.send_keys("20")
        form.find_element(By.NAME, "unit").send_keys("pages")
        Select(form.find_element(By.NAME, "schedule")).select_by_value("weekly")
        weekly = form.find_element(By.CSS_SELECTOR, "fieldset[data-params-for='schedule:weekly']")
        for box in weekly.find_elements(By.CSS_SELECTOR, "input[type=checkbox]"):
            if box.is_selected() != (box.get_attribute("value") in ("sun", "wed")):
                box.click()
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait.until(settled(lambda d: d.find_elements(By.CSS_SELECTOR, 'li[data-habit="read"]')))
        shown = json.loads(api(port, token, "GET", "/v1/habits/read")[1])
        check(shown["rules"]["schedule"]["name"] == "weekly" and shown["rules"]["schedule"]["params"]["days"] == ["wed", "sun"], f"{label}: {shown['rules']}")
        check(shown["rules"]["goal"] == 20 and shown["unit"] == "pages", f"{label}: added habit {shown}")

        # A schedule said in words: the field beside the select is the schedule when filled.
        details = driver.find_element(By.ID, "add")
        if not details.get_attribute("open"):
            details.find_element(By.TAG_NAME, "summary").click()
        form = driver.find_element(By.CSS_SELECTOR, "form[data-form=add-habit]")
        form.find_element(By.NAME, "name").send_keys("stretch")
        form.find_element(By.CSS_SELECTOR, "textarea[data-schedule-text]").send_keys("3 times a week")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait.until(settled(lambda d: d.find_elements(By.CSS_SELECTOR, 'li[data-habit="stretch"]')))
        said = json.loads(api(port, token, "GET", "/v1/habits/stretch")[1])["rules"]["schedule"]
        check(said["name"] == "times-per-week" and said["params"] == {"times": 3}, f"{label}: said in words {said}")

        # Record, undo, skip.
        def submit(action):
            retrying(lambda: row(driver, "read").find_element(By.CSS_SELECTOR, f"form[data-action={action}] button").click())

        def amount_five():
            amount = row(driver, "read").find_element(By.CSS_SELECTOR, "form[data-action=record] input[name=amount]")
            amount.clear()
            amount.send_keys("5")
            amount.find_element(By.XPATH, "..").find_element(By.CSS_SELECTOR, "button").click()
        retrying(amount_five)
        wait.until(lambda d: field(d, "read", "total") == "5/20")
        # Each of today's records is listed with its own remove button.
        check(len(row(driver, "read").find_elements(By.CSS_SELECTOR, "ul.records li[data-record]")) == 1, f"{label}: today's record not listed")
        submit("remove")
        wait.until(lambda d: field(d, "read", "total") == "0/20")
        submit("skip")
        wait.until(lambda d: field(d, "read", "state") == "skipped")
        # A skip is taken back from the card, then made again.
        submit("unskip")
        wait.until(lambda d: field(d, "read", "state") == "to do")
        submit("skip")
        wait.until(lambda d: field(d, "read", "state") == "skipped")

        # A yes/no habit's button toggles today.
        retrying(lambda: row(driver, "stretch").find_element(By.CSS_SELECTOR, "form[data-action=record] button").click())
        wait.until(lambda d: field(d, "stretch", "total") == "1/1")
        pressed = retrying(lambda: row(driver, "stretch").find_element(By.CSS_SELECTOR, "form[data-action=undo] button").get_attribute("aria-pressed"))
        check(pressed == "true", f"{label}: the done button does not say it is pressed")
        retrying(lambda: row(driver, "stretch").find_element(By.CSS_SELECTOR, "form[data-action=undo] button").click())
        wait.until(lambda d: field(d, "stretch", "total") == "0/1")

        # A limit reads as one, and warns when over.
        check(api(port, token, "POST", "/v1/habits", {"name": "coffee", "unit": "cups", "progress": "at-most", "progressParams": {"limit": 2},
                                                      "start": "2026-10-01"})[0] == 201, "create coffee")
        check(api(port, token, "POST", "/v1/habits/coffee/records", {"amount": 3})[0] == 201, "coffee record")
        driver.get(base + "/")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, 'li[data-habit="coffee"]'))
        coffee = row(driver, "coffee")
        check(coffee.get_attribute("data-limit") == "over" and field(driver, "coffee", "total") == "3 of at most 2 cups",
              f"{label}: the limit card: {coffee.get_attribute('data-limit')} {field(driver, 'coffee', 'total')}")
        check("primary" not in (coffee.find_element(By.CSS_SELECTOR, "form[data-action=step] button").get_attribute("class") or ""),
              f"{label}: a limit's button looks like a goal's")
        # A colour tag bands the card; + records the habit's step and − takes back the latest record.
        check(api(port, token, "PATCH", "/v1/habits/coffee", {"colorTag": "teal", "step": 0.5})[0] == 200, "coffee colour")
        driver.get(base + "/")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, 'li[data-habit="coffee"][data-color="teal"]'))
        band = row(driver, "coffee").value_of_css_property("border-left-color")
        check(band in ("rgb(0, 121, 107)", "rgba(0, 121, 107, 1)"), f"{label}: the teal band is {band}")
        check(row(driver, "coffee").find_element(By.CSS_SELECTOR, "form[data-action=step] button").text.startswith("+0.5 cups"), f"{label}: the step button")
        retrying(lambda: row(driver, "coffee").find_element(By.CSS_SELECTOR, "form[data-action=step] button").click())
        wait.until(lambda d: field(d, "coffee", "total") == "3.5 of at most 2 cups")
        retrying(lambda: row(driver, "coffee").find_element(By.CSS_SELECTOR, "form[data-action=step-back] button").click())
        wait.until(lambda d: field(d, "coffee", "total") == "3 of at most 2 cups")
        states = {h["name"]: h["state"] for h in json.loads(api(port, token, "GET", "/v1/today")[1])["habits"]}
        check(states["read"] == "skipped", f"{label}: the skip was not stored: {states}")

        if javascript:
            # A record made elsewhere appears without a reload.
            driver.execute_script("window.stillHere = true")
            check(api(port, token, "POST", "/v1/habits/gym/records", {"on": "2026-10-09"})[0] == 201, "API record")
            wait.until(lambda d: field(d, "gym", "period") == "1 of 3 this week")
            check(driver.execute_script("return window.stillHere === true"), f"{label}: the page reloaded")

        groups(driver, wait, port, token, label, base, width, suffix, output)

        if javascript and width < 500:
            offline_check_ins(driver, wait, port, token, label, base)
            korean_names(driver, wait, label, base)

        # The habit's page: every day of October against the API's calendar.
        retrying(lambda: row(driver, "물 마시기").find_element(By.CSS_SELECTOR, ".head a").click())
        wait.until(expected_conditions.presence_of_element_located((By.ID, "habit-name")))
        calendar = json.loads(api(port, token, "GET", "/v1/calendar/" + urllib.parse.quote("물 마시기") + "?from=2026-10-01&to=2026-10-31")[1])
        expected = {day["day"]: mark(day) for day in calendar["days"]}
        cells = {cell.get_attribute("data-day"): cell.get_attribute("data-state") for cell in driver.find_elements(By.CSS_SELECTOR, "td[data-day]")}
        check(cells == expected, f"{label}: calendar states {cells} != {expected}")
        check({"met", "partial", "missed", "skipped", "pending", "future"} <= set(cells.values()), f"{label}: states shown {set(cells.values())}")
        check(driver.find_elements(By.CSS_SELECTOR, "svg.year rect.day") and driver.find_elements(By.CSS_SELECTOR, "svg.year polyline"),
              f"{label}: no year chart")
        if width < 500:
            # The year keeps a legible size on a phone: it scrolls in its own box, the latest days in view.
            box = driver.execute_script("""
                var box = document.querySelector('.year-box'), svg = box.querySelector('svg.year');
                var cells = box.querySelectorAll('rect.day'), last = cells[cells.length - 1].getBoundingClientRect(), shown = box.getBoundingClientRect();
                return {scrolls: box.scrollWidth > box.clientWidth, width: svg.getBoundingClientRect().width,
                        lastInView: last.left >= shown.left && last.right <= shown.right + 1};""")
            check(box["scrolls"] and box["width"] >= 640 and box["lastInView"], f"{label}: the year chart at a phone's width: {box}")
        shots.append(inspect(driver, label, "habit", width, suffix, output))
        if width < 500 and javascript:
            policy_journey(driver, wait, port, token, label, base)
            retrying(lambda: driver.find_element(By.CSS_SELECTOR, "a[href='/']").click())
            wait.until(expected_conditions.presence_of_element_located((By.ID, "today-list")))
            retrying(lambda: row(driver, "물 마시기").find_element(By.CSS_SELECTOR, ".head a").click())
            wait.until(expected_conditions.presence_of_element_located((By.ID, "habit-name")))
        if lab:
            try_the_lab(driver, wait, port, token, label)
            policy_editor(driver, wait, port, token, label, base, output)
            retrying(lambda: driver.find_element(By.CSS_SELECTOR, "a[href='/']").click())
            wait.until(expected_conditions.presence_of_element_located((By.ID, "today-list")))
            retrying(lambda: row(driver, "물 마시기").find_element(By.CSS_SELECTOR, ".head a").click())
            wait.until(expected_conditions.presence_of_element_located((By.ID, "habit-name")))
        # A record with a note, on the shown day: the note is on the page, escaped, and in the API's records.
        note = 'rain, "heavy" <b>비</b>'
        form = driver.find_element(By.CSS_SELECTOR, "form[data-form=record-note]")
        form.find_element(By.NAME, "note").send_keys(note)
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait.until(settled(lambda d: any(q.text == note for q in d.find_elements(By.CSS_SELECTOR, "#records ~ ul q[data-field=note]"))))
        records = json.loads(api(port, token, "GET", "/v1/habits/" + urllib.parse.quote("물 마시기") + "/records?limit=1000")[1])["records"]
        check(any(record["note"] == note for record in records), f"{label}: the note is not among the API's records")
        check(not driver.find_elements(By.CSS_SELECTOR, "#records ~ ul q b"), f"{label}: the note's markup was not escaped")
        # The day's sheet: the noted record removed by its own button, the day skipped and the skip taken back.
        def day_records(d):
            return d.find_elements(By.CSS_SELECTOR, "ul[data-day-records] li[data-record]")
        count = len(day_records(driver))
        retrying(lambda: [li for li in day_records(driver) if li.find_elements(By.CSS_SELECTOR, "q")][0]
                 .find_element(By.CSS_SELECTOR, "form[data-action=remove] button").click())
        wait.until(settled(lambda d: len(day_records(d)) == count - 1))
        shown_day = driver.find_element(By.CSS_SELECTOR, "form[data-action=skip][data-day]").get_attribute("data-day")
        retrying(lambda: driver.find_element(By.CSS_SELECTOR, "form[data-action=skip][data-day] button").click())
        wait.until(settled(lambda d: d.find_elements(By.CSS_SELECTOR, f'td[data-day="{shown_day}"][data-state=skipped]')))
        retrying(lambda: driver.find_element(By.CSS_SELECTOR, "form[data-action=unskip][data-day] button").click())
        wait.until(settled(lambda d: d.find_elements(By.CSS_SELECTOR, "form[data-action=skip][data-day]")))
        check(not any(s.get("day") == shown_day for s in json.loads(api(port, token, "GET", "/v1/calendar/" + urllib.parse.quote("물 마시기")
                                                                          + f"?from={shown_day}&to={shown_day}")[1])["days"] if s.get("state") == "skipped"),
              f"{label}: the skip of {shown_day} was not taken back")
        driver.find_element(By.CSS_SELECTOR, "a[rel=prev]").click()
        wait.until(settled(lambda d: d.find_element(By.ID, "month").text == "September 2026"))
        # A past month's day, edited: the page comes back to that day in that month.
        retrying(lambda: driver.find_element(By.CSS_SELECTOR, 'td[data-day="2026-09-15"] a').click())
        wait.until(settled(lambda d: d.find_elements(By.CSS_SELECTOR, 'form[data-action=skip][data-day="2026-09-15"]')))
        form = driver.find_element(By.CSS_SELECTOR, "form[data-form=record-note]")
        form.find_element(By.NAME, "note").send_keys("late entry")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait.until(settled(lambda d: any(q.text == "late entry" for q in d.find_elements(By.CSS_SELECTOR, "ul[data-day-records] q[data-field=note]"))))
        check(driver.find_element(By.ID, "month").text == "September 2026" and "month=2026-09" in driver.current_url,
              f"{label}: a past day's edit came back to {driver.find_element(By.ID, 'month').text} ({driver.current_url})")

        # Sign out: the old cookie opens nothing.
        old = cookie["value"]
        driver.find_element(By.CSS_SELECTOR, "form[data-action=sign-out] button").click()
        wait.until(expected_conditions.presence_of_element_located((By.ID, "token")))
        check(driver.get_cookie("stackday_session") is None, f"{label}: signing out kept the cookie")
        status, body = raw(port, "GET", "/", cookie=old)
        check(status == 200 and 'id="token"' in body and 'id="user"' not in body, f"{label}: the old cookie still opens today")
        status, _ = raw(port, "POST", "/habits/read/record", cookie=old, body="amount=1")
        check(status == 403, f"{label}: a post with the old cookie answered {status}")
        print(f"web app: {label}: signed in, added, recorded, undid, skipped, {len(cells)} calendar days read, screenshots {', '.join(shots)}")
    finally:
        driver.quit()


def free_port():
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def push_in_chromium(stackday, folder, output):
    """Reminders in the installed app, at the phone width: the settings page offers "Remind me on
    this device"; a push delivered to the service worker (DevTools' ServiceWorker.deliverPushMessage,
    as a push service would) shows a notification with Done and Later; Done records the day's
    check-in, checked through the API; and Done taken while the server is unreachable waits in the
    worker's outbox and is recorded once the server is back (the same port: the same origin)."""
    db = os.path.join(folder, "push.sqlite")
    port = free_port()
    common = [stackday, "--db", db, "--tz", "+09:00", "--now", NOW]
    token = subprocess.run(common + ["user", "add", "dee"], check=True, capture_output=True, text=True).stdout.strip()

    def serve():
        # The same port each time, so that the origin (and the browser's worker and session) stays.
        return start_server(stackday, db, folder, "push-serve", port=port)[0]

    server = serve()
    driver = browser(390, 844)
    driver.javascript = True
    wait = WebDriverWait(driver, 20, ignored_exceptions=(StaleElementReferenceException,))
    label = "push at 390x844"
    base = f"http://127.0.0.1:{port}"
    try:
        for name in ["water", "stretch"]:
            check(api(port, token, "POST", "/v1/habits", {"name": name, "start": "2026-10-01", "remind": ["21:00"]})[0] == 201, f"create {name}")
        driver.get(base + "/")
        driver.find_element(By.ID, "token").send_keys(token)
        driver.find_element(By.ID, "sign-in").click()
        wait.until(expected_conditions.presence_of_element_located((By.ID, "user")))
        driver.get(base + "/settings")
        section = wait.until(expected_conditions.presence_of_element_located((By.CSS_SELECTOR, "section[data-push-key]")))
        key = base64.urlsafe_b64decode(section.get_attribute("data-push-key") + "==")
        check(len(key) == 65 and key[0] == 4, f"{label}: the page's push key")
        check(section.find_element(By.CSS_SELECTOR, "form[data-action=push-subscribe] button").is_displayed(), f"{label}: no Remind me button")
        accessible(driver, f"{label}: settings")
        no_sideways_scroll(driver, f"{label}: settings")
        inspect(driver, label, "settings-push", 390, "390", output)
        check(driver.execute_async_script("var done = arguments[0]; navigator.serviceWorker.ready.then(function (r) { done(!!r.active); })"),
              f"{label}: no active service worker")

        def notifications():
            return driver.execute_async_script(
                "var done = arguments[0]; navigator.serviceWorker.ready.then(function (r) { return r.getNotifications(); })"
                ".then(function (list) { done(list.map(function (n) { return {title: n.title, body: n.body, actions: n.actions.map(function (a) { return a.action; }),"
                " data: n.data}; })); });")

        driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": base, "permissions": ["notifications"]})
        # The button asks the browser for a subscription: a browser with a push service posts it and
        # the page lists it; headless Chromium has none, and the page says why instead.
        section.find_element(By.CSS_SELECTOR, "form[data-action=push-subscribe] button").click()
        outcome = WebDriverWait(driver, 30, ignored_exceptions=(StaleElementReferenceException,)).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, "li[data-push-subscription]")
            or (lambda text: text if text and not text.startswith("Asking") else False)(d.find_element(By.CSS_SELECTOR, "[data-push-state]").text))
        print(f"web app: {label}: Remind me on this device: {outcome if isinstance(outcome, str) else 'subscribed'}")

        # The registration's id is not given to a page: Chromium's service worker page lists it.
        page = driver.current_window_handle
        driver.switch_to.new_window("tab")
        driver.get("chrome://serviceworker-internals/")
        listed = WebDriverWait(driver, 20).until(lambda d: re.findall(r"Scope:\s*(\S+)[^\n]*(?:\n(?!Scope:)[^\n]*)*?\nRegistration ID:\s*(\d+)", d.find_element(By.TAG_NAME, "body").text))
        driver.close()
        driver.switch_to.window(page)
        registrations = [number for scope, number in listed if scope.startswith(base)]
        payload = json.dumps({"title": "water", "body": "Not done yet today", "habit": "water", "day": "2026-10-11",
                              "actions": [{"action": "done", "title": "Done"}, {"action": "later", "title": "Later"}]})
        check(registrations, f"{label}: no service worker registration for {base} in {listed}")
        driver.execute_cdp_cmd("ServiceWorker.enable", {})

        # DevTools hands a push to the worker at most once and drops it while its agent is still
        # attaching (one run in a few on a loaded machine): it is handed again until one is shown.
        # The notification's tag is the habit's and day's, so a second push replaces the first.
        def shown_after_push(d):
            for registration in registrations:
                d.execute_cdp_cmd("ServiceWorker.deliverPushMessage", {"origin": base, "registrationId": registration, "data": payload})
            try:
                return WebDriverWait(d, 3).until(lambda e: notifications() or False)
            except TimeoutException:
                return False
        shown = WebDriverWait(driver, 40).until(shown_after_push)
        check(len(shown) == 1, f"{label}: one push shown as {len(shown)} notifications")
        check(shown[0]["title"] == "water" and shown[0]["body"] == "Not done yet today" and shown[0]["actions"] == ["done", "later"]
              and shown[0]["data"]["habit"] == "water", f"{label}: the notification {shown}")

        def act(action, habit):
            driver.execute_async_script(
                "var done = arguments[2]; navigator.serviceWorker.ready.then(function (r) {"
                " r.active.postMessage({act: arguments[0], notification: {habit: arguments[1], day: '2026-10-11'}}); done(true); });".replace(
                    "arguments[0]", json.dumps(action)).replace("arguments[1]", json.dumps(habit)), action, habit)

        def total(name):
            return json.loads(api(port, token, "GET", "/v1/calendar/" + name + "?from=2026-10-11&to=2026-10-11")[1])["days"][0]["total"]

        # Done, online: the check-in is recorded.
        act("done", "water")
        WebDriverWait(driver, 20).until(lambda d: total("water") == 1)
        # Done while the server cannot be reached: kept in the worker, sent once it is back.
        server.terminate()
        server.wait(timeout=20)
        act("done", "stretch")

        def waiting():
            return driver.execute_async_script("var done = arguments[0]; caches.open('stackday-outbox').then(function (c) { return c.keys(); })"
                                               ".then(function (keys) { done(keys.length); });")
        WebDriverWait(driver, 20).until(lambda d: waiting() == 1)
        server = serve()
        driver.execute_async_script("var done = arguments[0]; navigator.serviceWorker.ready.then(function (r) { r.active.postMessage('flush'); done(true); });")
        WebDriverWait(driver, 20).until(lambda d: total("stretch") == 1)
        WebDriverWait(driver, 20).until(lambda d: waiting() == 0)
        check(total("water") == 1, f"{label}: Done was recorded twice")
        print(f"web app: {label}: notification shown with Done and Later, Done recorded online and after being offline")
    finally:
        driver.quit()
        server.terminate()
        server.wait(timeout=20)


def main():
    stackday, output = sys.argv[1], sys.argv[2]
    os.makedirs(output, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "stackday.sqlite")
        subprocess.run([stackday, "--db", db, "--tz", "+09:00", "user", "list"], check=True, capture_output=True)
        server, port = start_server(stackday, db, folder, "serve")
        try:
            run(port, stackday, db, "ana", 390, 844, True, output)
            run(port, stackday, db, "bob", 1280, 800, True, output, lab=True)
            run(port, stackday, db, "cy", 390, 844, False, output)
            https_sign_in(stackday, db, folder, output)
            push_in_chromium(stackday, folder, output)
        finally:
            server.terminate()
            try:
                check(server.wait(timeout=20) == 0, "stackday serve did not exit 0 on SIGTERM")
            except subprocess.TimeoutExpired:
                server.kill()
                raise


if __name__ == "__main__":
    main()
