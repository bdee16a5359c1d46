"""One writer for every live stream this process serves through waitress.

A stream (``web.live``) holds a waitress thread while it is open; if each of
those threads woke on every change of its table, built the same message and
wrote it, a table with six devices would cost six wake-ups, six encodings and
six writes per change, all under one interpreter lock beside the threads
answering the tablets. Here one thread does it: a table's bell (``changes``)
tells it which tables changed; at most every ``GAP`` seconds it builds each
change's bytes once and hands them to every stream of that table (waitress's
``write_soon``: a socket send from this thread). The stream's own thread
sleeps, waking every few seconds to check its link and its connection, send
a heartbeat, and when this writer finds it behind what memory holds (a
reconnect from long ago, a write by another process) to catch it up from the
database. While it is written here, the stream's connection is out of
waitress's loop, which otherwise asks every connection it holds on each turn
(see ``Stream.leave_loop``; docs/decisions.md has the figures).

waitress says nothing of this in its API: the channel is found through the
``waitress.client_disconnected`` callable it puts in every request's environ
(a method of the channel), and the chunked framing it uses for an HTTP/1.1
answer without a length is written here the same way. Served by anything else
(the tests' threaded server), a stream writes from its own thread
(``web.live``); ``tests/test_phones.py`` runs the stream's tests on both.
"""

from __future__ import annotations

import json
import threading
import time

from ..record.kinds import EventKind
from ..service.table import changes

# At most one round of writes every GAP seconds: at a table's pace (an action
# every few seconds) a change goes out at once; at a busy service the changes
# of the last GAP go out together, one send per stream.
GAP = 0.1
# Bytes waiting for a device that does not read: past this its stream ends
# (it reconnects with Last-Event-ID and gets what it missed from the database).
BACKLOG = 1 << 20


def message(row: tuple) -> str:
    """One change as a Server-Sent Event: ``id:`` its number, ``data:`` its
    summary (the same for every device, so built once a change)."""
    seq, kind, hand, head, prev = row
    data = json.dumps({"seq": seq, "kind": kind, "hand": hand, "head": head, "prev": prev},
                      separators=(",", ":"))
    return f"id: {seq}\nevent: change\ndata: {data}\n\n"


def waitress_channel(environ: dict):
    """The waitress channel (connection) a request came by, or None when not
    served by waitress (or by one that no longer says it this way)."""
    hook = environ.get("waitress.client_disconnected")
    channel = getattr(hook, "__self__", None)
    if all(hasattr(channel, name) for name in _USED):
        return channel
    return None


# What of a waitress channel is used here: a waitress without one of these is
# served as any other server is.
_USED = ("write_soon", "total_outbufs_len", "connected", "will_close", "outbuf_lock",
         "server", "socket", "_flush_exception", "_flush_some")


