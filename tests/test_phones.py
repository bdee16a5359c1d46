"""The whole table on its phones: the room opened (``serve --lan``, the
public URL), seat and viewer links, the live stream, the consistency check."""

from __future__ import annotations

import subprocess
import sys

from referee.service import sessions
from tests.reports_fixtures import pdf_text, session_log


def test_serve_lan_prints_the_address_phones_open_and_its_qr_code(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "referee", "serve", "--lan", "--port", "0",
                             "--db", str(tmp_path / "r.sqlite3")], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stdout.readline()
        second = proc.stdout.readline()
        qr = [proc.stdout.readline() for _ in range(3)]
    finally:
        proc.terminate()
        proc.wait(30)
    assert "serving on http://0.0.0.0:" in first
    port = first.split("0.0.0.0:")[1].split("/")[0]
    url = second.split("open ")[1].split()[0]
    assert url.startswith("http://") and url.endswith(f":{port}/")
    assert all("\u2588" in line for line in qr)  # drawn in block characters


def test_the_public_url_is_the_one_every_qr_code_uses(app, client):
    with app.app_context():
        info = sessions.import_log(app.extensions["referee"]["db"], session_log(), pin="4321")
    app.config["PUBLIC_URL"] = "https://tonk.example/club/"
    sheet = client.get(f"/reports/{info.id}/house-rules.pdf?token={info.audit_token}")
    assert sheet.status_code == 200
    assert f"https://tonk.example/club/s/{info.id}" in pdf_text(sheet.data)


def test_without_a_public_url_the_request_address_is_used(app, client):
    with app.app_context():
        info = sessions.import_log(app.extensions["referee"]["db"], session_log(), pin="4321")
    sheet = client.get(f"/reports/{info.id}/house-rules.pdf?token={info.audit_token}",
                       base_url="http://10.0.0.7:8000")
    assert f"http://10.0.0.7:8000/s/{info.id}" in pdf_text(sheet.data)


