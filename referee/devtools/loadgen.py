"""Simulated tablets for the crash test and ``bench/load.py``.

A tablet keeps its own copy of the hand (the rules engine) and a real
shuffled deck, so every action it posts is legal and every drawn card is
named, as a dealer at a real table would log it.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

from ..ledger.results import hand_standing
from ..rules.hand import Hand
from ..rules.options import resolve
from ..rules.table import Table
from .simulate import Dealer

PLAYERS = ("Ann", "Ben", "Cy")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: Path, port: int, *extra: str, stdout=subprocess.DEVNULL,
                 command: tuple[str, ...] = ("-m", "referee", "serve")) -> subprocess.Popen:
    """``referee serve`` (or ``python COMMAND``) on ``db`` in a process of its
    own, once it accepts connections (the crash test kills it; the load bench
    measures bench/floor.py's)."""
    proc = subprocess.Popen(
        [sys.executable, *command, "--db", str(db), "--port", str(port),
         *extra], stdout=stdout, stderr=subprocess.STDOUT if stdout is not None else None,
        env={**os.environ, "REFEREE_HOST_KEY": ""})
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("the server did not start")


def answering(proc: subprocess.Popen, port: int, seconds: float) -> subprocess.Popen:
    """``proc``, once the server it started answers a whole request on
    ``port`` (the benches beside imports: a port can accept before the app
    answers); killed if it does not within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            c.request("GET", "/api/openapi.json")
            c.getresponse().read()
            c.close()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


class SimTable:
    """One table's cards and choices; knows nothing about HTTP."""

    def __init__(self, seed: int, rules: str = "pagat", players=PLAYERS) -> None:
        self.rules_source = rules
        self.rules = resolve(rules)
        self.players = list(players)
        self.rng = random.Random(seed)
        self.table = Table(self.rules, self.players, settle=hand_standing)
        self.chooser = Dealer(self.rules, self.players, self.rng)
        self.hand: Hand | None = None
        self.stock: list[str] = []

    def header(self) -> dict:
        return {"format": "tonk-log/1", "table": "simulated", "currency": "USD",
                "stake": "0.25", "rules": self.rules_source, "players": self.players}

    def next_setup(self) -> dict:
        deck = sorted(self.rules.deck_info.cards)
        self.rng.shuffle(deck)
        dealer = self.table.expected_dealer(self.players) or self.players[0]
        size = self.rules.hand_size
        deal = {p: [deck.pop() for _ in range(size)] for p in self.players}
        setup: dict = {"dealer": dealer, "deal": deal}
        if self.rules.upcard:
            setup["upcard"] = deck.pop()
        if self.table.hands:
            del self.table.hands[:-1]  # a long session keeps only what the next deal needs
        self.hand = self.table.start_hand(dealer, deal=deal, upcard=setup.get("upcard"))
        self.stock = deck
        return setup

    def next_action(self) -> str:
        """A legal action; the local hand is not changed until ``accepted``."""
        stock = list(self.stock)
        action = self.chooser.choose(self.hand, stock)
        return str(action)

    def accepted(self, text: str) -> None:
        action = self.hand.apply(text)
        if action.verb == "draw" and action.cards and action.cards[0] in self.stock:
            self.stock.remove(action.cards[0])


class Client:
    """A keep-alive HTTP client for one tablet."""

    def __init__(self, host: str, port: int, timeout: float = 30.0) -> None:
        self.host, self.port, self.timeout = host, port, timeout
        self.conn: http.client.HTTPConnection | None = None
        self.token: str | None = None

    def request(self, method: str, path: str, body: object = None,
                headers: dict | None = None) -> tuple[int, dict]:
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        h = {"Content-Type": "application/json"}
        if self.token:
            h["Authorization"] = f"Bearer {self.token}"
        h.update(headers or {})
        data = None if body is None else json.dumps(body)
        try:
            self.conn.request(method, path, body=data, headers=h)
            response = self.conn.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException):
            self.close()
            raise
        return response.status, json.loads(raw) if raw else {}

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


