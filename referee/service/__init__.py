"""The live-table service: plain functions over the storage, no web framework.

``sessions`` (create, import, read back), ``hands`` (start, act, undo,
read) and ``table_events`` (void, stake, leave, accept, dispute, payment,
close, rename: the kinds in ``kinds``) take plain arguments, return plain
data and raise the domain errors of ``errors``; ``access`` checks PINs and
tokens; ``cache`` holds each session's live state and lock; ``storage``
holds every SQL statement. Each interface (``referee.web``,
``referee.commands``) maps the errors to its own statuses.
"""
