"""One Flask app per test module, a fresh database per test.

Building the app (routes compiled, database migrated, a committing thread
started) cost about 80 ms a test, 10 s over the API tests alone. The app is
built once per module; each test gets its own database, copied from one
migrated at the start of the run, and the app's settings as they were.

Both backends: a module that tests both (storage, API, races, locks, the
SIGKILL run) overrides ``backend`` with ``BOTH_BACKENDS``; every other test
runs on SQLite. PostgreSQL's tests use the server in
REFEREE_TEST_DATABASE_URL (``./test.sh`` starts a throwaway cluster and sets
it), each test in a schema of its own; without a server they are skipped,
saying why.

These apps write without the group committer (each request commits its own
transaction, the same jobs): the committer is tested in test_storage and by
the crash and load runs against a real server, and one committer per test's
database would leave two idle threads behind each test.
"""

from __future__ import annotations

import os
import shutil
import uuid
from urllib.parse import quote

import pytest

from referee.service import storage
from referee.service.storage import pg
from referee.service.table import cache
from referee.web import create_app
from referee.web.db import Handles

# OPENINGS None: every test opens its tables from 127.0.0.1, some hundreds in
# one database (every sample log); the limit's own tests set it.
TEST_CONFIG = {"TESTING": True, "SECRET_KEY": "test", "REFEREE_HOST_KEY": None,
               "GROUP_COMMIT": False, "OPENINGS": None}


PG_URL_ENV = "REFEREE_TEST_DATABASE_URL"
BOTH_BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture
def backend() -> str:
    """The database the test runs on (a module may ask for both: BOTH_BACKENDS).
    REFEREE_TEST_BACKEND=postgresql runs every other test's app on PostgreSQL too."""
    return os.environ.get("REFEREE_TEST_BACKEND", "sqlite")


@pytest.fixture(scope="session")
def pg_server() -> str:
    """The test server's URL, or the test skipped with the reason."""
    url = os.environ.get(PG_URL_ENV)
    if not url:
        pytest.skip(f"PostgreSQL: no server ({PG_URL_ENV} is unset; ./test.sh starts one)")
    try:
        storage.connect(url)
    except Exception as err:
        pytest.skip(f"PostgreSQL: the server at {pg.safe_url(url)} cannot be reached ({err})")
    return url


def new_pg_schema(server: str) -> str:
    """A URL on an empty schema of its own on the test server."""
    name = f"t_{uuid.uuid4().hex[:12]}"
    storage.connect(server).execute(f"CREATE SCHEMA {name}")
    sep = "&" if "?" in server else "?"
    return f"{server}{sep}options={quote(f'-c search_path={name}')}"


@pytest.fixture
def database(request, backend, tmp_path):
    """A new, migrated database for the test: a file, or a PostgreSQL schema's URL."""
    if backend == "sqlite":
        path = tmp_path / "t.sqlite3"
        shutil.copy(request.getfixturevalue("migrated_db"), path)
        yield str(path)
        return
    url = new_pg_schema(request.getfixturevalue("pg_server"))
    storage.connect(url)
    yield url
    cache.forget()
    storage.forget_group_commit(url)
    pg.close_pool(url)


@pytest.fixture(scope="session")
def migrated_db(tmp_path_factory):
    path = tmp_path_factory.mktemp("template") / "migrated.sqlite3"
    storage.connect(str(path)).close()
    return path


@pytest.fixture(scope="module")
def module_app(tmp_path_factory, migrated_db):
    path = tmp_path_factory.mktemp("module-db") / "first.sqlite3"
    shutil.copy(migrated_db, path)
    return create_app({"DATABASE": str(path), **TEST_CONFIG})


@pytest.fixture
def app(module_app, database):
    path = database
    saved = dict(module_app.config)
    module_app.config["DATABASE"] = str(path)
    module_app.extensions["referee"] = Handles(str(path))
    cache.forget()
    yield module_app
    module_app.config.clear()
    module_app.config.update(saved)
    cache.forget()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def club_app(app):
    """The app with a host key: the club's pages and API open to ``club-key``
    (``tests.test_club.KEY``)."""
    app.config["REFEREE_HOST_KEY"] = "club-key"
    return app


@pytest.fixture
def copied(club_app):
    """One night stored, then imported again on purpose as a copy (the club's
    ledger then counts it twice: ``twice``)."""
    from tests.test_club import KEY, _log

    client = club_app.test_client()
    doc = _log(0, closed="2026-11-02T23:30:00Z")
    night = client.post("/api/sessions", json=doc, headers=KEY)
    assert night.status_code == 201
    assert client.post("/api/sessions", json=doc, headers=KEY).status_code == 409
    copy = client.post("/api/sessions", json={**doc, "copy": True}, headers=KEY)
    assert copy.status_code == 201
    twice = client.get("/api/club/ledger", headers=KEY).get_json()
    return {"client": client, "night": night.get_json(), "copy": copy.get_json(),
            "twice": twice}
