"""Hidden information on the touchscreen, proved by difference: a dart game played twice, the
same darts with the same answers, different only where the Jets' unsunk ships lie. The screen
(every pixel of the window, and every text on it) must be the same in both, with either team
on turn: the radar of the Sharks firing at the Jets, and the Jets' own turn. The same for a
classic solo game against the computer, whose unsunk ships lie elsewhere in the second run. A text search for
cell names cannot see a cell drawn as a colour on the radar; this can
(tests/ui/test_handheld_hidden_alike.py proves the same for the phones and the pages)."""

from __future__ import annotations

from pathlib import Path

from tests.ui.conftest_handheld import FLEET_A, fleet, fleet_cells
from tests.ui.test_handheld_hidden_alike import A_DARTS, B_DARTS, FLEET_B
from tests.ui.test_touch_game import labels_text


def _screens(tour, fleet_b: str, folder: Path) -> list[tuple[bytes, str]]:
    """The game with the Jets' fleet `fleet_b`: the window's picture and texts after the
    Sharks' first visit (the Jets on turn), after the Jets' (the Sharks on turn) and after the
    Sharks' second (their radar: the Jets' 2-ship sunk)."""
    from kiosk.board import BullZone, Cell, Ring, board_for
    from kiosk.darts.kind import DARTS
    from kiosk.darts.match import BullOffCloser, BullOffDart, Next, Phase, Place, Setup, Throw, house_rules
    from kiosk.service import Source
    from tests.ui.stages import TEAMS

    folder.mkdir(parents=True)
    tour.at("home")
    service = tour.kiosk.service
    service.new_game(DARTS, Setup(TEAMS, house_rules(tour.kiosk.settings)))
    match = tour.match

    def submit(command: object) -> None:
        service.submit(command, Source.TOUCH)

    submit(Place(0, fleet(FLEET_A)))
    submit(Place(1, fleet(fleet_b)))
    submit(BullOffDart(0, BullZone.OTHER, Cell(Ring.SMALL, 20)))
    submit(BullOffDart(1, BullZone.OTHER, Cell(Ring.SMALL, 3)))
    if match.bull_off_undecided:
        submit(BullOffCloser(0))
    assert match.phase is Phase.THROWING and match.turn == 0
    board = board_for()
    darts = (list(A_DARTS), list(B_DARTS))
    seen = []
    for visit in range(3):
        team = match.turn
        for _ in range(3):
            submit(Throw(board.parse(darts[team].pop(0))))
        submit(Next())
        tour.drain()
        screen = tour.screen()
        screen.announcement.clear()  # the call of the last dart fades by the clock
        tour.app._hide_toast()  # as does a toast: what is compared is the game as it stands
        picture = tour.save(folder / f"{visit}.png")
        seen.append((picture.read_bytes(), labels_text(tour.root)))
    tour.at("home")
    return seen


def _same(first: list, second: list, tmp_path: Path, artefacts: Path, game: str) -> None:
    """Each step's texts and picture alike in both runs; pictures that differ are kept in the
    artefacts for a look."""
    for step, ((picture, texts), (picture_2, texts_2)) in enumerate(zip(first, second, strict=True)):
        assert texts == texts_2, (game, step, texts, texts_2)
        if picture != picture_2:
            for name in ("first", "second"):
                kept = artefacts / f"hidden_alike_{game}_{name}_{step}.png"
                kept.write_bytes((tmp_path / name / f"{step}.png").read_bytes())
        assert picture == picture_2, f"{game}: after step {step} the window depends on the unsunk ships"


def test_the_screen_is_the_same_wherever_the_jets_unsunk_ships_lie(tour, tmp_path, artefacts) -> None:
    for fleet_b in FLEET_B:
        assert not set(A_DARTS) & (fleet_cells(fleet_b) - {"S3", "S19"})  # misses in both runs
    first = _screens(tour, FLEET_B[0], tmp_path / "first")
    second = _screens(tour, FLEET_B[1], tmp_path / "second")
    assert len(first) == 3 and "Sharks" in first[0][1]
    _same(first, second, tmp_path, artefacts, "darts")


def _classic_screens(tour, computer_fleet: str, folder: Path) -> list[tuple[bytes, str]]:
    """A seeded classic solo game on the touchscreen against the computer, whose fleet is
    `computer_fleet`: the window's picture and texts after each of the player's shots (the
    computer answering its misses: its decisions are the seed's, the same in both runs)."""
    import random

    from kiosk.classic.computer import ComputerSeat
    from kiosk.classic.fleet import parse_fleet
    from kiosk.classic.grid import parse_square
    from kiosk.classic.match import ComputerLevel, Fire, Mode, Place, Setup
    from kiosk.classic.table import start
    from kiosk.classic.wire import CLASSIC
    from kiosk.service import Source
    from tests.ui.test_handheld_hidden_alike import OWNER, OWNER_SHOTS

    folder.mkdir(parents=True)
    tour.at("home")
    service = tour.kiosk.service
    setup = Setup(Mode.SOLO, ("Sharks",), level=ComputerLevel.EASY, seed=7)
    start(service, setup, random.Random(1), fleet=parse_fleet(" ".join(OWNER)))
    service.submit(Place(1, parse_fleet(" ".join(computer_fleet))), Source.SYSTEM)
    match = CLASSIC.in_play(service)
    assert match is not None and match.fleet(1) == parse_fleet(" ".join(computer_fleet))
    tour.drain()
    assert tour.app.sm.current == "classic_solo"
    seat = tour.kiosk.participant(ComputerSeat)
    seen = []
    for shot, cell in enumerate(OWNER_SHOTS[:6]):
        if match.winner is not None or match.turn != 0:
            break
        service.submit(Fire(0, parse_square(cell)), Source.TOUCH)
        assert tour.pump(lambda: match.turn == 0 and (seat is None or seat.idle))
        tour.drain()
        tour.screen().announcement.clear()  # the call of the last shot fades by the clock
        tour.app._hide_toast()
        picture = tour.save(folder / f"{shot}.png")
        seen.append((picture.read_bytes(), labels_text(tour.root)))
    assert match.shots(1) >= 1  # the computer answered: its shots are on the player's own grid
    tour.at("home")
    return seen


def test_the_classic_screen_is_the_same_wherever_the_computers_unsunk_ships_lie(
    tour, tmp_path, artefacts
) -> None:
    from tests.ui.test_handheld_hidden_alike import FRIEND

    first = _classic_screens(tour, FRIEND[0], tmp_path / "first")
    second = _classic_screens(tour, FRIEND[1], tmp_path / "second")
    assert len(first) >= 3 and "Sharks" in first[0][1]
    _same(first, second, tmp_path, artefacts, "classic")
