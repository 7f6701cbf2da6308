"""The walk `dartship screenshots` photographs: every screen of every game, by touch, in the
order a bar would meet them (the dart game, solo against the kiosk, classic, Express)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from kiosk.app.tour.classic import ClassicWalk
from kiosk.app.tour.driver import Tour, label
from kiosk.app.tour.express import ExpressTour
from kiosk.board import BULL, Cell, Ring


def run_all(tour: Tour, out: Path, suffix: str) -> Iterator[str]:
    """Every screen, photographed to `out/<screen><suffix>.png`; yields each name when written."""

    def shot(name: str, toast: bool = False) -> str:
        if not toast:
            tour.app._hide_toast()  # the clock barely moves here: a start's notice would stay
        tour.save(out / f"{name}{suffix}.png")
        return name

    yield shot("home")
    tour.app.go("new_game")
    screen = tour.screen()
    screen.names[0].text, screen.players[0].text = "Sharks", "Anna, Ben"
    screen.names[1].text, screen.players[1].text = "Jets", "Cleo, Dev"
    yield shot("new_game")
    tour.press_start(label("Place fleets"))
    yield shot("placement_handover")
    tour.place_by_taps("Sharks")
    screen = tour.screen()
    screen._say(screen.draft.drag([Cell(Ring.TRIPLE, 20), Cell(Ring.TRIPLE, 5)]))
    yield shot("placement")
    tour.press(label("Random fleet"))
    tour.press(label("Lock in"))
    tour.press(label("{team}: place on this screen").format(team="Jets"))
    tour.press(label("Random fleet"))
    tour.press(label("Lock in"))
    bull = tour.screen()
    yield shot("bull_off")  # as it first appears: nothing since may have redrawn it
    tour.tap_cell(bull.board_view, Cell(Ring.SMALL, 20))
    tour.tap_cell(bull.board_view, Cell(Ring.SMALL, 3))
    yield shot("bull_off_closer")
    tour.press("Sharks")
    targets = tour.enemy_cells(0)
    tour.throw_tap(Cell(Ring.DOUBLE, 1) if Cell(Ring.DOUBLE, 1) not in targets else BULL)
    tour.throw_typed(targets[0].code)
    yield shot("game")
    tour.garbled_line()
    yield shot("toast_long", toast=True)  # a long notice over the board: whole, never cut
    tour.throw_tap(targets[1])
    yield shot("game_takeout")
    tour.press(label("Correct"))
    yield shot("correct")
    tour.press(label("Cancel"))  # the picker off the window before the next step
    tour.play_to_the_end()
    yield shot("result")
    tour.app.go("stats")
    yield shot("stats")
    tour.app.go("pin")
    for key in "12":
        tour.press(key)
    yield shot("pin")
    for key in ("3", "4", "OK"):
        tour.press(key)
    yield shot("settings")
    tour.press(label("Learn board"))
    yield shot("learn")
    tour.app.go("settings")
    tour.press(label("League"))
    yield shot("league_settings")  # Settings -> League of a kiosk in no league
    yield from solo_walk(tour, shot)
    walk = ClassicWalk(tour)
    yield from walk.run(shot)
    yield from walk.stats(shot)
    yield from ExpressTour(tour).walk(shot)


def solo_walk(tour: Tour, shot: Callable[[str], str]) -> Iterator[str]:
    """Solo against the kiosk: its fleet, its bull-off dart, the coach, its darts, held."""
    from kiosk.darts.match import Phase

    tour.start_solo()
    yield shot("new_game_solo")
    tour.press_start(label("Place fleets"))
    tour.pump()  # the kiosk locks in its fleet at once
    yield shot("placement_solo")
    tour.press(label("{team}: place on this screen").format(team="Sharks"))
    tour.press(label("Random fleet"))
    tour.press(label("Lock in"))
    tour.pump()  # its bull-off dart
    yield shot("bull_off_solo")
    tour.tap_cell(tour.screen().board_view, Cell(Ring.SMALL, 20))
    if tour.match.bull_off_undecided:
        tour.press("Sharks")
    if tour.kiosk_turn():
        tour.pump(lambda: not tour.kiosk_turn())
    tour.press(label("Coach"))
    tour.wait_for_coach()
    tour.throw_typed(tour.enemy_cells(0)[1].code)  # a hit: the coach's heat gathers round it
    tour.wait_for_coach()
    tour.screen().announcement.clear()
    yield shot("game_coach")
    for code in ("S19", "miss"):
        tour.throw_typed(code)
    tour.press(label("Next"))
    tour.pump(lambda: tour.match.phase is not Phase.THROWING or tour.match.dart_in_visit >= 2)
    yield shot("game_kiosk")
    tour.press(label("Undo"))
    tour.screen().announcement.clear()  # let the picture show what is under the word
    tour.app._hide_toast()
    yield shot("game_kiosk_hold")
    tour.press(label("Let the kiosk throw"))
    tour.pump(lambda: not tour.kiosk_turn())
    tour.press(label("Coach"))
    # A new game over the one in play: the kiosk asks first, and the game goes on.
    tour.app.go("new_game")
    tour.press(label("Place fleets"))
    yield shot("new_game_question")
    tour.press(label("Keep playing"))
