"""waitress's loop, asking only the connections that may have changed.

On every turn of its loop (several a request) waitress builds its ``poll()``
set anew, asking every connection it holds whether it reads or writes
(``wasyncore.poll2``): two Python calls per connection per turn. Forty idle
connections (a phone's browser keeps its connections open between requests,
and a slow client sends its request a byte at a time) took the server's
processor time an action from 1.27 to 1.92 ms and the actions from 768 to 527
a second (``bench/load.py --slow 40``). Here a connection that only waits for
its next request (none queued, nothing to send, not closing) is *parked*: it
stays in a persistent epoll set for reading and is not asked again until it
has an event, or its descriptor is added to or taken from the map. Every
other connection (one being answered, the listening socket, the trigger) is
asked on every turn, as waitress does.

Why that is safe: only the loop's own thread moves a waiting connection out
of waiting: by reading what arrived (an event: asked again), or by marking it
to close at its timeout (waitress's maintenance, which expects the loop to
ask: every parked connection is asked again each ``SWEEP`` second). The
threads answering requests touch a connection only while it has a request,
and such a connection is never parked. The map
notes every descriptor added or removed (``Map``), by the loop or by a live
stream leaving or rejoining it (``web.streams``), so a closed descriptor
number that a new connection reuses is asked afresh.

What would break: a waitress whose channels change what they wait for from
another thread while idle, or that renames ``requests``, ``total_outbufs_len``,
``will_close`` or ``close_when_flushed`` (then no channel is parked and the
loop is waitress's own, in cost too). Used only where epoll exists (Linux);
elsewhere waitress's loop runs unchanged.
"""

from __future__ import annotations

import select
import threading
import time

from waitress import wasyncore

READ = select.POLLIN | select.POLLPRI
WRITE = select.POLLOUT
# waitress's maintenance (in the loop's thread, every ``cleanup_interval``)
# marks a connection idle past ``channel_timeout`` to close, and waits for the
# loop to ask it: parked connections are all asked again this often.
SWEEP = 1.0


class Map(dict):
    """waitress's socket map (descriptor -> channel), noting each descriptor
    added or removed since the loop last looked (``take_changes``)."""

    def __init__(self) -> None:
        super().__init__()
        self._changed: set[int] = set()
        self._lock = threading.Lock()

    def __setitem__(self, fd, channel) -> None:
        with self._lock:
            dict.__setitem__(self, fd, channel)
            self._changed.add(fd)

    def __delitem__(self, fd) -> None:
        with self._lock:
            dict.__delitem__(self, fd)
            self._changed.add(fd)

    def pop(self, fd, *default):
        with self._lock:
            self._changed.add(fd)
            return dict.pop(self, fd, *default)

    def take_changes(self) -> set[int]:
        with self._lock:
            changed, self._changed = self._changed, set()
        return changed


def _nothing_to_write(channel) -> bool:
    """Whether waitress's ``handle_write`` would do nothing on ``channel``
    though it says it is writable: a request's thread is answering on it and
    either holds its buffer (it sends what it wrote itself, at once) or what
    waits is less than ``send_bytes`` (sent with the rest). Asked to write
    then, the loop found the socket writable on every turn and spun, up to
    50,000 turns a second under load, taking the interpreter from the very
    thread it waited for (waitress's own loop does the same, slowed only by
    asking every connection on every turn)."""
    try:
        if not channel.requests or channel.will_close or channel.close_when_flushed:
            return False
        if channel.total_outbufs_len < channel.adj.send_bytes:
            return True
        lock = channel.outbuf_lock  # a Condition: held by the thread while it writes
    except AttributeError:  # not a channel as this knows them: asked as waitress asks
        return False
    if lock.acquire(blocking=False):
        lock.release()
        return False
    return True


def _waiting(channel) -> bool:
    """Whether ``channel`` only waits for its next request."""
    return not (getattr(channel, "requests", True) or getattr(channel, "total_outbufs_len", 1)
                or getattr(channel, "will_close", True)
                or getattr(channel, "close_when_flushed", True))


class Poller:
    """One loop's epoll set: what each descriptor is registered for, and the
    parked channels (registered for reading, not asked)."""

    def __init__(self) -> None:
        self.epoll = select.epoll()
        self.flags: dict[int, int] = {}
        self.parked: dict[int, object] = {}
        self.swept = time.monotonic()

    def forget(self, fd: int) -> None:
        self.parked.pop(fd, None)
        if self.flags.pop(fd, None) is not None:
            try:
                self.epoll.unregister(fd)
            except (OSError, ValueError):
                pass  # closed already: epoll forgot it by itself

    def register(self, fd: int, flags: int) -> None:
        had = self.flags.get(fd)
        if had == flags:
            return
        try:
            if not flags:
                self.forget(fd)
            elif had is None:
                self.epoll.register(fd, flags)
                self.flags[fd] = flags
            else:
                self.epoll.modify(fd, flags)
                self.flags[fd] = flags
        except OSError:
            self.forget(fd)  # a descriptor closed under us: the map will say so

    def turn(self, timeout: float, map: Map) -> None:
        """One turn of the loop, as ``wasyncore.poll2``."""
        for fd in map.take_changes():
            self.forget(fd)
        parked = self.parked
        if time.monotonic() - self.swept >= SWEEP:
            self.swept = time.monotonic()
            parked.clear()
        for fd in map.keys() - parked.keys():
            channel = map.get(fd)
            if channel is None:
                continue
            flags = 0
            if channel.readable():
                flags |= READ
            if channel.writable() and not channel.accepting \
                    and not _nothing_to_write(channel):
                flags |= WRITE
            self.register(fd, flags)
            if flags == READ and _waiting(channel):
                parked[fd] = channel
        try:
            events = self.epoll.poll(timeout)
        except InterruptedError:
            return
        for fd, flags in events:
            channel = map.get(fd)
            if channel is None:
                continue
            parked.pop(fd, None)  # asked again on the next turn
            wasyncore.readwrite(channel, flags)


class _Asyncore:
    """What a waitress server calls its ``asyncore``: waitress's own module,
    but a loop that turns the ``Poller``."""

    def __init__(self) -> None:
        self.poller = Poller()

    def __getattr__(self, name):
        return getattr(wasyncore, name)

    def loop(self, timeout=30.0, use_poll=False, map=None, count=None) -> None:
        while map:
            self.poller.turn(timeout, map)


def can_park() -> bool:
    return hasattr(select, "epoll")


def install(server) -> bool:
    """Make ``server`` (made by ``waitress.create_server`` with a ``Map``) run
    its loop with the ``Poller``; False (waitress's own loop) where epoll is
    missing or the map is not a ``Map``."""
    socket_map = getattr(server, "_map", None) or getattr(server, "map", None)
    if not can_park() or not isinstance(socket_map, Map):
        return False
    server.asyncore = _Asyncore()
    return True
