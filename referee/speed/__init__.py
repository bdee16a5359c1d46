"""The referee's speed tricks, fenced: each lives in a named module that says
what it buys (measured; the history is in docs/decisions.md) and what would
break if it were changed carelessly. Code written for speed rather than
plainly is one of these:

- **The cyclic collector paused for long work** (``speed/collector.py``:
  an import, verify, a request body's decoding, ``referee replay``). Buys a
  quarter of a 10,000-hand import's CPU, 40% of a replay's. Would break: the
  pause is counted across threads, so a pause that is not the last must not
  resume collection; code that makes reference cycles inside a pause keeps
  them until it ends.
- **The collector set for serving** (``speed/collector.settle_for_serving``,
  called by ``referee serve``): start-up's objects frozen, the youngest
  generation collected every 10,000 allocations instead of 700. Buys the
  server's collections: 470 ms of GC in a 16-second load run became 60,
  and the longest pause from about 40 ms to under 30 (issue 27's p99).
  Would break: an object made at start-up and later dropped stays in
  memory (frozen objects are never collected if they form cycles).
- **The server's loop** (``commands/poller.py``, ``referee serve`` on
  Linux): waitress's loop, but a connection that only waits for its next
  request is parked in an epoll set instead of being asked on every turn,
  and a connection whose answer its thread is writing is not asked to
  write. Buys: 40 idle or half-sent connections cost 1.92 ms of processor
  an action instead of 1.23 (527 actions/s instead of 807); and the loop
  no longer spins on a writable socket while a thread answers. Would break:
  it reads waitress's channels' attributes (``requests``, ``total_outbufs_len``,
  ``will_close``, ``close_when_flushed``); without epoll, waitress's own loop.
- **Leaving at once** (``speed/exit.py``: ``referee replay`` and ``referee
  settle``, which closes the database it read first; the forked
  children leave with ``os._exit`` too). Buys 60 ms at the end of a
  10,000-hand replay, and the log it read is held until then (``keep``),
  not freed object by object when the command returns: 35-40 ms more. Would
  break: nothing registered to run at exit runs; the collector stays off
  in such a process; ``keep`` holds only in a process that leaves at once
  (``cli.run``), never in a caller that goes on (tested).
- **A long replay on two cores** (``replay/two_cores.py``: a forked second
  process, segments, pickled answers), for ``referee replay --json`` of
  2,000 hands or more: what holds it at 10,000+ hands/s as a whole process.
  The command forks before the log is read and checked, and the second
  process replays the document as it is meanwhile; segments shorten towards
  the end. Would break: its answer must stay the sequential replay's text,
  first error included (tested with 1, 2, 3 and 32 segments); the second
  process's work counts only for a log read plainly (``record.read_log``),
  the very document it replayed, and it is stopped and waited for otherwise.
- **A command's own parser** (``cli._parse``): ``referee replay`` and
  ``referee rules`` build only their own part of the command line; help and
  anything that part cannot read go to the whole parser. Buys a one-hand
  replay 5% of its instructions (318 M -> 303 M), 7-11% of its CPU time.
  Would break: a top-level option, or a subcommand whose parser depends on
  its siblings, must be read by both (tested word for word).
- **A second process beside a long import or verify** (``service/beside.py``:
  fork where no other thread runs, else a fork server started before the
  server's threads; a spool file, pickle). Buys an import at about 6,000 hands/s where
  it ran 3,100, verify at 1.3-1.4x its floor. Would break: the child must
  never touch its parent's connections, locks or files, nor be forked from
  a process running threads (a server's child held its sockets and epoll
  set: issue 34); without ``fork`` or
  a second core the work runs in one process (tested).
- **A plain log read without marshmallow** (``record/reading.py``): a
  replay never imports marshmallow. Would break: it is a second statement
  of the log's shape, held to the schema by ``tests/test_log_fast_path.py``
  (every sample log through both); a log it cannot read plainly goes to
  the schema.
- **JSON written by the C encoder, made once** (``record/result_text.py``):
  ``indent=2`` fell back on the pure-Python encoder, which took longer than
  the replay. Would break: the text must stay what ``json`` writes (tested
  with quotes, backslashes, non-ASCII).
- **Verify's actions in force in one pass** (``service/trust._live_actions``):
  the rule is ``record.chain.in_force`` (an action stands until a
  correction cancels it by its event id); verify walks its 140,000 rows
  once, decoding each distinct action text once, instead of grouping the
  events by hand and decoding every payload (``json.loads`` on 40,000
  small texts was a twentieth of verify's longer process). Would break: a
  change of the rule must be made here too; ``tests/test_trust.py``
  (``test_verify_s_actions_in_force_are_the_rule_s``) holds the two to the
  same answer over an undo, a correction and a renamed player.
- **Canonical event bodies written directly** (``record/chain.py``:
  ``event_hash_v2``, ``event_hashes_v2``): import and verify hash 143,000
  events without building and sorting a dict each. Would break: the bytes
  hashed must stay ``canonical``'s (tested equal to ``event_hash``).
- **orjson for the JSON columns and request bodies**
  (``service/storage/rows.to_json``, ``record.parse_json``): a tenth of
  ``json.dumps``' 0.5-0.7 s for an import's 40,000 columns. Would break:
  what orjson refuses (an integer past 64 bits, a lone surrogate) falls
  back on ``json``; verify compares the stored text with ``to_json`` again.
- **Bounded caches** (``replay.parse_logged``, ``ledger.money.written``):
  a replay 1.4x as fast. Would break: the cached values must stay immutable
  (``Action`` is frozen; text).

- **Confusable names looked up a character at a time**
  (``rules/table._prototype``): two names are compared by their skeletons
  (Unicode's confusables.txt), and only the characters the names hold are
  looked up, each by its line in the file's bytes, instead of reading the
  whole table into a dict. Buys the 45 ms every process that opens a table
  paid (a replay's included): ``referee replay --json`` of a one-hand log
  447 M instructions -> 325 M (-27%). Would break: it reads the file's line
  format (``XXXX ;\tYYYY ZZZZ ;\t...``); tested line by line against the
  whole file read by a regular expression.

- **A page's language asked once a request, its amounts written once each**
  (``web/lang.current``: kept in ``g.reader_lang``; ``web/lang._money_text``,
  ``_number_text``: bounded caches keyed by the value's text, the currency
  and the language; the page's ``_`` reads ``language.translations``, the
  same catalogs Flask-Babel loads). Flask-Babel answered each of a table
  page's 75 sentences by a dozen look-ups of the request's context, and babel
  wrote each of its 36 amounts afresh. Would break: whatever changes the
  page's language within a request must forget ``g.reader_lang``, as
  ``use_table_language`` does.
- **A page's sentences and files looked up once** (``web/lang._page_words``:
  a bounded cache of each sentence's translation, as Markup, by language;
  ``web/tablet/blueprint._asset_url``: each static file's address by the
  prefix the app is served under). A table's page says some eighty
  sentences and names eight files, the same ones on every reading: with
  ``current`` read without asking for the request first, the 10-hand table
  page's CPU a request 0.93x (median of 4 rounds; best 0.97x) at load 12.
  Would break: a catalog changed while the process runs is not read again
  (it never was: ``language.translations`` is cached too); an address that
  depends on more than the prefix (a host-specific URL) must be in the key.
- **The offline queue's words rendered once a language**
  (``web/lang.offline_words``: ``templates/_offline_words.html``, kept by
  the app by language). Every page carries the same sixty sentences for
  ``static/offline.js``; saying them on every request was a tenth of the
  10-hand table page's CPU (3.04 -> 2.77 ms a request, median of 300).
  Would break: the words must depend on nothing but the language (no
  token, no table: the page's CSRF token stays on the element, outside
  them); tested in every language in turn on one app.

The engine's own shortcuts (``referee/rules``): each makes the statement of
Tonk less plain where a replay spends its time, and each is a trap for the
next rule that touches it.

- **A discard's turn passing written out** (``rules/hand.Hand._apply_discard``:
  ``_take_from_hand`` and ``_pass_turn`` inlined). Most actions are
  discards; the two calls cost a replay 2%. Would break: a rule that
  changes how a card leaves a hand or how the turn passes must change
  ``_apply_discard`` too, not only the two methods it copies.
- **The turn-end gate** (``rules/options.HouseRules.checks_turn_end``): a
  discard asks ``_verify_turn_end`` only when an option makes ending a turn
  need checking (``take_must_meld``, ``must_spread``). Would break: a new
  option checked at a turn's end must turn the gate on, or its check never
  runs (``tests/test_engine_shortcuts.py`` finds the options
  ``_verify_turn_end`` reads and holds each to it).
- **The counts a dealt hand can win with** (``HouseRules.deal_win_counts``):
  a dealt hand whose count no deal-win claim can have is not looked at
  further (most hands), for the declared wins and the undeclared-claim
  check. Would break: a new kind of deal-win claim must say which counts
  it can hold at (or return None: any count).
- **A tap judged on a copy of the live hand**
  (``service/table/action._copy_hand``), when it may only be previewed (a
  tablet's first tap); any other action is judged on the live hand
  itself (the copy cost an API action 8% of its CPU). Its containers
  copied, what cannot change shared; a 100-action hand in 0.15 ms against
  ``copy.deepcopy``'s 0.25 and a replay's 0.5. Would break: a new mutable
  attribute of ``Hand`` of a kind it does not know is deep-copied (safe,
  slower); one it wrongly takes for immutable would let a refused action
  change the cached hand.

Imports inside functions: a module imports inside a function to keep a
command's start-up from loading what that command does not use (a replay
never loads marshmallow, Flask, reportlab, psycopg or the papers; its
start-up is timed by ``bench/replay.py``), or where the import would make a
cycle.
"""