class Balanced(Client):
    """A client that sends each request to the next of several servers in
    turn, as a load balancer in front of app servers may: every request of a
    tablet lands on another process than its last one."""

    def __init__(self, host: str, ports: list[int], timeout: float = 30.0) -> None:
        self.clients = [Client(host, port, timeout) for port in ports]
        self.turn = 0
        self.token: str | None = None

    def request(self, method: str, path: str, body: object = None,
                headers: dict | None = None) -> tuple[int, dict]:
        client = self.clients[self.turn % len(self.clients)]
        self.turn += 1
        client.token = self.token
        return client.request(method, path, body, headers)

    def close(self) -> None:
        for client in self.clients:
            client.close()


class Burst:
    """Tablets posting actions, each in a thread of its own, until stopped: the
    writers beside a crash, a kill or a verify. A tablet stops at its first
    error (a refusal, a server killed under it), which is kept in ``errors``;
    what it had acknowledged till then is in its ``acked``."""

    def __init__(self, tablets: list[Tablet]) -> None:
        self.tablets = tablets
        self.errors: list[Exception] = []
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._play, args=(t,)) for t in tablets]

    def _play(self, tablet: Tablet) -> None:
        while not self._stop.is_set():
            try:
                tablet.step()
            except Exception as err:
                self.errors.append(err)
                return

    def acked(self) -> int:
        return sum(len(t.acked) for t in self.tablets)

    def start(self) -> Burst:
        for th in self._threads:
            th.start()
        return self

    def stop(self, wait: float = 10.0) -> None:
        self._stop.set()
        for th in self._threads:
            if th.ident is not None:  # started
                th.join(wait)


class Tablet:
    """A simulated tablet playing one session against a server."""

    def __init__(self, client: Client, seed: int) -> None:
        self.client = client
        self.sim = SimTable(seed)
        self.sid: str | None = None
        self.n = 0
        self.seq = 0
        self.acked: list[tuple[int, int, str]] = []  # (hand, seq after, action) answered 201
        self.script: list[tuple[str, object]] = []  # prepared requests, see ``prepare``

    def prepare(self, count: int) -> None:
        """Choose the next ``count`` actions (and the hands they need) now, so
        that ``step`` only posts them: a benchmark's clock then times the
        server, not this tablet's own rules engine."""
        self.script.reverse()
        for _ in range(count):
            if self.sim.hand is None or self.sim.hand.is_complete:
                self.script.append(("hand", self.sim.next_setup()))
            text = self.sim.next_action()
            self.sim.accepted(text)
            self.script.append(("action", text))
        self.script.reverse()  # popped from the end

    def open(self, host_key: str | None = None) -> None:
        headers = {"X-Host-Key": host_key} if host_key else None
        status, body = self.client.request("POST", "/api/sessions", self.sim.header(), headers)
        if status != 201:
            raise RuntimeError(f"create session: {status} {body}")
        self.sid = body["id"]
        self.client.token = body["table_token"]

    def _start(self, setup: dict) -> None:
        status, body = self.client.request("POST", f"/api/sessions/{self.sid}/hands", setup)
        if status != 201:
            raise RuntimeError(f"start hand: {status} {body}")
        self.n, self.seq = body["hand"], 0

    def step(self) -> tuple[int, float]:
        """Post one legal action (starting a hand when needed): (status, seconds).
        Prepared actions go first; without any, the action is chosen now."""
        prepared = bool(self.script)
        if prepared:
            kind, item = self.script.pop()
            if kind == "hand":
                self._start(item)
                kind, item = self.script.pop()
            text = item
        else:
            if self.sim.hand is None or self.sim.hand.is_complete:
                self._start(self.sim.next_setup())
            text = self.sim.next_action()
        payload = {"action": text, "client_id": uuid.uuid4().hex, "expected_seq": self.seq}
        t0 = time.perf_counter()
        status, body = self.client.request(
            "POST", f"/api/sessions/{self.sid}/hands/{self.n}/actions", payload)
        elapsed = time.perf_counter() - t0
        if status == 201:
            if not prepared:
                self.sim.accepted(text)
            self.seq += 1
            self.acked.append((self.n, self.seq, text))
        else:
            raise RuntimeError(f"{text}: {status} {body}")
        return status, elapsed

    def bench_insert(self) -> tuple[int, float]:
        payload = {"action": "Ann: draw", "client_id": uuid.uuid4().hex, "expected_seq": 0}
        t0 = time.perf_counter()
        status, _ = self.client.request("POST", f"/api/_bench/{self.sid}/insert", payload)
        return status, time.perf_counter() - t0
