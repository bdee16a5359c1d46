"""The server's loop (``commands.poller``): a connection that only waits for its
next request is parked, not asked on every turn, and still closed at its
idle timeout; requests are answered as before."""

import http.client
import socket
import threading
import time

import pytest

from referee.commands import poller

pytestmark = pytest.mark.skipif(not poller.can_park(), reason="no epoll here")


def _app(environ, start_response):
    body = b"hello " + environ["PATH_INFO"].encode()
    start_response("200 OK", [("Content-Type", "text/plain"),
                              ("Content-Length", str(len(body)))])
    return [body]


@pytest.fixture
def server():
    from waitress import create_server

    srv = create_server(_app, map=poller.Map(), host="127.0.0.1", port=0, threads=4,
                        channel_timeout=2, cleanup_interval=1, asyncore_use_poll=True)
    assert poller.install(srv)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    yield srv
    srv.close()
    thread.join(5)


def _get(port: int, path: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", path)
    answer = conn.getresponse()
    body = answer.read()
    conn.close()
    return answer.status, body


def _answer(s: socket.socket) -> bytes:
    """One answer's bytes, read until its body (head and body may come apart)."""
    data = b""
    while b"hello" not in data:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def _closed_by_server(s: socket.socket, within: float) -> bool:
    s.settimeout(within)
    try:
        while True:
            data = s.recv(65536)
            if not data:
                return True
    except TimeoutError:
        return False
    except OSError:
        return True


def test_waiting_connections_are_parked_answered_and_closed_at_their_timeout(server):
    port = server.effective_port
    keep = []
    for i in range(30):  # kept alive after an answer, as a phone's browser keeps them
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(f"GET /idle{i} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        assert b"hello /idle" in _answer(s)
        keep.append(s)
    for _ in range(30):  # half-sent: a request's head a byte at a time
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(b"GET /slow HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        keep.append(s)
    parked = server.asyncore.poller.parked
    deadline = time.monotonic() + 30  # the loop parks them on its next turns
    while len(parked) < 60 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(parked) >= 60, len(parked)
    # A parked connection that speaks again is answered.
    keep[0].sendall(b"GET /again HTTP/1.1\r\nHost: x\r\n\r\n")
    assert b"hello /again" in _answer(keep[0])
    assert _get(port, "/plain") == (200, b"hello /plain")
    # waitress's maintenance closes each of them at its idle timeout (2 s
    # here): a parked connection is asked again each SWEEP second.
    assert all(_closed_by_server(s, 2 + 1 + poller.SWEEP + 3) for s in keep)
    for s in keep:
        s.close()
    assert _get(port, "/after") == (200, b"hello /after")


@pytest.mark.filterwarnings("ignore:send_bytes")  # waitress deprecates it; here it holds bytes back
def test_the_loop_does_not_spin_while_a_thread_answers():
    """A connection whose answer its thread is writing is not asked to write
    by the loop. Asked, the loop found the socket writable on every turn and
    spun (up to 50,000 turns a second under load). Here an answer's first
    bytes wait in waitress's buffer (below its ``send_bytes``) while the
    thread takes half a second for the rest; the loop's turns are counted."""
    from waitress import create_server

    def slow(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/plain")])
        yield b"x" * 100
        time.sleep(0.5)
        yield b"y" * 100

    srv = create_server(slow, map=poller.Map(), host="127.0.0.1", port=0, threads=2,
                        send_bytes=65536, asyncore_use_poll=True)
    assert poller.install(srv)
    turns = [0]
    real = srv.asyncore.poller.turn

    def counted(timeout, socket_map):
        turns[0] += 1
        return real(timeout, socket_map)

    srv.asyncore.poller.turn = counted
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    try:
        answers = []
        slow_one = threading.Thread(target=lambda: answers.append(_get(srv.effective_port, "/")))
        slow_one.start()
        time.sleep(0.15)
        # Another request wakes the loop while the first answer's bytes wait:
        # from then on a loop that asks that connection to write spins.
        assert _get(srv.effective_port, "/quick")[0] == 200
        slow_one.join(5)
        assert answers == [(200, b"x" * 100 + b"y" * 100)]
        assert turns[0] < 100, turns[0]
    finally:
        srv.close()
        thread.join(5)
