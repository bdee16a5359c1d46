"""The OpenAPI document is the service: a client generated from it
(openapi-python-client) drives a whole session, and every request it sends
and every answer it gets is checked against the document (openapi-core).
A field the document leaves out, a body it describes wrongly or an answer it
gives no schema for fails here, as it would fail anyone's generated client."""

from __future__ import annotations

import importlib
import json
import sys

import httpx
import pytest
from openapi_core import OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest, WerkzeugOpenAPIResponse
from openapi_python_client import generate
from openapi_python_client.config import Config, ConfigFile, MetaType
from werkzeug.test import EnvironBuilder
from werkzeug.wrappers import Request, Response

from referee.devtools.loadgen import SimTable
from referee.web import create_app

from .conftest import TEST_CONFIG

PACKAGE = "tonk_api_client"


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return create_app({**TEST_CONFIG,
                       "DATABASE": str(tmp_path_factory.mktemp("client") / "db.sqlite3")})


@pytest.fixture(scope="module")
def document(app) -> dict:
    return app.test_client().get("/api/openapi.json").get_json()


@pytest.fixture(scope="module")
def api(tmp_path_factory, document):
    """The client package generated from the served document, imported."""
    where = tmp_path_factory.mktemp("generated")
    (where / "openapi.json").write_text(json.dumps(document))
    config = Config.from_sources(
        ConfigFile(project_name_override=PACKAGE, package_name_override=PACKAGE,
                   post_hooks=[]),
        MetaType.NONE, where / "openapi.json", "utf-8", overwrite=True,
        output_path=where / PACKAGE)
    problems = generate(config=config)
    # Every operation and schema becomes code: a warning is a part of the
    # document a generated client cannot use.
    assert not problems, [f"{p.header}: {p.detail}" for p in problems]
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where))
        for name in [m for m in sys.modules if m.split(".")[0] == PACKAGE]:
            del sys.modules[name]


class Checked:
    """Every exchange of the generated client, held to the document."""

    def __init__(self, document: dict) -> None:
        self.openapi = OpenAPI.from_dict(document)
        self.seen: list[tuple[str, str, int]] = []

    def __call__(self, response: httpx.Response) -> None:
        response.read()
        sent = response.request
        environ = EnvironBuilder(
            method=sent.method, base_url="http://referee.test", path=sent.url.path,
            query_string=sent.url.query.decode(), headers=list(sent.headers.items()),
            data=sent.content).get_environ()
        request = WerkzeugOpenAPIRequest(Request(environ))
        self.openapi.validate_request(request)
        self.openapi.validate_response(request, WerkzeugOpenAPIResponse(Response(
            response.content, response.status_code, list(response.headers.items()))))
        self.seen.append((sent.method, sent.url.path, response.status_code))


def _client(api, app, check: Checked, token: str | None = None):
    args = {"transport": httpx.WSGITransport(app=app),
            "event_hooks": {"response": [check]}}
    if token is None:
        return api.Client(base_url="http://referee.test", httpx_args=args,
                          raise_on_unexpected_status=True)
    return api.AuthenticatedClient(base_url="http://referee.test", token=token,
                                   httpx_args=args, raise_on_unexpected_status=True)


def _call(module, **kwargs):
    """The operation's answer, parsed: the document gives it a schema."""
    response = module.sync_detailed(**kwargs)
    assert 200 <= response.status_code < 300, response.content
    assert response.parsed is not None, module.__name__
    return response.parsed


