#!/usr/bin/env python3
"""The dashboard in a real browser: headless Chromium, driven by Selenium, signs in with a token
and reads the habits and figures off the page. Usage: dashboard_test.py STACKDAY OUTPUT_DIR.

It starts its own `stackday serve` on 127.0.0.1 and a free port over a fresh database, and stops
it (and the browser) even when a check fails. A screenshot goes to OUTPUT_DIR/dashboard.png."""

import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

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


def main():
    stackday, output = sys.argv[1], sys.argv[2]
    os.makedirs(output, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "stackday.sqlite")
        token = subprocess.run([stackday, "--db", db, "--tz", "+09:00", "user", "add", "ana"],
                               check=True, capture_output=True, text=True).stdout.strip()
        log = open(os.path.join(folder, "serve.log"), "w+")
        server = subprocess.Popen([stackday, "--db", db, "--now", NOW, "serve", "--listen", "127.0.0.1:0"], stderr=log)
        driver = None
        try:
            port = None
            deadline = time.time() + 30
            while port is None and time.time() < deadline and server.poll() is None:
                log.seek(0)
                found = re.search(r"listening on http://127\.0\.0\.1:(\d+)", log.read())
                port = int(found.group(1)) if found else None
                time.sleep(0.05)
            check(port is not None, "stackday serve did not start")

            habits = [("물 마시기", 8, "잔", [8, 8, 6, 8, 8, 8, 9, 8, 8, 8, 3]), ("run", 5, "km", [5, 0, 6, 5, 0, 0, 7, 5, 5, 0, 2])]
            for name, goal, unit, amounts in habits:
                check(api(port, token, "POST", "/v1/habits", {"name": name, "goal": goal, "unit": unit, "start": "2026-08-01"})[0] == 201, "create")
                for offset, amount in enumerate(amounts):
                    if amount:
                        path = "/v1/habits/" + urllib.request.quote(name) + "/records"
                        check(api(port, token, "POST", path, {"amount": amount, "on": f"2026-10-{offset + 1:02d}"})[0] == 201, "record")
            today = json.loads(api(port, token, "GET", "/v1/today")[1])

            options = webdriver.ChromeOptions()
            options.binary_location = "/usr/bin/chromium"
            for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1100,1400"]:
                options.add_argument(argument)
            driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
            driver.set_page_load_timeout(30)
            base = f"http://127.0.0.1:{port}/"

            driver.get(base)
            check(driver.find_elements(By.ID, "token"), "no sign-in form at /")
            driver.find_element(By.ID, "token").send_keys("sd_" + "0" * 64)
            driver.find_element(By.ID, "sign-in").click()
            wait = WebDriverWait(driver, 20)
            wait.until(expected_conditions.presence_of_element_located((By.ID, "error")))
            check("belongs to no user" in driver.find_element(By.ID, "error").text, "a wrong token was not refused")

            driver.find_element(By.ID, "token").send_keys(token)
            driver.find_element(By.ID, "sign-in").click()
            wait.until(expected_conditions.presence_of_element_located((By.ID, "user")))
            check(driver.find_element(By.ID, "user").text == "ana", "not signed in as ana")
            cookie = driver.get_cookie("stackday_session")
            check(cookie is not None and cookie["httpOnly"] and cookie.get("sameSite") == "Strict", f"session cookie {cookie}")
            check(driver.execute_script("return document.cookie") == "", "the session cookie is readable from scripts")

            rows = driver.find_elements(By.CSS_SELECTOR, "#today tr.habit")
            names = [row.find_element(By.CSS_SELECTOR, "td.name").text for row in rows]
            check(names == [habit["name"] for habit in today["habits"]], f"habits on the page {names}")
            for row, habit in zip(rows, today["habits"]):
                done = row.find_element(By.CSS_SELECTOR, "td.done").text
                check(done.startswith(f"{habit['total']:g}/{habit['goal']:g}"), f"{habit['name']}: done {done}")
                check(row.find_element(By.CSS_SELECTOR, "td.streak").text == str(habit["streak"]), f"{habit['name']}: streak")
                check(row.find_element(By.CSS_SELECTOR, "td.state").text == habit["state"], f"{habit['name']}: state")
            week = driver.find_element(By.CSS_SELECTOR, "#week pre").text
            check("Most consistent: 물 마시기" in week, f"weekly report {week}")
            panels = driver.find_elements(By.CSS_SELECTOR, "section.habit")
            check(len(panels) == 2, "one panel per habit")
            for panel in panels:
                heatmap = panel.find_element(By.CSS_SELECTOR, "svg.heatmap")
                labels = [text.text for text in heatmap.find_elements(By.CSS_SELECTOR, "text")]
                check("Oct" in labels and "Mon" in labels and "Less" in labels and "More" in labels, f"heatmap labels {labels}")
                check(len(heatmap.find_elements(By.CSS_SELECTOR, "rect.day")) >= 70, "heatmap days")
                check(panel.find_elements(By.CSS_SELECTOR, "svg.score-line polyline"), "no score line")
            driver.save_screenshot(os.path.join(output, "dashboard.png"))

            driver.find_element(By.CSS_SELECTOR, "form[action='/session/end'] button").click()
            wait.until(expected_conditions.presence_of_element_located((By.ID, "token")))
            check(driver.get_cookie("stackday_session") is None, "signing out kept the session cookie")
            driver.get(base)
            check(driver.find_elements(By.ID, "token") and not driver.find_elements(By.ID, "user"), "signed out, / still shows the dashboard")
            print(f"dashboard: signed in, {len(names)} habits read, screenshot {os.path.join(output, 'dashboard.png')}")
        finally:
            if driver is not None:
                driver.quit()
            server.terminate()
            try:
                check(server.wait(timeout=20) == 0, "stackday serve did not exit 0 on SIGTERM")
            except subprocess.TimeoutExpired:
                server.kill()
                raise


if __name__ == "__main__":
    main()
