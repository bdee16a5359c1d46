"""An open table whose debts were carried on to a later one (newcomer 44,
P6), said one way: its page and new-hand forms show it (``went_on``, the
tablet's note with "Go to" and "Close the table"), and the API's answer to a
new hand there carries it as a ``warning`` (``warning``): the same sentence
(``reports.words.WENT_ON``) and code. A hand may still be logged there."""

from __future__ import annotations

from ..reports.sections import TableRef
from ..reports.words import WENT_ON, time_text
from ..service.database import Database
from ..service.table import carrying
from .lang import _, current, table_title

#: The code of the note and of the API's warning.
CARRIED_ON = "carried_on"


def went_on(db: Database, sid: str) -> dict | None:
    """Where table ``sid``'s debts went, while it is open: the later table
    (``table``, a ``TableRef``; ``id``), when (``at``), the sentence and its
    code. None: nothing carried on, or closed."""
    found = carrying.went_on(db, sid)
    if found is None:
        return None
    newest, row, started = found
    ref = TableRef.of(row) if row else TableRef(newest["to"], name=newest.get("table"),
                                                opened=newest.get("at"))
    return {"table": ref, "id": newest["to"], "at": newest.get("at"), "sentence": WENT_ON,
            "code": CARRIED_ON, "started": started}


def warning(db: Database, sid: str) -> dict | None:
    """The API's word of it: the code, the sentence the tablet shows (in the
    reader's language, the time in the table's zone), the later table's id
    (the tablet's "Go to") and when the debts went."""
    on = went_on(db, sid)
    if on is None:
        return None
    return {"code": CARRIED_ON, "table": on["id"], "at": on["at"],
            "message": _(WENT_ON, table=table_title(on["table"]),
                         when=time_text(on["at"], current(), on["started"]) or "")}
