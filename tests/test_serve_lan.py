"""``serve --lan`` with a loopback ``--host`` (issue 35, item 15): the phones
would be shown a LAN address the server does not answer on; it is refused
before anything listens, saying why."""

from __future__ import annotations

import pytest

from referee.cli import main


@pytest.mark.parametrize("host", ["127.0.0.1", "::1", "localhost", "127.0.1.1"])
def test_lan_with_a_loopback_host_is_refused_saying_why(tmp_path, capsys, host):
    db = tmp_path / "referee.sqlite3"
    assert main(["serve", "--lan", "--host", host, "--db", str(db), "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert f"--host {host} answers this machine alone" in err