def test_a_generated_client_drives_a_whole_session(api, app, document):
    ops = importlib.import_module(f"{PACKAGE}.api.default")
    models = importlib.import_module(f"{PACKAGE}.models")

    def op(name):
        return importlib.import_module(f"{ops.__name__}.{name}")

    check = Checked(document)
    sim = SimTable(7)
    # A stake with a trailing zero, as people write money: taken and kept.
    header = {**sim.header(), "stake": "0.50", "currency": "EUR"}
    created = _call(op("post_api_sessions"), client=_client(api, app, check),
                    body=models.Log.from_dict(header))
    sid = created.id
    table = _client(api, app, check, created.table_token)

    # Two hands played action by action, the first with side bets.
    for k in range(2):
        setup = sim.next_setup()
        if k == 0:
            setup["side_bets"] = [{"kind": "suit_high", "suit": "h", "stake": "0.50",
                                   "players": sim.players},
                                  {"kind": "first_spread", "stake": "1",
                                   "players": sim.players[:2]}]
        state = _call(op("post_api_sessions_sid_hands"), sid=sid, client=table,
                      body=models.HandSetup.from_dict(setup))
        n, seq = state.hand, 0
        while not sim.hand.is_complete:
            text = sim.next_action()
            state = _call(op("post_api_sessions_sid_hands_n_actions"), sid=sid, n=n,
                          client=table, body=models.ActionRequest(
                              action=text, client_id=f"h{n}-{seq}", expected_seq=seq))
            sim.accepted(text)
            seq += 1
        assert state.complete and state.result.outcome
        state = _call(op("get_api_sessions_sid_hands_n"), sid=sid, n=n, client=table)
        assert state.result.story
    # A hand told by its ending (one request, settled at once).
    told = _call(op("post_api_sessions_sid_hands"), sid=sid, client=table,
                 body=models.HandSetup.from_dict({
                     "dealer": sim.table.expected_dealer(sim.players),
                     "ending": {"how": "drop", "by": "Ben",
                                "counts": {"Ann": 20, "Ben": 9, "Cy": 30}}}))
    assert told.complete and told.result.told

    # The table's own events.
    n = told.hand
    _call(op("post_api_sessions_sid_hands_n_accept"), sid=sid, n=n, client=table,
          body=models.AcceptRequest(player="Ann", client_id="acc"))
    _call(op("post_api_sessions_sid_hands_n_disputes"), sid=sid, n=n, client=table,
          body=models.DisputeRequest(by="Cy", note="I had 29", client_id="dis"))
    _call(op("post_api_sessions_sid_stake"), sid=sid, client=table,
          body=models.StakeRequest(stake="0.50", client_id="stk"))
    link = _call(op("post_api_sessions_sid_links"), sid=sid, client=table,
                 body=models.LinkRequest(role=models.LinkRequestRole.SEAT, player="Ben",
                                         client_id="lnk"))
    assert link.token

    # What the table reads back.
    summary = _call(op("get_api_sessions_sid"), sid=sid, client=table)
    assert summary.id == sid and summary.stake == "0.50"
    result = _call(op("get_api_sessions_sid_result"), sid=sid, client=table)
    assert len(result.hands) == 3 and result.hands[-1].told
    standings = _call(op("get_api_sessions_sid_standings"), sid=sid, client=table, limit=2)
    assert len(standings.hands) == 2 and standings.settled == 3
    log = _call(op("get_api_sessions_sid_log"), sid=sid, client=table)
    assert len(log.hands) == 3
    owed = _call(op("get_api_sessions_sid_settlement"), sid=sid, client=table).owed
    assert owed
    first = owed[0]
    _call(op("post_api_sessions_sid_paid"), sid=sid, client=table,
          body=models.PaidRequest.from_dict({"from": first.from_, "to": first.to,
                                             "amount": first.amount}))
    _call(op("post_api_sessions_sid_close"), sid=sid, client=table,
          body=models.CloseRequest(client_id="end"))
    closed = _call(op("get_api_sessions_sid"), sid=sid, client=table)
    assert closed.closed
    assert len(check.seen) > 20


def test_the_standings_limit_is_the_documented_one(app, document):
    """What the document says the standings take is what they take: past the
    maximum is refused, not quietly cut."""
    limit = next(p for p in document["paths"]["/api/sessions/{sid}/standings"]["get"]
                 ["parameters"] if p["name"] == "limit")["schema"]
    client = app.test_client()
    made = client.post("/api/sessions", json=SimTable(1).header()).get_json()
    auth = {"Authorization": f"Bearer {made['table_token']}"}
    url = f"/api/sessions/{made['id']}/standings"
    assert client.get(f"{url}?limit={limit['maximum']}", headers=auth).status_code == 200
    refused = client.get(f"{url}?limit={limit['maximum'] + 1}", headers=auth)
    assert refused.status_code == 400 and refused.get_json()["error"]["code"] == "bad_request"


def test_the_hand_setup_documents_only_what_it_takes(document):
    """The table's own events have requests of their own: a hand's setup
    refuses them, so its document does not offer them."""
    from referee.record.events import HAND_FIELDS

    offered = set(document["components"]["schemas"]["HandSetup"]["properties"])
    assert offered.isdisjoint(HAND_FIELDS) and "actions" not in offered
    assert {"dealer", "deal", "upcard", "ending", "expected_seq", "client_id"} <= offered




def test_the_hand_requests_own_fields_are_read_as_documented(app):
    """A key or a sequence number of the wrong type is a 400 naming it, never
    a failure of the database (a list as client_id was a 500)."""
    client = app.test_client()
    made = client.post("/api/sessions", json=SimTable(2).header()).get_json()
    auth = {"Authorization": f"Bearer {made['table_token']}"}
    url = f"/api/sessions/{made['id']}/hands"
    for field, value in [("client_id", [None, None]), ("client_id", ""),
                         ("expected_seq", "two")]:
        refused = client.post(url, json={"dealer": "Ann", field: value}, headers=auth)
        assert refused.status_code == 400, refused.get_json()
        assert refused.get_json()["error"]["message"].startswith(field)
    assert client.get(f"/api/sessions/{made['id']}", headers=auth).get_json()["hands"] == 0
