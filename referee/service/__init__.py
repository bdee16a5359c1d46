"""The live-table service: plain functions over the storage, no web framework.

One folder per context:

- ``table``: a session created, imported and read back (``sessions``), its
  hands (``hands``, the tablet's ``tap``), the table's own events
  (``table_events``: void, stake, leave, accept, dispute, payment, close,
  rename) and a dispute settled (``disputes``); the one write path
  (``writes``), the cached live state (``cache``, ``live_state``) and the
  live streams' bell (``changes``);
- ``money``: a hand's stored result (``results``), the running totals
  (``totals``), settling up (``pay``, ``payable``) and debts carried into a
  new table (``carrying``);
- ``club``: people across tables, the club's ledger and season;
- ``trust``: what ``referee verify`` checks beyond the hashes;
- ``access``: PINs, tokens and the host key (the package itself) and the
  seat and viewer links (``seats``);
- ``storage``: every SQL statement.

Beside them: the domain errors (``errors``), the kinds of event (``kinds``)
and work done in a second process (``beside``). Every function takes plain
arguments, returns plain data and raises the errors of ``errors``; each
interface (``referee.web``, ``referee.commands``) maps them to its own
statuses. docs/architecture.md draws the contexts.
"""
