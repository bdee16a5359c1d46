"""One Flask app per test module, a fresh database per test.

Building the app (routes compiled, database migrated, a committing thread
started) cost about 80 ms a test, 10 s over the API tests alone. The app is
built once per module; each test gets its own database, copied from one
migrated at the start of the run, and the app's settings as they were.

These apps write without the group committer (each request commits its own
transaction, the same jobs): the committer is tested in test_storage and by
the crash and load runs against a real server, and one committer per test's
database would leave two idle threads behind each test.
"""

from __future__ import annotations

import shutil

import pytest

from referee.service import cache, storage
from referee.web import create_app
from referee.web.db import Handles

TEST_CONFIG = {"TESTING": True, "SECRET_KEY": "test", "REFEREE_HOST_KEY": None,
               "GROUP_COMMIT": False}


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
def app(module_app, migrated_db, tmp_path):
    path = tmp_path / "t.sqlite3"
    shutil.copy(migrated_db, path)
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
