#!/usr/bin/env python3
"""Reminders through a push service of another make. Usage: push_test.py STACKDAY.

A Web Push service on loopback, written here on `http-ece` and `cryptography` (independent of
StackDay's code), takes the messages `stackday serve --allow-local-push` sends: it verifies each
VAPID token (ES256 over the JWT, the key in `k` the server's, `aud` the service's origin, `exp`
within a day) and decrypts each body (RFC 8291) with the subscription's private key, as a browser
would. The server runs on a fixed clock (`--now`), a user in New York:

- just after 21:00 on 2026-12-07, a Monday: the open habit gets one message with its title, day
  and the Done and Later actions; the habit done, the one skipped and the one not due that day
  (a Sunday-only schedule) get none; of two habits under a rule of the user's own whose
  `remind(day, progress, params)` says "under half done", the one a quarter done gets one and the
  one three quarters done none; a subscription whose service answers 410 is removed;
- a test message (POST /v1/push/test) arrives decrypted with the user's words;
- on the spring-forward night (2026-03-08), a 02:30 reminder rings once, at 03:00 EDT: a server
  started at 03:01 sends it, one started again at 03:02 does not send it twice.
Each server is stopped even when a check fails."""

import base64
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Subscription:
    """A browser's side of a subscription: its key pair and auth secret."""

    def __init__(self, path):
        self.path = path
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def keys(self):
        point = self.private_key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"p256dh": b64url(point), "auth": b64url(self.auth)}