class Stream:
    """One open stream written by the writer: its table, its connection and
    the number of the last event it was sent (``last``). ``lock`` orders the
    writer's writes and the stream thread's own (catch-up, heartbeat)."""

    __slots__ = ("sid", "channel", "chunked", "last", "lock", "wake", "behind", "ended",
                 "sent", "out", "look")

    def __init__(self, sid: str, channel, chunked: bool, last: int) -> None:
        self.sid, self.channel, self.chunked, self.last = sid, channel, chunked, last
        self.lock = threading.Lock()
        self.wake = threading.Event()  # the stream's thread: it is behind, or ended
        self.behind = False
        self.ended = False
        self.sent = time.monotonic()
        self.out = False  # out of waitress's loop (``leave_loop``)
        # A link was issued or revoked: its thread looks at its own at once,
        # not at its next look (a revoked seat's stream went on for 4 s).
        self.look = False

    def send(self, data: bytes) -> bool:
        """Write ``data`` (the caller holds ``lock``); False, and the stream
        ended, when the device is gone or reads too slowly."""
        channel = self.channel
        if self.ended:
            return False
        if not channel.connected or channel.will_close or channel.total_outbufs_len > BACKLOG:
            self.end()
            return False
        if self.chunked:  # as waitress frames an HTTP/1.1 answer without a length
            data = b"%X\r\n%b\r\n" % (len(data), data)
        try:
            channel.write_soon(data)
        except Exception:  # ClientDisconnected, a socket error: the device is gone
            self.end()
            return False
        if channel.will_close:  # a send failed: waitress marks it, and raises nothing
            self.end()
            return False
        self.sent = time.monotonic()
        return True

    def end(self) -> None:
        self.ended = True
        self.wake.set()

    # waitress's loop builds its poll() set anew on each turn from every
    # connection it holds, asking each whether it reads or writes: 120 open
    # streams made each turn (several a request) ask 120 more. A stream's
    # connection has nothing for that loop to do while this writer writes it,
    # so it leaves the loop's map and comes back only to be closed.

    def leave_loop(self) -> bool:
        """Take the connection out of waitress's loop (the caller is the
        stream's thread, after the answer's head went out)."""
        channel = self.channel
        fd, owner = getattr(channel, "_fileno", None), getattr(channel, "_map", None)
        if fd is None or owner is None or owner.get(fd) is not channel \
                or channel.total_outbufs_len:
            return False
        del owner[fd]
        return True

    def rejoin_loop(self) -> None:
        """Give the connection back to waitress's loop, which finishes the
        answer and closes it."""
        if not self.out:
            return
        self.out = False
        channel = self.channel
        fd, owner = getattr(channel, "_fileno", None), getattr(channel, "_map", None)
        if fd is not None and owner is not None:
            owner[fd] = channel
            channel.server.pull_trigger()

    def flush(self) -> None:
        """Send what a full socket left waiting (out of the loop, nobody else
        would before the next write)."""
        channel = self.channel
        if self.out and channel.total_outbufs_len:
            with channel.outbuf_lock:
                channel._flush_exception(channel._flush_some, do_close=False)

    def gone(self) -> bool:
        """The device closed the connection (out of the loop, nobody reads it)."""
        import socket

        if not self.out:
            return False
        try:
            return self.channel.socket.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
        except BlockingIOError:
            return False
        except (OSError, AttributeError, ValueError):
            return True


class Writer:
    """The thread that writes every table's changes to its streams."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.streams: dict[str, list[Stream]] = {}
        self.dirty: set[str] = set()
        self.thread: threading.Thread | None = None

    def add(self, stream: Stream) -> None:
        with self.cond:
            self.streams.setdefault(stream.sid, []).append(stream)
            if self.thread is None:
                changes.on_ring(self.rung)
                self.thread = threading.Thread(target=self._run, name="referee-streams",
                                               daemon=True)
                self.thread.start()
            self.dirty.add(stream.sid)  # a change between its first write and now
            self.cond.notify()

    def remove(self, stream: Stream) -> None:
        with stream.lock:  # the writer is not inside its send, and will not be again
            stream.ended = True
        with self.cond:
            mine = self.streams.get(stream.sid, [])
            if stream in mine:
                mine.remove(stream)
            if not mine:
                self.streams.pop(stream.sid, None)

    def rung(self, sid: str) -> None:
        """A table's bell rang (on the thread that committed): note it, and wake
        the writer."""
        with self.cond:
            if sid in self.streams:
                self.dirty.add(sid)
                self.cond.notify()

    def _run(self) -> None:
        wrote = 0.0
        while True:
            with self.cond:
                while not self.dirty:
                    self.cond.wait()
            wait = GAP - (time.monotonic() - wrote)
            if wait > 0:
                time.sleep(wait)
            with self.cond:
                dirty, self.dirty = self.dirty, set()
                todo = [list(self.streams.get(sid, ())) for sid in dirty]
            wrote = time.monotonic()
            for streams in todo:
                try:
                    self._write(streams)
                except Exception:  # never let one table's fault stop every stream
                    for stream in streams:
                        stream.end()

    @staticmethod
    def _write(streams: list[Stream]) -> None:
        """Send each stream of one table what it has not had, each message
        built once however many streams send it."""
        # a stream's last -> (bytes, new last, whether a link changed)
        made: dict[int, tuple[bytes, int, bool]] = {}
        for stream in streams:
            with stream.lock:
                if stream.ended or stream.behind:
                    continue
                out = made.get(stream.last)
                if out is None:
                    rows = changes.since(stream.sid, stream.last)
                    if rows is None:  # not all in memory: its thread asks the database
                        stream.behind = True
                        stream.wake.set()
                        continue
                    text = "".join(message(row) for row in rows).encode()
                    out = made[stream.last] = (text, rows[-1][0] if rows else stream.last,
                                               any(row[1] in _LINKS for row in rows))
                if out[0] and stream.send(out[0]):
                    stream.last = out[1]
                    if out[2]:
                        stream.look = True
                        stream.wake.set()


_LINKS = {str(EventKind.LINK), str(EventKind.UNLINK)}

writer = Writer()
