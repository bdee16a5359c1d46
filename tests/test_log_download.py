"""The night's log taken away from the tablet (newcomer46 F4): the host's
manage and reports pages link to the file ``referee export --chain`` writes;
a seat's phone and the viewer link get no link and a 403."""

from __future__ import annotations

import html
import re
from urllib.parse import unquote

from referee.cli import main as cli_main
from referee.service.table import sessions
from referee.web.db import get_db
from tests.test_api import Game, bearer
from tests.test_phones import _host, _joined, _link
from tests.test_tablet import create


def _href(page: str) -> str:
    m = re.search(r'id="download-log" href="([^"]+)"', page)
    assert m, "no download link"
    return html.unescape(m.group(1))


def test_the_host_downloads_the_bytes_referee_export_writes(app, client, tmp_path, capsys):
    sid = create(client, table="Zoë's table: 2")  # the tablet that opened it, with its PIN
    for page in (f"/s/{sid}/manage", f"/reports/{sid}/"):
        said = client.get(page).get_data(as_text=True)
        assert "referee verify" in html.unescape(said), page
        href = _href(said)
    r = client.get(href)
    assert r.status_code == 200 and r.mimetype == "application/json"
    with app.app_context():
        started = sessions.session_summary(get_db(), sid)["started"]
    name = f"Zoë's table- 2-{started[:10]}.tonk-log.json"
    disposition = r.headers["Content-Disposition"]
    assert disposition.startswith('attachment; filename="Zoe')
    assert unquote(disposition.split("filename*=UTF-8''", 1)[1]) == name
    assert cli_main(["export", sid, "--db", app.config["DATABASE"], "--chain"]) == 0
    assert r.get_data(as_text=True) == capsys.readouterr().out
    log = tmp_path / name
    log.write_bytes(r.data)
    assert cli_main(["verify", str(log)]) == 0


def test_the_download_is_there_after_the_table_is_closed(client):
    sid = create(client)
    r = client.get(f"/s/{sid}/manage")
    form = re.search(r'name="csrf_token" value="([^"]+)"', r.get_data(as_text=True)).group(1)
    client.post(f"/s/{sid}/manage/close", data={"csrf_token": form, "sure": "1", "client_id": "c1"})
    page = client.get(f"/s/{sid}/manage").get_data(as_text=True)
    assert 'id="closed"' in page
    assert client.get(_href(page)).status_code == 200


def test_a_phone_and_the_viewer_get_no_link_and_a_403(app, client):
    g = Game(client)
    g.start()
    g.play(1)
    url = f"/reports/{g.sid}/log"
    assert _href(_host(app, g).get(f"/reports/{g.sid}/").get_data(as_text=True)) == url
    for role, player in (("seat", "Ann"), ("viewer", None)):
        link = _link(g, role, player)
        phone = _joined(app, link)
        page = phone.get(f"/reports/{g.sid}/").get_data(as_text=True)
        assert 'id="download-log"' not in page, role
        assert phone.get(url).status_code == 403, role
        assert client.get(f"{url}?token={link['token']}").status_code == 403, role
    # The audit token reads the log over the API; it reads the file too.
    r = client.get(f"{url}?token={g.audit}")
    assert r.status_code == 200
    assert r.get_json()["players"] == client.get(g.url("/log"),
                                                 headers=bearer(g.audit)).get_json()["players"]


def test_the_unlock_page_of_a_command_line_copy_names_no_door_it_did_not_use(app, client,
                                                                             capsys):
    """A table with no PIN was imported or opened over the API or on the
    command line; the session's row does not record which (newcomer46 F4b:
    a copy made by ``referee import --copy`` was said "imported over the API")."""
    db = app.config["DATABASE"]
    assert cli_main(["import", "sample_logs/pagat_basic.json", "--db", db]) == 0
    assert cli_main(["import", "sample_logs/pagat_basic.json", "--db", db, "--copy"]) == 0
    sid = capsys.readouterr().out.split()[-1]
    for lang, api in (("en", "through the API"), ("de", "über die API importiert")):
        page = html.unescape(client.get(f"/s/{sid}/unlock?lang={lang}").get_data(as_text=True))
        assert api not in page, lang
        assert "referee import" in page, lang
        assert lang == "en" or "Tischkennung" in page
