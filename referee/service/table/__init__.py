"""The live table: a session created or imported and read back (``sessions``),
its hands started, undone and read (``hands``), a hand's action logged, from
the API or a tablet's tap (``action``), the table's own events
(``table_events``: void, stake, leave, accept, dispute, payment, close,
rename) and a dispute settled (``disputes``); the one write path
(``writes``), the cached live state (``cache``, ``live_state``) and the bell
the live streams wait on (``changes``)."""
