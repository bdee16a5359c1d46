"""The API against its own OpenAPI document (schemathesis, in-process over
WSGI): every operation, with the table's token so the authorised paths run,
never a 5xx, and every answer as the document describes it. Bounded: a few
hundred examples in all."""

from __future__ import annotations

import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from referee.web import create_app

from .conftest import TEST_CONFIG

_DB = Path(tempfile.mkdtemp(prefix="referee-contract-")) / "contract.sqlite3"
# A stream ends after its first event here (it would run for half an hour).
APP = create_app({**TEST_CONFIG, "DATABASE": str(_DB), "STREAM_LIFETIME": 0})
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", APP)

_client = APP.test_client()
_made = _client.post("/api/sessions", json={"stake": "0.25", "rules": "pagat",
                                             "players": ["Ann", "Ben", "Cy"]}).get_json()
SID, TOKEN = _made["id"], _made["table_token"]
_client.post(f"/api/sessions/{SID}/hands", json={"dealer": "Ann", "upcard": "7d"},
             headers={"Authorization": f"Bearer {TOKEN}"})

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]


@schema.parametrize()
@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_the_api_keeps_to_its_document(case):
    if case.path_parameters and "sid" in case.path_parameters:
        case.path_parameters["sid"] = SID  # the real table: its hands and writes run
    case.call_and_validate(headers={"Authorization": f"Bearer {TOKEN}"}, checks=CHECKS)


def test_the_docs_page_lists_every_path_of_the_document(client):
    """Issue 35: /api/docs was a 404; the README names both."""
    spec = client.get("/api/openapi.json").get_json()
    page = client.get("/api/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    text = page.get_data(as_text=True)
    assert 'href="openapi.json"' in text
    for path in spec["paths"]:
        assert f"<code>{path}</code>" in text, path
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    assert "`/api/docs`" in readme and "`/api/openapi.json`" in readme


def test_a_deal_in_the_document_takes_the_largest_hand_size(client):
    """Issue 35: the document said a deal has at most 7 cards where hand_size
    9 is allowed; its bound is the rules' own."""
    import json

    from referee.rules.options import OPTION_ALLOWED

    spec = json.dumps(client.get("/api/openapi.json").get_json())
    most = max(OPTION_ALLOWED["hand_size"].values)
    assert most == 9
    assert '"maxItems": 7,' not in spec and f'"maxItems": {most},' in spec


def test_creating_a_session_documents_the_carry_it_reads(client):
    """Issue 35 leftovers: POST /api/sessions read ``brought_forward_from``
    and ``brought_forward_token`` off its body while its document said the
    body is a log, which has neither. Each is documented as the schema that
    loads it has it, and a value of another type is refused by that schema."""
    spec = client.get("/api/openapi.json").get_json()
    body = spec["paths"]["/api/sessions"]["post"]["requestBody"]
    ref = body["content"]["application/json"]["schema"]["$ref"]
    props = spec["components"]["schemas"][ref.rsplit("/", 1)[1]]["properties"]
    log = spec["components"]["schemas"]["Log"]["properties"]
    assert set(props) - set(log) == {"brought_forward_from", "brought_forward_token", "copy"}
    table = {"format": "tonk-log/1", "stake": "0.25", "rules": "pagat",
             "players": ["Ann", "Ben"]}
    for field in ("brought_forward_from", "brought_forward_token"):
        assert props[field]["type"] == "string" and props[field]["nullable"]
        r = client.post("/api/sessions", json={**table, field: 5})
        assert r.status_code == 400, (field, r.get_json())
        assert r.get_json()["error"]["message"].startswith(f"{field}: "), r.get_json()
    # Read, not only documented: an earlier table is asked for its token.
    r = client.post("/api/sessions", json={**table, "brought_forward_from": "0" * 12,
                                           "brought_forward_token": "x"})
    assert r.status_code == 401 and "401" in spec["paths"]["/api/sessions"]["post"]["responses"]
