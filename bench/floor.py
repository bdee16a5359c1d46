"""``referee serve`` with the benchmark's floor added (bench/load.py starts it).

The floor: ``POST /api/_bench/<sid>/insert`` does what an action does minus
the referee: the same token check, the same durable, hash-chained event
insert (into a table shaped like ``events``) through the same
group-committing writer, on the same server. It lives here, not in
``referee``, so that no user's request can reach it.

    .venv/bin/python bench/floor.py --db PATH_OR_URL --port PORT [--threads 8]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from flask import Blueprint, request  # noqa: E402

from referee.commands.service import run_server  # noqa: E402
from referee.service import storage  # noqa: E402
from referee.web import create_app  # noqa: E402
from referee.web.api import token_required  # noqa: E402
from referee.web.db import get_db  # noqa: E402

bp = Blueprint("bench", __name__, url_prefix="/api/_bench")


@bp.post("/<sid>/insert")
@token_required(write=True)
def insert(sid: str):
    body = request.get_json(silent=True) or {}
    ev = storage.run_write(get_db(), lambda w: storage.events.append(
        w, sid, None, "bench", body, body.get("client_id"), table="bench_events"))
    return {"seq": ev["seq"]}, 201


def create_bench_table(path: str) -> None:
    """A table shaped and indexed like ``events``, for the floor's insert."""
    db = storage.connect(path)
    with storage.write(db):
        if storage.is_pg(db):
            db.conn.execute("CREATE TABLE IF NOT EXISTS bench_events "
                            "(LIKE events INCLUDING DEFAULTS INCLUDING INDEXES)")
        elif not db["bench_events"].exists():
            for (sql,) in db.conn.execute(
                    "SELECT sql FROM sqlite_master WHERE tbl_name = 'events' AND sql IS NOT "
                    "NULL AND type IN ('table', 'index') ORDER BY type DESC").fetchall():
                db.conn.execute(sql.replace("events", "bench_events"))
    db.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()
    create_bench_table(args.db)
    app = create_app({"DATABASE": args.db})
    app.register_blueprint(bp)
    return run_server(app, args.host, args.port, args.threads, args.db)


if __name__ == "__main__":
    sys.exit(main())
