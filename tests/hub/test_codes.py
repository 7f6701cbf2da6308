"""One error code, one meaning: every `code` the hub answers with has one HTTP status, and
docs/league.md lists each code once, with that status (the contract kiosks and scripts act on).
Read from the hub's source, so a new refusal cannot slip past; and one of each asked for real."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import aiohttp

from hub import admin

from .test_pages_language import _error

ROOT = Path(__file__).resolve().parents[2]


def _constant(node: ast.expr) -> object:
    return node.value if isinstance(node, ast.Constant) else None


def codes_in_source() -> dict[str, set[int]]:
    """code -> the statuses the hub's source answers it with."""
    found: dict[str, set[int]] = defaultdict(set)
    for path in sorted((ROOT / "hub").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.name == "AdminError":
                for item in node.body:  # its `code = "..."`: answered 400 by hub.web.errors
                    if isinstance(item, ast.Assign) and isinstance(_constant(item.value), str):
                        found[str(_constant(item.value))].add(400)
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in ("Refused", "problem") and len(node.args) >= 2:
                status, code = _constant(node.args[0]), _constant(node.args[1])
                if isinstance(status, int) and isinstance(code, str):
                    found[code].add(status)
            elif name == "NotFound":
                code = _constant(node.args[1]) if len(node.args) > 1 else "not_found"
                if isinstance(code, str):
                    found[code].add(404)
    return dict(found)


def codes_in_docs() -> dict[str, list[int]]:
    """code -> the statuses docs/league.md gives it, from its list of errors."""
    text = (ROOT / "docs" / "league.md").read_text(encoding="utf-8")
    start = text.index("`code` is a word")
    listing = text[start : text.index("A kiosk asks", start)]
    found: dict[str, list[int]] = defaultdict(list)
    waiting: list[str] = []
    for token in re.finditer(r"`([a-z_]+)`|\((\d{3})", listing):
        if token.group(1):
            waiting.append(token.group(1))
        else:
            for code in waiting:
                found[code].append(int(token.group(2)))
            waiting = []
    found.pop("error", None)
    found.pop("code", None)
    return dict(found)


def test_every_code_has_one_status_in_the_source_and_in_the_docs():
    source = codes_in_source()
    twice = {code: statuses for code, statuses in source.items() if len(statuses) != 1}
    assert twice == {}, f"a code answered with more than one status: {twice}"
    docs = codes_in_docs()
    assert {code: statuses for code, statuses in docs.items() if len(statuses) != 1} == {}
    assert {code: statuses.pop() for code, statuses in source.items()} == {
        code: statuses[0] for code, statuses in docs.items()
    }


async def test_a_day_that_is_no_day_is_its_own_404_and_a_bad_season_start_a_400(hub):
    async with aiohttp.ClientSession() as session:
        daily = f"{hub.url}/api/leagues/{hub.league}/daily?date=2026-02-30"
        assert await _error(session, "GET", daily, None) == (
            404,
            "no_such_day",
            "there is no day '2026-02-30': a day is a date like 2026-12-01",
            "en",
        )
        german = await _error(session, "GET", daily.replace("/api", ""), "de")
        assert german[:2] == (404, "no_such_day") and german[2].startswith("es gibt keinen Tag '2026-02-30'")
        finnish = await _error(session, "GET", daily + "&lang=fi", None)
        assert finnish[:2] == (404, "no_such_day") and finnish[2].startswith("päivää '2026-02-30' ei ole")
        async with hub.pool.connection() as conn:
            token = await admin.create_token(conn, "test", None)
        async with session.post(
            f"{hub.url}/api/admin/leagues/{hub.league}/seasons",
            json={"name": "2027", "starts": "soon"},
            headers={"Authorization": f"Bearer {token}"},
        ) as answer:
            assert (answer.status, (await answer.json())["code"]) == (400, "bad_date")
