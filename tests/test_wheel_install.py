"""A plain (non-editable) install serves every page: the wheel must carry the
templates and the static files, not only the Python modules.

The wheel goes into a fresh venv with nothing else of this project in it;
its dependencies come from the test venv through a path entry (no download),
and the server runs from an empty directory so the checkout cannot stand in
for what the wheel lacks.
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.error
import urllib.parse
import urllib.request
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_logs" / "pagat_basic.json"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("wheel")
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
         "-w", str(tmp / "dist"), str(ROOT)],
        capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    wheel = next((tmp / "dist").glob("tonk_referee-*.whl"))
    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    site = Path(subprocess.check_output(
        [py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True).strip())
    # The dependencies only: the test venv's site-packages holds the checkout's
    # editable hook too, but a plain path entry does not run other .pth files.
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    inst = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q",
                           "--no-deps", str(wheel)], capture_output=True, text=True)
    assert inst.returncode == 0, inst.stderr
    return env_dir


def test_the_wheel_carries_templates_and_static_files(installed):
    where = subprocess.check_output(
        [installed / "bin" / "python", "-c",
         "import referee, pathlib; print(pathlib.Path(referee.__file__).parent)"],
        text=True, cwd=installed).strip()
    package = Path(where)
    assert package.is_relative_to(installed), "the checkout was imported, not the wheel"
    assert (package / "templates" / "hand.html").is_file()
    assert (package / "templates" / "reports" / "index.html").is_file()
    assert (package / "web" / "static" / "tablet.css").is_file()
    # The installable web app: its worker, the queue's script, the home-screen icons.
    for name in ("sw.js", "offline.js", "icon-192.png", "icon-512.png", "icon.svg"):
        assert (package / "web" / "static" / name).is_file(), name


def test_an_installed_service_serves_the_home_page_and_a_hand_page(installed, tmp_path):
    port = _free_port()
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    server = subprocess.Popen(
        [installed / "bin" / "referee", "serve", "--port", str(port)],
        cwd=run_dir, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    try:
        for _ in range(100):
            try:
                home = opener.open(base + "/", timeout=5)
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        else:
            pytest.fail("the installed service did not start")
        assert home.status == 200 and "Tonk" in home.read().decode()

        req = urllib.request.Request(base + "/api/sessions", data=SAMPLE.read_bytes(),
                                     headers={"Content-Type": "application/json"})
        created = json.loads(opener.open(req, timeout=10).read())
        sid, token = created["id"], created["table_token"]
        page = opener.open(f"{base}/s/{sid}/unlock", timeout=5).read().decode()
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        form = urllib.parse.urlencode({"csrf_token": csrf, "pin": token,
                                       "next": f"/s/{sid}/hands/1"}).encode()
        hand = opener.open(f"{base}/s/{sid}/unlock", data=form, timeout=10)
        assert hand.status == 200 and hand.url.endswith(f"/s/{sid}/hands/1")
        text = hand.read().decode()
        assert "Hand 1" in text
        css = opener.open(f"{base}/tablet-static/tablet.css", timeout=5)
        assert css.status == 200
        assert opener.open(f"{base}/sw.js", timeout=5).status == 200
        manifest = json.loads(opener.open(f"{base}/manifest.webmanifest", timeout=5).read())
        for icon in manifest["icons"]:
            assert opener.open(base + icon["src"], timeout=5).status == 200, icon
        # The table's money is kept where the service runs, not in the venv.
        assert (run_dir / "instance" / "referee.sqlite3").is_file()
    finally:
        server.kill()
        server.wait(10)
        shutil.rmtree(run_dir, ignore_errors=True)
