"""Deeply nested JSON in a fleet body is bad JSON (400 `bad_json`), not a 500 with a traceback
(issue 13, item 6); nothing is placed and nothing is logged as a failure."""

from __future__ import annotations

import logging

import pytest

from tests.ui.conftest_handheld import api_client, make_service, new_game


@pytest.mark.parametrize(
    "body",
    [
        "[" * 4000 + "]" * 4000,
        '{"ships": ' + "[" * 2000 + "]" * 2000 + "}",
        '{"a":' * 1000 + "1" + "}" * 1000,
    ],
)
async def test_deeply_nested_json_is_bad_json(tmp_path, caplog, body):
    service = make_service(tmp_path)
    new_game(service)
    async with api_client(service) as (client, api):
        with caplog.at_level(logging.ERROR):
            response = await client.post(
                f"/api/team/{api.tokens.teams[0]}/fleet",
                data=body.encode()[:4096],
                headers={"Content-Type": "application/json"},
            )
        assert response.status == 400
        assert (await response.json())["error"] == "bad_json"
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert service.match.state().placed == (False, False)
