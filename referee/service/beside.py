"""Work done in a second process while this one goes on: a long session's
verify hashes its chain there, a long import replays and settles its hands
there while this process encodes the actions it will write.

The host has two cores and Python one lock, so a thread would not help.
Where this process runs no other thread (a command: ``referee import``,
``verify``), the second process is forked: it starts with everything this
process has read (nothing is sent to it), computes, and answers. A server's
process runs threads (requests, streams, the committer) and must not fork:
a child forked from a request's thread held every socket of the server and
its epoll set while it ran, and 60-73% of other people's requests were
closed unanswered (issue 34). There the second process comes from a
fork server (``multiprocessing``'s ``forkserver``: a process of its own,
started by exec with no descriptor of the server's, the referee's modules
imported once; ``prepare()`` starts it at serve time, before the threads),
and the job and its arguments are sent to it pickled. Either way the child
never touches a database handle, a lock or a file of its parent's, and
leaves with ``os._exit``, so none of the parent's clean-up (atexit,
buffered output, connections) runs twice.

A child answers as it goes (``stream``): it writes each item to a spool
file and only its length to a pipe: a pipe holds 64 KB, and a child that
had to wait for its parent to read a megabyte would stop computing until
the parent was free, which is the waiting this module is for.
"""

from __future__ import annotations

import collections
import multiprocessing
import os
import pickle
import signal
import struct
import tempfile
import threading
from collections.abc import Callable, Iterable
from contextlib import closing, suppress
from multiprocessing import reduction
from typing import Any

_LENGTH = struct.Struct("<q")
_END, _CRASH = -1, -2  # lengths that are not an item's

# What the fork server imports once, so that each job's process starts with
# the code its job runs (an import's replay, verify's chain walk).
PRELOAD = ["referee.service.table.sessions", "referee.service.trust"]


class SecondProcessFailed(RuntimeError):
    """The second process crashed (or sent no answer): a fault of ours, not
    of the input, which the caller works out in this process instead, or
    reports."""


def can_fork() -> bool:
    """Whether a second process can be had here (and a second core to run it)."""
    return hasattr(os, "fork") and (os.cpu_count() or 1) >= 2


_server: multiprocessing.context.BaseContext | None = None
_server_lock = threading.Lock()


def _fork_server():
    global _server
    with _server_lock:
        if _server is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(PRELOAD)
            _server = context
        return _server


def prepare() -> None:
    """Start the fork server now (``referee serve``, before its threads), so
    that the first long import does not wait for it. Nothing where no second
    process can be had."""
    if can_fork():
        with suppress(OSError, ValueError):
            from multiprocessing import forkserver

            _fork_server()
            forkserver.ensure_running()


def stream(function: Callable[..., Iterable[Any]], *args: Any) -> Stream:
    """Start ``function(*args)`` in a second process now; iterate over the
    items it yields, each as soon as it is yielded (pickled), in order.
    Raises ``SecondProcessFailed`` where the job crashed. ``close()`` (after
    the last item, or instead of reading on) ends the child. Where no second
    process can be had (no room for the spool, no descriptors, no memory,
    arguments that cannot be sent), raises ``SecondProcessFailed`` before
    anything started. ``function`` and ``args`` must pickle (a module's
    function): a process running threads sends them to the fork server."""
    made: list = []
    try:
        spool = tempfile.TemporaryFile()
        made.append(spool.close)
        read, write = os.pipe()
        made += [lambda: os.close(read), lambda: os.close(write)]
        if threading.active_count() == 1:
            pid, stop = _forked(function, args, write, spool)
        else:
            pid, stop = _served(function, args, write, spool)
    except Exception as err:  # noqa: BLE001 - any of them: no second process, all here
        for undo in made:
            undo()
        raise SecondProcessFailed(f"no second process: {err!r}") from None
    os.close(write)
    return Stream(pid, stop, read, spool)


def _forked(function, args, write: int, spool) -> tuple[int, Callable[[], None]]:
    """The job in a child forked from this process (which runs no other
    thread); its pid and the function that ends it."""
    pid = os.fork()
    if pid == 0:  # the child: answers through the spool, and never returns
        _answer(function, args, write, spool)

    def stop() -> None:
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    return pid, stop


