"""A fleet being placed on the touchscreen survives a restart (docs/decisions.md, "A fleet being
placed over a restart"): the dart game's teams' drafts and classic solo's re-placing are kept in
the store's drafts at every change. The app rebuilt on the same database (every screen anew,
then the start's own choice of screen, as a kiosk started again finds it) shows the hand-over,
never a team's ships; only that team's own button brings its draft back as it was. A draft ends
at Lock in (here or on the team's phone), a new game, an abandon; a broken or older one is said
once in the journal, naming no cell, and dropped, the others kept. The real restart (a window
killed with SIGKILL): tests/ui/test_touch_placing_kill.py.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from kiosk.board import Cell, Ring
from kiosk.classic.fleet import CLASSES
from kiosk.classic.grid import GRID
from kiosk.classic.match import Fire
from kiosk.darts.fleet import random_fleet
from kiosk.darts.match import Place
from kiosk.service import Source

pytestmark = pytest.mark.slow

D = lambda n: Cell(Ring.DOUBLE, n)  # noqa: E731
T = lambda n: Cell(Ring.TRIPLE, n)  # noqa: E731


def labels_text(root) -> str:
    from kivy.uix.label import Label

    return "\n".join(w.text for w in root.walk() if isinstance(w, Label) and w.opacity > 0)


def _restarted(tour) -> object:
    tour.app.rebuild("home")
    tour.app.follow_phase(initial=True)
    tour.drain()
    return tour.screen()


def _kept(tour) -> list[str]:
    return [name for name in tour.kiosk.service.store.drafts.names() if ".placing." in name]


def _half_laid(tour):
    """The Sharks on the touchscreen: a ship of 5 from D20, a ship of 4 from T3 turned once
    (the last ship still turnable from T3), the ship of 2 chosen next."""
    tour.at("placement")
    screen = tour.screen()
    tour.press("Sharks: place on this screen")
    tour.tap_cell(screen.board_view, D(20))
    tour.tap_cell(screen.board_view, T(3))
    tour.press("Turn")
    tour.press("2")
    draft = screen.draft
    assert len(draft.ships) == 2 and draft.last is draft.ships[1] and draft.next_length == 2
    return screen, draft


def _hand_over_shown(tour, screen, codes: set[str]) -> None:
    assert screen.team is None and screen.draft is None
    assert screen.board_view.marks == {}  # no ship drawn, and the board is not on the screen
    assert screen.placing.parent is None and screen.handover.parent is screen
    shown = labels_text(tour.root)
    assert not any(code in shown.split() for code in codes), shown


def test_a_fleet_half_placed_comes_back_behind_the_hand_over_after_a_restart(tour, artefacts: Path) -> None:
    screen, before = _half_laid(tour)
    codes = {cell.code for cell in before.cells()}
    again = _restarted(tour)
    assert tour.app.sm.current == "placement" and again is not screen
    _hand_over_shown(tour, again, codes)
    assert "Jets, look away" in labels_text(tour.root)
    tour.save(artefacts / "draft7_handover_after_restart.png")
    tour.press("Sharks: place on this screen")
    draft = again.draft
    assert [s.code for s in draft.ships] == [s.code for s in before.ships]
    assert draft.next_length == 2 and set(again.board_view.marks) == set(before.cells())
    # The ship of 4 is still the last one laid from T3: Turn goes on where it was.
    assert before.turn() is None and draft.turn() is None
    assert [s.code for s in draft.ships] == [s.code for s in before.ships]
    tour.save(artefacts / "draft7_draft_brought_back.png")


def test_hide_and_home_keep_the_draft_for_its_team(tour) -> None:
    screen, before = _half_laid(tour)
    tour.press("Hide")
    _hand_over_shown(tour, screen, {c.code for c in before.cells()})
    tour.press("Sharks: place on this screen")
    assert screen.draft is before
    tour.press("Home")
    tour.press("Continue: Dart game")
    _hand_over_shown(tour, screen, {c.code for c in before.cells()})
    tour.press("Sharks: place on this screen")
    assert screen.draft is before


def test_each_team_s_button_brings_back_its_own_draft_and_lock_in_ends_it(tour) -> None:
    tour.at("placement")
    screen = tour.screen()
    tour.press("Sharks: place on this screen")
    tour.press("Random fleet")
    sharks = screen.draft.fleet()
    assert _kept(tour) == ["darts.placing.0"]
    tour.press("Lock in")
    assert _kept(tour) == []  # locked in: the draft ends
    tour.press("Jets: place on this screen")
    tour.tap_cell(screen.board_view, D(6))
    jets = [s.code for s in screen.draft.ships]
    again = _restarted(tour)
    _hand_over_shown(tour, again, {c.code for c in sharks.cells})
    assert "Sharks ready" in labels_text(tour.root)
    tour.press("Jets: place on this screen")
    assert again.team == 1 and [s.code for s in again.draft.ships] == jets
    tour.press("Random fleet")
    tour.press("Lock in")
    assert _kept(tour) == [] and tour.kiosk.service.match.state().placed == (True, True)


def test_a_team_that_locks_in_on_its_phone_loses_its_screen_draft(tour) -> None:
    screen, _draft = _half_laid(tour)
    tour.press("Hide")
    assert _kept(tour) == ["darts.placing.0"]
    service = tour.kiosk.service
    fleet = random_fleet(service.match.board, service.match.setup.rules.fleet, tour.app.rng)
    service.submit(Place(0, fleet), Source.PHONE)
    tour.drain()
    assert _kept(tour) == [] and 0 not in screen.put_away


def test_a_draft_ends_when_the_game_is_abandoned_or_a_new_one_starts(tour) -> None:
    _half_laid(tour)
    assert _kept(tour) == ["darts.placing.0"]
    tour.kiosk.service.abandon()
    tour.drain()
    assert _kept(tour) == []
    _half_laid(tour)
    tour.at("placement")  # a new game
    assert _kept(tour) == []
    tour.press("Sharks: place on this screen")
    assert tour.screen().draft.ships == []


BROKEN = {
    "not json": "{broken",
    "an older format": '{"format": 0, "game": GAME, "team": 0, "fleet": {"ships": []}}',
    "another game": '{"format": 1, "game": -5, "team": 0, "fleet": {"ships": []}}',
    "a cell off the board": '{"format": 1, "game": GAME, "team": 0, "fleet": {"ships": ["T20-T1-X77"]}}',
    "two ships crossing": (
        '{"format": 1, "game": GAME, "team": 0, "fleet": {"ships": ["T20-T1-T18", "T1-S1"], "chosen": null}}'
    ),
    "a ship too many": (
        '{"format": 1, "game": GAME, "team": 0, "fleet": {"ships": ["T20-T1", "D20-D1", "S20-S1"]}}'
    ),
    "a last ship it has not": (
        '{"format": 1, "game": GAME, "team": 0, "fleet": {"ships": ["T20-T1"], "last": 3, "anchor": "T20"}}'
    ),
}


@pytest.mark.parametrize("kind", list(BROKEN))
def test_a_broken_or_older_draft_is_said_once_and_dropped_and_the_others_kept(
    tour, caplog, artefacts: Path, kind: str
) -> None:
    tour.at("placement")
    screen = tour.screen()
    store, game = tour.kiosk.service.store, tour.kiosk.service.game
    store.meta.remember("draft7.witness", "kept")
    tour.press("Sharks: place on this screen")
    tour.press("Random fleet")
    sharks = {c.code for c in screen.draft.cells()}
    tour.press("Hide")
    screen._show_step(1)  # the Jets' step of the hand-over: their button
    tour.press("Jets: place on this screen")
    tour.tap_cell(screen.board_view, D(6))
    jets = [s.code for s in screen.draft.ships]
    tour.press("Hide")
    store.db.execute(
        "UPDATE meta SET value=? WHERE key='draft.darts.placing.0'", [BROKEN[kind].replace("GAME", str(game))]
    )
    caplog.clear()
    with caplog.at_level(logging.INFO):
        again = _restarted(tour)
        _hand_over_shown(tour, again, sharks)
        told = tour.app.toast_label.text  # the players are told too, naming no cell
        assert told.startswith("Sharks: the fleet being placed before the restart could not be brought back")
        assert not any(code in told for code in sharks)
        tour.save(artefacts / f"draft7_refused_{kind.replace(' ', '_')}.png")
        tour.press("Sharks: place on this screen")
        assert again.draft.ships == []  # placed anew
        tour.press("Hide")
        again._show_step(1)
        tour.press("Jets: place on this screen")
    said = [r.getMessage() for r in caplog.records if "fleet being placed" in r.getMessage()]
    assert len(said) == 1 and said[0].startswith("Sharks's fleet being placed"), said
    ours = [r.getMessage() for r in caplog.records if r.name.startswith(("dartship", "kiosk", "ui"))]
    assert not any(code in line for line in ours for code in ("T20", "T1", "X77", "S1", "D20", *sharks))
    assert [s.code for s in again.draft.ships] == jets  # the Jets' draft was kept
    assert _kept(tour) == ["darts.placing.1"] and store.meta.recall("draft7.witness") == "kept"


def test_no_log_line_or_notice_names_a_draft_s_cells(tour, caplog) -> None:
    with caplog.at_level(logging.DEBUG):
        _screen, before = _half_laid(tour)
        codes = {cell.code for cell in before.cells()}
        again = _restarted(tour)
        tour.press("Sharks: place on this screen")
        toast = tour.app.toast_label.text
    assert again.draft.cells() == before.cells()  # kept, and brought back, with nothing said of it
    ours = [r.getMessage() for r in caplog.records if r.name.startswith(("dartship", "kiosk", "ui"))]
    assert not any(code in line.replace("-", " ").split() for line in ours for code in codes), ours
    assert not any(code in toast for code in codes)


# -- classic solo: the re-placing --


def _moved(tour):
    """Classic solo, "Re-place fleet", the Battleship picked and moved to a free square."""
    from kiosk.app.tour.classic import ClassicWalk

    tour.at("classic_solo")
    walk = ClassicWalk(tour)
    solo = tour.screen()
    tour.press("Re-place fleet")
    before = walk.fleet(0)
    kind = CLASSES[1]
    tour.tap_cell(solo.big, before.ship(kind).cells[0])
    free = next(s for s in GRID.squares if _moves(solo.draft, kind, s))
    tour.tap_cell(solo.big, free)
    assert solo.draft.ship(kind).bow == free and solo.chosen is kind
    return walk, solo, before


def _moves(fleet, kind, square) -> bool:
    try:
        fleet.moved(kind, square, fleet.ship(kind).horizontal)
    except Exception:
        return False
    return square != fleet.ship(kind).bow


def test_a_classic_re_placing_comes_back_as_it_was_after_a_restart(tour, artefacts: Path) -> None:
    walk, solo, _before = _moved(tour)
    moving = solo.draft
    again = _restarted(tour)
    assert tour.app.sm.current == "classic_solo" and again is not solo
    assert again.draft == moving and again.chosen is CLASSES[1]
    assert again.edit_side.parent is not None
    tour.save(artefacts / "draft7_classic_replacing_brought_back.png")
    tour.press("Done")
    assert walk.fleet(0) == moving and _kept(tour) == []
    assert _restarted(tour).draft is None  # Done ended it: the play view comes back


def test_cancel_the_first_shot_and_an_abandon_end_a_classic_re_placing(tour) -> None:
    walk, solo, before = _moved(tour)
    assert _kept(tour) == ["classic.placing.0"]
    tour.press("Cancel")
    assert _kept(tour) == [] and walk.fleet(0) == before
    assert _restarted(tour).draft is None
    walk, solo, before = _moved(tour)
    assert _kept(tour) == ["classic.placing.0"]
    tour.kiosk.service.submit(Fire(0, walk.water(0)[0]))  # the first shot, from the host's page
    tour.drain()
    assert _kept(tour) == [] and solo.draft is None
    walk, solo, before = _moved(tour)
    assert _kept(tour) == ["classic.placing.0"]
    tour.kiosk.service.abandon()
    tour.drain()
    assert _kept(tour) == []


def test_a_broken_classic_re_placing_is_said_once_and_dropped(tour, caplog) -> None:
    walk, _solo, before = _moved(tour)
    store = tour.kiosk.service.store
    game = tour.kiosk.service.game
    body = '{"format": 1, "game": %d, "team": 0, "fleet": {"fleet": "A1-A5 A2-D2", "chosen": "Cruiser"}}'
    store.db.execute("UPDATE meta SET value=? WHERE key='draft.classic.placing.0'", [body % game])
    caplog.clear()
    with caplog.at_level(logging.INFO):
        again = _restarted(tour)
    said = [r.getMessage() for r in caplog.records if "fleet being placed" in r.getMessage()]
    assert len(said) == 1 and "A1" not in said[0] and "A2" not in said[0], said
    assert again.draft is None and _kept(tour) == [] and walk.fleet(0) == before
    assert "could not be brought back" in tour.app.toast_label.text
