#!/usr/bin/env python3
"""The API document and the metrics against a real server. Usage: api_test.py STACKDAY.

Starts its own `stackday serve` (with `--metrics-listen`) on 127.0.0.1 and free ports over a fresh
database with one user and a habit, and stops it even when a check fails. Then:
- GET /openapi.json is valid OpenAPI 3.1 (openapi-spec-validator);
- schemathesis sends generated requests to every operation (bounded in examples and time) and
  checks that none is a 5xx and every answer conforms to the document (schema and content type);
- /metrics parses with prometheus_client's parser and counts what was asked."""

import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request

from openapi_spec_validator import validate
from prometheus_client.parser import text_string_to_metric_families


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def wait_for(log, pattern):
    deadline = time.time() + 30
    while time.time() < deadline:
        log.seek(0)
        found = re.search(pattern, log.read())
        if found:
            return int(found.group(1))
        time.sleep(0.05)
    raise AssertionError(f"no line matching {pattern}")


def main():
    stackday = sys.argv[1]
    schemathesis = os.path.join(os.path.dirname(sys.executable), "st")
    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "api.sqlite")
        common = [stackday, "--db", db, "--tz", "+09:00", "--now", "2026-10-11T22:00:00+09:00", "--policies", os.path.join(folder, "none")]
        token = subprocess.run(common + ["user", "add", "ana"], check=True, capture_output=True, text=True).stdout.strip()
        for command in [["habit", "add", "water", "--goal", "8", "--start", "2026-10-01"], ["record", "water", "3", "--on", "2026-10-05"]]:
            subprocess.run(common + ["--user", "ana"] + command, check=True, capture_output=True)
        log = open(os.path.join(folder, "serve.log"), "w+")
        # Generated pairing codes are wrong ones: without a high failure limit the address would wait after ten.
        server = subprocess.Popen(common + ["serve", "--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0", "--auth-failures", "100000"], stderr=log)
        try:
            port = wait_for(log, r"listening on http://127\.0\.0\.1:(\d+)")
            metrics_port = wait_for(log, r"metrics on http://127\.0\.0\.1:(\d+)/metrics")
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/openapi.json", timeout=20) as answer:
                document = json.load(answer)
            validate(document)
            operations = sum(len(methods) for methods in document["paths"].values())
            check(operations >= 26, f"{operations} operations in the document")
            run = subprocess.run(
                [schemathesis, "run", f"http://127.0.0.1:{port}/openapi.json", "--experimental=openapi-3.1",
                 "--checks", "not_a_server_error,response_schema_conformance,content_type_conformance",
                 "-H", f"Authorization: Bearer {token}", "--hypothesis-max-examples", "25", "--hypothesis-seed", "1",
                 "--request-timeout", "10000", "--hypothesis-deadline", "10000", "--workers", "1", "--max-response-time", "10000"],
                capture_output=True, text=True, timeout=900)
            summary = "\n".join(line for line in run.stdout.splitlines() if not re.match(r"^(GET|POST|PUT|PATCH|DELETE) ", line))
            check(run.returncode == 0, f"schemathesis failed:\n{summary[-6000:]}\n{run.stderr[-2000:]}")
            passed = re.search(r"=+ (\d+) passed", run.stdout)
            check(passed and int(passed.group(1)) == operations, f"schemathesis: {summary[-1500:]}")

            with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=20) as answer:
                check(answer.headers["Content-Type"].startswith("text/plain; version=0.0.4"), answer.headers["Content-Type"])
                text = answer.read().decode()
            families = {family.name: family for family in text_string_to_metric_families(text)}
            for name in ["stackday_requests", "stackday_request_duration_seconds", "stackday_kept_answers", "stackday_policy_failures",
                         "stackday_store_errors", "stackday_requests_in_flight", "stackday_connections_open", "stackday_sessions"]:
                check(name in families, f"{name} missing from /metrics: {sorted(families)}")
            requests = sum(sample.value for sample in families["stackday_requests"].samples if sample.name == "stackday_requests_total")
            check(requests >= 100, f"only {requests} requests counted")
            count = [s.value for s in families["stackday_request_duration_seconds"].samples if s.name.endswith("_count")][0]
            check(count == requests, f"the histogram counted {count} requests, the counter {requests}")
            routes = {sample.labels["route"] for sample in families["stackday_requests"].samples if "route" in sample.labels}
            check("/v1/today" in routes and "/v1/habits/:name" in routes, f"routes {sorted(routes)}")
            print(f"api: the document is valid OpenAPI 3.1 with {operations} operations; schemathesis: {passed.group(1)} operations conform; "
                  f"/metrics parsed, {int(requests)} requests counted")
        finally:
            server.terminate()
            try:
                check(server.wait(timeout=20) == 0, "stackday serve did not exit 0 on SIGTERM")
            except subprocess.TimeoutExpired:
                server.kill()
                raise


if __name__ == "__main__":
    main()