def _served(function, args, write: int, spool) -> tuple[int, Callable[[], None]]:
    """The job in a child of the fork server, handed the pipe's end and the
    spool; its pid and the function that ends it."""
    process = _fork_server().Process(
        target=_run, args=(function, args, _Passed(write), _Passed(spool.fileno())),
        name="referee-beside")
    process.start()

    def stop() -> None:
        with suppress(ProcessLookupError, OSError):
            process.kill()
        process.join()
        process.close()
    return process.pid, stop


class _Passed:
    """A descriptor of this process handed to the fork server's child as it
    starts (``multiprocessing`` passes it over its socket)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def __reduce__(self):
        return _received, (reduction.DupFd(self.fd),)


def _received(passed) -> int:
    return passed.detach()


def _run(function, args, write: int, spool_fd: int) -> None:
    """The fork server's child: the job, answered through the spool."""
    _answer(function, args, write, os.fdopen(spool_fd, "wb"))


def _answer(function, args, write: int, spool) -> None:
    """Run the job, write each item to the spool and its length to the
    pipe, and leave at once (never returns)."""
    try:
        try:
            for item in function(*args):
                data = pickle.dumps(item, protocol=pickle.HIGHEST_PROTOCOL)
                spool.write(data)
                spool.flush()
                os.write(write, _LENGTH.pack(len(data)))
            os.write(write, _LENGTH.pack(_END))
        except BaseException as err:  # reported by the parent, never lost
            data = repr(err).encode()
            spool.write(data)
            spool.flush()
            os.write(write, _LENGTH.pack(_CRASH) + _LENGTH.pack(len(data)))
    finally:
        os._exit(0)


class Stream:
    """The items a second process yields, read as they come (or once the
    whole answer is in: ``wait``)."""

    def __init__(self, pid: int, stop: Callable[[], None], read: int, spool) -> None:
        self.pid, self.stop, self.spool = pid, stop, spool
        self.pipe = os.fdopen(read, "rb")
        self.offset = 0
        self.done = False
        self.ahead: collections.deque[int] = collections.deque()  # lengths read by wait()

    def __iter__(self) -> Stream:
        return self

    def __next__(self) -> Any:
        if self.done:
            raise StopIteration
        length = self.ahead.popleft() if self.ahead else self._length()
        if length == _END:
            self.close()
            raise StopIteration
        if length == _CRASH:
            self._failed()
        return pickle.loads(self._read(length))

    def wait(self) -> Any:
        """Wait for the child's whole answer, and return its last item (None:
        it yielded nothing). The items stay in the spool, unread, until they
        are iterated over (from the first not yet read): whoever must know
        how a job ended before starting on its items (an import's replay
        fault, before it takes the write lock) holds no more of them in
        memory meanwhile. Raises ``SecondProcessFailed`` where it crashed.
        Called once, before the items are read."""
        offset, last = self.offset, None
        while not self.ahead or self.ahead[-1] != _END:
            length = self._length()
            if length == _CRASH:
                self.offset = offset
                self._failed()
            self.ahead.append(length)
            if length != _END:
                last, offset = (offset, length), offset + length
        return None if last is None else pickle.loads(self._pread(*last))

    def _failed(self) -> None:
        said = self._length()
        why = "no answer" if said < 0 else self._read(said).decode(errors="replace")
        self.close()
        raise SecondProcessFailed(f"the second process failed: {why}")

    def _length(self) -> int:
        head = self.pipe.read(_LENGTH.size)
        return _LENGTH.unpack(head)[0] if len(head) == _LENGTH.size else _CRASH

    def _read(self, length: int) -> bytes:
        data = self._pread(self.offset, length)
        self.offset += length
        return data

    def _pread(self, offset: int, length: int) -> bytes:
        return os.pread(self.spool.fileno(), length, offset)

    def close(self) -> None:
        """End the child (done, failed, or no longer wanted) and wait for it
        (no zombie)."""
        if self.done:
            return
        self.done = True
        self.stop()
        self.pipe.close()
        self.spool.close()


def start(function: Callable[..., Any], *args: Any) -> Callable[[], Any]:
    """Start ``function(*args)`` in a second process now (as ``stream``); the
    function returned waits for its answer (its return value, pickled), or
    raises ``SecondProcessFailed``. The answer is waited for exactly once."""
    items = stream(_once, function, *args)

    def wait() -> Any:
        with closing(items):
            for answer in items:
                return answer
        raise SecondProcessFailed("the second process sent no answer")
    return wait


def _once(function: Callable[..., Any], *args: Any) -> Iterable[Any]:
    yield function(*args)
