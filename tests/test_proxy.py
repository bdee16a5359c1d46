"""Where a request says it came from (issue 34, items 3 and 8): a Host header
no URL can be built with is a 400, never a 500 with a traceback; behind a
trusted proxy each client's wrong tries are its own, and a client's own
X-Forwarded-For is believed from no one else."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest

from referee.web import create_app

from .conftest import TEST_CONFIG

ROOT = Path(__file__).resolve().parents[1]
BAD_HOSTS = ["a" * 64 + ".example", "x" * 300]
PATHS = ["/", "/new", "/club", "/sw.js", "/offline", "/static/live.js", "/s/abc",
         "/reports/abc/", "/api/openapi.json", "/api/sessions/abc", "/api/club/ledger"]


@pytest.mark.parametrize("host", BAD_HOSTS)
def test_a_bad_host_header_is_a_400_without_a_traceback(client, host, caplog):
    with caplog.at_level(logging.ERROR):
        for path in PATHS:
            r = client.get(path, headers={"Host": host})
            assert r.status_code == 400, (path, r.get_data()[:300])
        r = client.post("/api/sessions", json={"stake": "1", "rules": "pagat",
                                               "players": ["Ann", "Ben"]},
                        headers={"Host": host})
        assert r.status_code == 400
        assert r.get_json()["error"]["code"]
    assert [rec for rec in caplog.records if rec.levelno >= logging.ERROR] == []
    assert client.get("/").status_code == 200  # the next request is served as ever


HEADER = {"stake": "1", "rules": "pagat", "players": ["Ann", "Ben"]}
PROXY = "10.0.0.1"


def _app(tmp_path, **config):
    return create_app({**TEST_CONFIG, "DATABASE": str(tmp_path / "t.sqlite3"),
                       "REFEREE_HOST_KEY": "sesame", **config})


def _try(client, key: str, forwarded: str | None = None):
    headers = {"X-Host-Key": key}
    if forwarded:
        headers["X-Forwarded-For"] = forwarded
    return client.post("/api/sessions", json=HEADER, headers=headers,
                       environ_base={"REMOTE_ADDR": PROXY})


def test_behind_a_trusted_proxy_a_strangers_wrong_keys_lock_out_only_the_stranger(tmp_path):
    client = _app(tmp_path, TRUSTED_PROXIES=1).test_client()
    for _ in range(6):
        r = _try(client, "wrong", "203.0.113.9")
    assert r.status_code == 429
    assert _try(client, "sesame", "198.51.100.7").status_code == 201
    # A client writing its own X-Forwarded-For in front of the proxy's is
    # still the address the proxy saw.
    assert _try(client, "sesame", "198.51.100.7, 203.0.113.9").status_code == 429


def test_two_proxies_are_counted_from_the_right(tmp_path):
    client = _app(tmp_path, TRUSTED_PROXIES=2).test_client()
    for _ in range(6):
        r = _try(client, "wrong", "203.0.113.9, 10.0.0.2")
    assert r.status_code == 429
    assert _try(client, "sesame", "198.51.100.7, 10.0.0.2").status_code == 201


def test_without_the_setting_forwarded_addresses_are_not_believed(tmp_path):
    client = _app(tmp_path).test_client()
    for i in range(6):
        r = _try(client, "wrong", f"203.0.113.{i}")  # a new "address" each try
    assert r.status_code == 429


@pytest.mark.parametrize("value", ["-1", "two", "١", "99"])
def test_a_bad_setting_is_refused_at_start(tmp_path, monkeypatch, value):
    monkeypatch.chdir(tmp_path)
    done = subprocess.run([sys.executable, "-m", "referee.cli", "serve", "--port", "0",
                           "--db", str(tmp_path / "t.sqlite3")],
                          env={"REFEREE_TRUSTED_PROXIES": value, "PATH": "/usr/bin:/bin",
                               "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=20)
    assert done.returncode == 2, done.stderr
    assert "REFEREE_TRUSTED_PROXIES" in done.stderr + done.stdout
    assert "Traceback" not in done.stderr


def test_a_page_names_its_files_under_the_prefix_it_is_served_at(tmp_path):
    """The files' addresses are built once per prefix (a cache): a page served
    under a proxy's prefix and then at the root names each under its own."""
    client = _app(tmp_path).test_client()
    under = client.get("/new", base_url="http://localhost/tonk").get_data(as_text=True)
    root = client.get("/new").get_data(as_text=True)
    assert 'src="/tonk/tablet-static/tablet.js?v=' in under
    assert 'src="/tablet-static/tablet.js?v=' in root and "/tonk/" not in root
