"""The fleets being placed of the game in play (`kiosk.placing_drafts`), one per team, in the
store's drafts: kept over the database opened again (a kill -9 between), brought back only to
their own team of their own game, said once and put away when broken, older or another game's,
the others kept; no journal line names what a draft holds."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path

import pytest

from kiosk.config import Settings
from kiosk.darts.kind import DARTS
from kiosk.darts.match import Setup, Team, house_rules
from kiosk.game import RuleError
from kiosk.placing_drafts import DraftRefused, PlacingDrafts
from kiosk.service import GameService
from kiosk.store import Store

SECRET = "T20-T1-T18"


def _service(db: Path) -> GameService:
    return GameService(Store(db), follow_ups=False)


def _new_game(service: GameService) -> None:
    service.new_game(DARTS, Setup((Team("Sharks", ("Ann",)), Team("Jets", ("Cy",))), house_rules(Settings())))


def _read(body: Mapping[str, object]) -> list[str]:
    ships = body.get("ships")
    if not isinstance(ships, list) or "broken" in ships:
        raise RuleError("its ships are not ships of this board")
    return [str(ship) for ship in ships]


def test_each_team_s_draft_is_kept_over_a_restart_for_that_team_only(tmp_path: Path) -> None:
    service = _service(tmp_path / "kiosk.db")
    _new_game(service)
    drafts = PlacingDrafts(service, "darts")
    assert drafts.keep(0, {"ships": [SECRET]}) is None
    assert drafts.keep(1, {"ships": ["D6-D13"]}) is None
    again = _service(tmp_path / "kiosk.db")  # no close: as a kill -9 leaves the file
    assert again.resume()
    kept = PlacingDrafts(again, "darts")
    assert kept.kept(0, _read, "Sharks") == [SECRET] and kept.kept(1, _read, "Jets") == ["D6-D13"]
    assert PlacingDrafts(again, "classic").kept(0, _read, "Sharks") is None  # another game's part
    kept.put_away(0)
    assert kept.kept(0, _read, "Sharks") is None and kept.kept(1, _read, "Jets") == ["D6-D13"]
    kept.put_away()
    assert kept.kept(1, _read, "Jets") is None


@pytest.mark.parametrize(
    "row",
    [
        "{not json",
        '{"format": 0, "game": GAME, "team": 0, "fleet": {"ships": []}}',
        '{"format": 1, "game": 999, "team": 0, "fleet": {"ships": []}}',
        '{"format": 1, "game": GAME, "team": 1, "fleet": {"ships": []}}',
        '{"format": 1, "game": GAME, "team": 0, "fleet": ["T20-T1-T18"]}',
        '{"format": 1, "game": GAME, "team": 0, "fleet": {"ships": ["broken", "T20-T1-T18"]}}',
    ],
)
def test_a_broken_older_or_foreign_draft_is_said_once_and_put_away_the_others_kept(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, row: str
) -> None:
    service = _service(tmp_path / "kiosk.db")
    _new_game(service)
    drafts = PlacingDrafts(service, "darts")
    drafts.keep(0, {"ships": [SECRET]})
    drafts.keep(1, {"ships": ["D6-D13"]})
    store = service.store
    assert store is not None
    store.drafts.keep("express.lineup", {"kept": True})
    store.db.execute(
        "UPDATE meta SET value=? WHERE key='draft.darts.placing.0'", [row.replace("GAME", str(service.game))]
    )
    with caplog.at_level(logging.INFO):
        said = drafts.sweep(lambda _team, body: _read(body), ["Sharks", "Jets"])
        assert drafts.kept(0, _read, "Sharks") is None  # put away: nothing more to say
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1 and lines[0].startswith("Sharks's fleet being placed"), lines
    assert SECRET not in lines[0] and "T20" not in " ".join(said)
    assert len(said) == 1 and said[0].startswith("Sharks: ")
    assert drafts.kept(1, _read, "Jets") == ["D6-D13"]
    assert store.drafts.kept("express.lineup") == {"kept": True}


def test_a_draft_asked_for_and_refused_is_raised_in_words(tmp_path: Path) -> None:
    service = _service(tmp_path / "kiosk.db")
    _new_game(service)
    drafts = PlacingDrafts(service, "darts")
    drafts.keep(0, {"ships": ["broken"]})
    with pytest.raises(DraftRefused, match="not ships of this board"):
        drafts.kept(0, _read, "Sharks")
    assert drafts.kept(0, _read, "Sharks") is None


def test_a_draft_of_no_team_is_dropped_and_without_a_game_all_are_put_away(tmp_path: Path) -> None:
    service = _service(tmp_path / "kiosk.db")
    _new_game(service)
    drafts = PlacingDrafts(service, "darts")
    drafts.keep(0, {"ships": []})
    drafts.keep(5, {"ships": []})
    drafts.sweep(lambda _team, body: _read(body), ["Sharks", "Jets"])
    assert service.store is not None and service.store.drafts.names() == ["darts.placing.0"]
    service.abandon()
    drafts.sweep(lambda _team, body: _read(body), ["Sharks", "Jets"])
    assert service.store.drafts.names() == []


def test_a_store_that_cannot_keep_a_draft_is_said_once_until_it_keeps_one_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A full disk fails every change of a fleet being placed: the players and the journal hear
    it once, not at every tap; once a draft is kept again, the next failure is said again."""
    import sqlite3

    service = _service(tmp_path / "kiosk.db")
    _new_game(service)
    drafts = PlacingDrafts(service, "darts")
    assert service.store is not None
    real = service.store.drafts.keep

    def full(name: str, body: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    caplog.set_level(logging.INFO, logger="dartship.drafts")
    monkeypatch.setattr(service.store.drafts, "keep", full)
    said = [drafts.keep(0, {"ships": [SECRET][: n % 2]}) for n in range(5)]
    assert said[0] == "database or disk is full" and said[1:] == [None] * 4
    monkeypatch.setattr(service.store.drafts, "keep", real)
    assert drafts.keep(0, {"ships": [SECRET]}) is None
    assert PlacingDrafts(service, "darts").kept(0, _read, "Sharks") == [SECRET]
    monkeypatch.setattr(service.store.drafts, "keep", full)
    assert drafts.keep(1, {"ships": []}) == "database or disk is full"
    failures = [r for r in caplog.records if "could not be kept" in r.getMessage()]
    assert len(failures) == 2 and not any(SECRET in r.getMessage() for r in caplog.records)
