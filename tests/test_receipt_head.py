"""Newcomer 45's P1: a receipt's head that ``referee verify --head`` does not
find. A head in no chain of the file cannot tell a typo from a rewrite, so
the answer says what is known (not here: check its digits and the table);
a head another session holds is said to be that session's; only a head the
file itself still names (a later event's link to it, the anchor of its end)
is said to be gone. Every answer is "not verified" (exit 1), and a head
check is not a session of the count."""

from __future__ import annotations

import re

import pytest

from referee import language
from referee.commands.service import checked_sentence
from referee.service import storage

from .test_trust import head_of, played, raw, verify

LANGS = ["en", "de", "fr", "pt"]


def _typo(head: str) -> str:
    """One hex digit of ``head`` changed, as a tired host copies a paper."""
    return head[:15] + ("c" if head[15] != "c" else "d") + head[16:]


def _said(capsys) -> str:
    return capsys.readouterr().out


def _count(lang: str, n: int) -> str:
    return checked_sentence(lang, n, 0)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("shortened", [False, True])
def test_a_mistyped_head_is_not_found_and_not_called_a_rewrite(app, client, capsys, lang,
                                                              shortened):
    first, second = played(client, hands=1), played(client, hands=1)
    typed = _typo(head_of(client, first))[:16 if shortened else 64]
    _said(capsys)
    assert verify(app, "--head", typed, "--lang", lang) == 1
    out = _said(capsys)
    assert language.gettext(lang, "no session here has the head {head}: check its digits and "
                            "the table it came from", head=typed) in out
    # two sessions stored, two checked, none with a fault; no session "*"
    assert _count(lang, 2) in out, out
    assert "*" not in out
    assert language.gettext(lang, "the database no longer holds the head {head}: events were "
                            "removed or rewritten since it was taken", head=typed) not in out
    assert second.sid != first.sid


@pytest.mark.parametrize("lang", LANGS)
def test_another_tables_head_is_said_to_be_that_tables(app, client, capsys, lang):
    first, second = played(client, hands=1), played(client, hands=1)
    head = head_of(client, first)
    _said(capsys)
    assert verify(app, "--session", second.sid, "--head", head, "--lang", lang) == 1
    out = _said(capsys)
    assert language.gettext(lang, "the head {head} is session {other}'s, not this one's: "
                            "check the table it came from", head=head, other=first.sid) in out
    assert _count(lang, 1) in out, out
    # the same head, shortened as a paper prints it, is found there too
    assert verify(app, "--session", second.sid, "--head", head[:16], "--lang", lang) == 1
    assert f" {head} " in _said(capsys)


@pytest.mark.parametrize("lang", LANGS)
def test_a_head_the_file_still_names_is_said_to_be_gone(app, client, capsys, lang):
    """The newest event deleted: the anchor of the database's end still
    holds its hash, so the receipt's head was here and is gone."""
    g = played(client)
    head = head_of(client, g)
    raw(app).execute("DELETE FROM events WHERE id = (SELECT max(id) FROM events)")
    _said(capsys)
    for where in ([], ["--session", g.sid]):
        assert verify(app, *where, "--head", head, "--lang", lang) == 1
        assert language.gettext(lang, "the head {head} was in this database and is gone: events "
                                "were removed or rewritten since it was taken", head=head) \
            in _said(capsys)


def test_a_head_the_next_session_links_to_is_said_to_be_gone(app, client, capsys):
    """A session deleted whole: the next session's first event still links to
    its last event's hash."""
    first = played(client, hands=1)
    head = head_of(client, first)
    played(client, hands=1)
    conn = raw(app)
    for table in ("events", "seats", "hands", "replies", "sessions"):
        conn.execute(f"DELETE FROM {table} WHERE {'id' if table == 'sessions' else 'session_id'}"
                     " = ?", [first.sid])
    _said(capsys)
    assert verify(app, "--head", head) == 1
    out = _said(capsys)
    assert f"the head {head} was in this database and is gone" in out
    # one session left, and it is the one with the fault (its broken link)
    assert "1 session checked, 1 with a fault" in out


def test_a_found_head_still_answers_held_and_the_count_is_the_sessions(app, client, capsys):
    g = played(client)
    head = head_of(client, g)
    _said(capsys)
    assert verify(app, "--head", head) == 0
    out = _said(capsys)
    assert f"the database still holds the head {head}" in out
    assert "1 session checked, 0 with a fault" in out
    db = storage.connect(app.config["DATABASE"])
    assert re.search(r"database head [0-9a-f]{64}", out) and storage.chain.holds_hash(db, head)
