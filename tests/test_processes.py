"""Two app servers (``referee serve`` processes) on one database give the
answers one gives: tablets whose every request lands on the other process
than the last, a race for one sequence number across processes, and a
table's wrong-PIN limit and unlock, counted and honoured by both. On SQLite
and on PostgreSQL."""

from __future__ import annotations

import http.cookiejar
import re
import threading
import urllib.error
import urllib.parse
import urllib.request

import pytest

from referee.devtools.loadgen import Balanced, Client, SimTable, Tablet, free_port, start_server
from referee.service import storage, trust
from referee.service.table import cache

from .conftest import BOTH_BACKENDS

pytestmark = pytest.mark.slow


@pytest.fixture(params=BOTH_BACKENDS)
def backend(request):
    return request.param


@pytest.fixture
def two(database):
    """Two servers on the test's database: their ports."""
    ports = [free_port(), free_port()]
    servers = [start_server(database, port) for port in ports]
    yield ports
    for server in servers:
        server.kill()
        server.wait(10)


def test_every_request_on_the_other_process(two, database):
    """Each request of a tablet goes to the other server than its last: a
    cached hand that one process served stale would answer 409 or refuse."""
    tablets = [Tablet(Balanced("127.0.0.1", two), seed=k) for k in range(4)]
    for t in tablets:
        t.open()
    errors = []

    def play(t):
        try:
            for _ in range(40):
                t.step()
                # read back from the other process: the action just logged
                status, state = t.client.request(
                    "GET", f"/api/sessions/{t.sid}/hands/{t.n}")
                assert status == 200 and state["seq"] == t.seq, (status, state)
        except BaseException as err:
            errors.append(err)

    threads = [threading.Thread(target=play, args=(t,)) for t in tablets]
    for th in threads:
        th.start()
    for th in threads:
        th.join(120)
    assert not errors, errors[0]
    cache.forget()
    db = storage.connect(database)
    assert all(not faults for faults in trust.verify_all(db).values())


def test_one_winner_per_seq_across_processes(two, database):
    """Eight tablets, four on each server, race the same expected_seq, round
    after round: exactly one is logged each time."""
    sim = SimTable(7)
    opener = Client("127.0.0.1", two[0])
    status, made = opener.request("POST", "/api/sessions", sim.header())
    assert status == 201
    sid, token = made["id"], made["table_token"]
    opener.token = token
    status, _ = opener.request("POST", f"/api/sessions/{sid}/hands", sim.next_setup())
    assert status == 201
    clients = [Client("127.0.0.1", two[k % 2]) for k in range(8)]
    for c in clients:
        c.token = token
    for seq in range(6):
        text = sim.next_action()
        answers = []
        barrier = threading.Barrier(len(clients))

        def post(k, text=text, seq=seq, answers=answers, barrier=barrier):
            barrier.wait()
            status, _ = clients[k].request(
                "POST", f"/api/sessions/{sid}/hands/1/actions",
                {"action": text, "client_id": f"r{seq}-{k}", "expected_seq": seq})
            answers.append(status)

        threads = [threading.Thread(target=post, args=(k,)) for k in range(len(clients))]
        for th in threads:
            th.start()
        for th in threads:
            th.join(60)
        assert sorted(answers) == [201] + [409] * (len(clients) - 1), answers
        sim.accepted(text)
        for c in clients[:2]:  # both processes now say so
            status, state = c.request("GET", f"/api/sessions/{sid}/hands/1")
            assert status == 200 and state["seq"] == seq + 1
    cache.forget()
    assert storage.chain.verify_all(storage.connect(database))[sid] is None


class Browser:
    """A browser with its cookies, one jar for both servers (a cookie is not
    bound to a port), as one behind a proxy would have."""

    def __init__(self) -> None:
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
            NoRedirect())

    def get(self, url: str) -> tuple[int, str]:
        return self._open(urllib.request.Request(url))

    def post(self, url: str, form: dict) -> tuple[int, str]:
        data = urllib.parse.urlencode(form).encode()
        return self._open(urllib.request.Request(url, data=data, method="POST"))

    def csrf(self, url: str) -> str:
        status, page = self.get(url)
        m = re.search(r'name="csrf_token" value="([^"]+)"', page)
        assert m, (status, page[:300])
        return m.group(1)

    def _open(self, req) -> tuple[int, str]:
        try:
            with self.opener.open(req, timeout=30) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as err:
            return err.code, err.read().decode()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def test_pin_limit_and_unlock_are_shared(two):
    a, b = (f"http://127.0.0.1:{port}" for port in two)
    host = Browser()
    form = {"csrf_token": host.csrf(f"{a}/new"), "stake": "1", "currency": "USD",
            "preset": "pagat", "pin": "4321", "pin2": "4321", "table": "Two",
            "player1": "Ann", "player2": "Ben"}
    status, _ = host.post(f"{a}/new", form)
    assert status == 303
    sid = storage_sid(host, a)
    # unlocked on one server: the other opens the table's page too
    status, _ = host.get(f"{b}/s/{sid}")
    assert status == 200
    guest = Browser()
    status, _ = guest.get(f"{b}/s/{sid}")
    assert status in (302, 303)  # to the unlock page
    # wrong PINs, alternating servers: five free tries counted across both
    for k in range(5):
        server = (a, b)[k % 2]
        status, _ = guest.post(f"{server}/s/{sid}/unlock",
                               {"csrf_token": guest.csrf(f"{server}/s/{sid}/unlock"),
                                "pin": "0000"})
        assert status == 403
    status, page = guest.post(f"{b}/s/{sid}/unlock",
                              {"csrf_token": guest.csrf(f"{b}/s/{sid}/unlock"),
                               "pin": "4321"})
    assert status == 429 and "try again at" in page


def storage_sid(browser: Browser, base: str) -> str:
    status, page = browser.get(f"{base}/")
    found = re.findall(r'href="/s/([0-9a-f]+)"', page)
    assert found, page[:500]
    return found[0]