class PushService:
    """Takes pushes on 127.0.0.1: checks and opens each, keeps what it read, answers 201 (or the
    status set for a path)."""

    def __init__(self):
        self.subscriptions = {}
        self.statuses = {}
        self.messages = []
        self.problems = []
        self.server_key = None
        self.lock = threading.Condition()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                status = service.statuses.get(self.path, 201)
                try:
                    service.take(self.path, dict(self.headers), body)
                except Exception as error:  # a message that fails a check is a finding, kept for the test
                    with service.lock:
                        service.problems.append(f"{self.path}: {error!r}")
                        service.lock.notify_all()
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.http.server_address[1]
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def endpoint(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def take(self, path, headers, body):
        headers = {name.lower(): value for name, value in headers.items()}
        check(headers.get("content-encoding") == "aes128gcm", f"Content-Encoding {headers.get('content-encoding')}")
        check(int(headers.get("ttl", "-1")) > 0, f"TTL {headers.get('ttl')}")
        check(headers.get("urgency") in ("very-low", "low", "normal", "high"), f"Urgency {headers.get('urgency')}")
        found = re.fullmatch(r"vapid t=([^,]+), k=(\S+)", headers.get("authorization", ""))
        check(found, f"Authorization {headers.get('authorization')}")
        token, key = found.group(1), found.group(2)
        check(self.server_key is None or key == self.server_key, "k is not the server's key")
        head, claims, signature = token.split(".")
        check(json.loads(unb64url(head)) == {"typ": "JWT", "alg": "ES256"}, f"JWT header {unb64url(head)}")
        raw = unb64url(signature)
        check(len(raw) == 64, "an ES256 signature is r || s, 64 bytes")
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        try:
            public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            raise AssertionError("the VAPID signature does not verify")
        claims = json.loads(unb64url(claims))
        check(claims["aud"] == f"http://127.0.0.1:{self.port}", f"aud {claims['aud']}")
        check(claims["sub"].startswith("mailto:") or claims["sub"].startswith("https://"), f"sub {claims['sub']}")
        subscription = self.subscriptions[path]
        plain = http_ece.decrypt(body, private_key=subscription.private_key, auth_secret=subscription.auth, version="aes128gcm")
        message = json.loads(plain)
        with self.lock:
            self.messages.append((path, claims, message))
            self.lock.notify_all()

    def wait(self, count, seconds=20):
        deadline = time.time() + seconds
        with self.lock:
            while len(self.messages) + len(self.problems) < count and time.time() < deadline:
                self.lock.wait(deadline - time.time())
            check(not self.problems, f"messages that failed a check: {self.problems}")
            return list(self.messages)


def call(port, token, method, path, body=None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            text = answer.read()
            return answer.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


class Server:
    """`stackday serve` on a free port over `common`, stopped on leaving."""

    def __init__(self, common, folder, name):
        self.log = open(os.path.join(folder, name + ".log"), "w+")
        self.process = subprocess.Popen(common + ["serve", "--listen", "127.0.0.1:0", "--allow-local-push",
                                                  "--push-contact", "mailto:ops@example.org"], stderr=self.log)

    def __enter__(self):
        deadline = time.time() + 30
        while time.time() < deadline:
            self.log.seek(0)
            found = re.search(r"listening on http://127\.0\.0\.1:(\d+)", self.log.read())
            if found:
                self.port = int(found.group(1))
                return self
            check(self.process.poll() is None, "the server exited")
            time.sleep(0.05)
        raise AssertionError("the server did not start")

    def __exit__(self, *args):
        self.process.terminate()
        self.process.wait(timeout=10)


def wait_until(condition, seconds=20):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def main():
    stackday = sys.argv[1]
    service = PushService()
    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "push.sqlite")
        policies = os.path.join(folder, "policies")
        os.makedirs(policies)
        # A progress rule of the user's own that reminds only while less than half is done.
        with open(os.path.join(policies, "half.lua"), "w") as script:
            script.write("return {\n"
                         "  progress = function(total, goal) return math.min(1, total / goal) end,\n"
                         "  remind = function(day, progress, params) return progress < 0.5 end,\n"
                         "}\n")
        base = [stackday, "--db", db, "--tz", "America/New_York", "--policies", policies]
        monday = base + ["--now", "2026-12-07T21:00:30-05:00"]
        token = subprocess.run(monday + ["user", "add", "ana"], check=True, capture_output=True, text=True).stdout.strip()
        for command in [["habit", "add", "water", "--goal", "8", "--unit", "glasses", "--start", "2026-12-01", "--remind", "21:00"],
                        ["habit", "add", "read", "--start", "2026-12-01", "--remind", "21:00"],
                        ["habit", "add", "stretch", "--start", "2026-12-01", "--remind", "21:00"],
                        ["habit", "add", "church", "--start", "2026-12-01", "--remind", "21:00", "--schedule", "weekly",
                         "--schedule-params", '{"days":["sun"]}'],
                        ["habit", "add", "pages", "--goal", "20", "--start", "2026-12-01", "--remind", "21:00", "--progress", "half"],
                        ["habit", "add", "steps", "--goal", "20", "--start", "2026-12-01", "--remind", "21:00", "--progress", "half"],
                        ["record", "water", "3"], ["record", "read"], ["skip", "stretch"], ["record", "pages", "15"], ["record", "steps", "5"]]:
            subprocess.run(monday + ["--user", "ana"] + command, check=True, capture_output=True)

        phone, old = Subscription("/push/phone"), Subscription("/push/old")
        service.subscriptions = {phone.path: phone, old.path: old}
        service.statuses[old.path] = 410
        with Server(monday, folder, "monday") as server:
            status, key = call(server.port, token, "GET", "/v1/push/key")
            check(status == 200 and len(unb64url(key["publicKey"])) == 65, f"push key: {status} {key}")
            service.server_key = key["publicKey"]
            for subscription, name in [(phone, "Pixel"), (old, "old phone")]:
                status, made = call(server.port, token, "POST", "/v1/push/subscriptions",
                                    {"endpoint": service.endpoint(subscription.path), "keys": subscription.keys(), "name": name})
                check(status == 201 and made["name"] == name, f"subscribe: {status} {made}")
            # The sender looks once a second: the 21:00 reminders of the habits still open (water,
            # and steps, whose rule reminds under half done; not pages, three quarters done).
            messages = service.wait(3)
            if not wait_until(lambda: [s["name"] for s in call(server.port, token, "GET", "/v1/push/subscriptions")[1]["subscriptions"]] == ["Pixel"]):
                # What the server logged besides requests, and its deliveries, say why.
                check(False, f"the subscription answered 410 is not removed: {call(server.port, token, 'GET', '/v1/push/subscriptions')} {messages} "
                      + "".join(line for line in open(server.log.name) if " GET " not in line and " POST " not in line)[-3000:]
                      + subprocess.run(["sqlite3", db, "SELECT w.push_name, d.event_key, d.state, d.attempts, d.last_status, d.last_error FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id"],
                                       capture_output=True, text=True).stdout)
            to_phone = sorted((message for path, _, message in messages if path == phone.path), key=lambda message: message["habit"])
            check([message["habit"] for message in to_phone] == ["steps", "water"], f"the phone got {to_phone}")
            message = to_phone[1]
            check(message["title"] == "water" and message["habit"] == "water" and message["day"] == "2026-12-07", f"{message}")
            check(message["body"] == "3 of 8 glasses so far today", f"{message}")
            check([action["action"] for action in message["actions"]] == ["done", "later"], f"{message['actions']}")
            status, queued = call(server.port, token, "POST", "/v1/push/test")
            check(status == 200 and queued["queued"] == 1, f"test: {status} {queued}")
            messages = service.wait(4)
            check(messages[-1][0] == phone.path and messages[-1][2]["body"] == "Reminders reach this device." and messages[-1][2]["actions"] == [],
                  f"{messages[-1]}")
        # Read (done), stretch (skipped), church (not due on a Monday) and pages (its rule said no) were never sent.
        check(all(message["habit"] in ("water", "steps", None) for _, _, message in service.messages), f"{service.messages}")

        # The spring-forward night: 02:30 does not exist; the reminder rings at 03:00 EDT, once.
        night = os.path.join(folder, "night.sqlite")
        base = [stackday, "--db", night, "--tz", "America/New_York", "--policies", policies]
        token = subprocess.run(base + ["--now", "2026-03-08T03:01:00-04:00", "user", "add", "bo"], check=True, capture_output=True, text=True).stdout.strip()
        subprocess.run(base + ["--now", "2026-03-08T03:01:00-04:00", "--user", "bo", "habit", "add", "pill", "--start", "2026-03-01", "--remind", "02:30"],
                       check=True, capture_output=True)
        service.subscriptions["/push/night"] = night_phone = Subscription("/push/night")
        before = len(service.messages)
        for now in ["2026-03-08T03:01:00-04:00", "2026-03-08T03:02:00-04:00"]:
            with Server(base + ["--now", now], folder, "night") as server:
                if now.endswith("03:01:00-04:00"):
                    service.server_key = call(server.port, token, "GET", "/v1/push/key")[1]["publicKey"]
                    status, _ = call(server.port, token, "POST", "/v1/push/subscriptions",
                                     {"endpoint": service.endpoint(night_phone.path), "keys": night_phone.keys(), "name": "night"})
                    check(status == 201, f"subscribe: {status}")
                    service.wait(before + 1)
                else:
                    # A second server on the same store: its sender's first pass looks for reminders
                    # before it sends what is queued, so once a test message queued now has arrived,
                    # the reminder would have been queued again if it were to be.
                    check(call(server.port, token, "POST", "/v1/push/test")[1]["queued"] == 1, "no test message queued")
                    service.wait(before + 2)
        night_messages = [message for path, _, message in service.messages if path == night_phone.path and message["habit"] == "pill"]
        deliveries = subprocess.run(["sqlite3", night, "SELECT event_key, state, attempts, created_at FROM webhook_deliveries"], capture_output=True, text=True).stdout
        check(len(night_messages) == 1 and night_messages[0]["habit"] == "pill" and night_messages[0]["day"] == "2026-03-08", f"{night_messages} {deliveries}")
    service.http.shutdown()
    print(f"push: {len(service.messages)} messages decrypted and verified")


if __name__ == "__main__":
    main()
