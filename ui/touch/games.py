"""The games the kiosk offers on its Home screen, and where each game's screens are.

One entry per game: its name on Home, the screen that starts one (its new-game screen), its
screens, and `flow`: the screen a running game of its kind belongs on (None: no game of this
kind is running). Home shows a game only once its start screen is among the app's screens, so a
game whose screens are not built yet simply does not appear (no placeholder).

Adding a game is one entry here (its screens are imported lazily, when the app builds them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kiosk.i18n import _
from kiosk.service import GameService
from ui.touch import express

ScreenList = Callable[[], list[tuple[type, str]]]


@dataclass(frozen=True)
class GameChoice:
    kind: str  # the store's name of its kind of game
    title: Callable[[], str]  # its name on Home, in the kiosk's language
    start: str  # the screen that starts a game of it
    screens: ScreenList = field(default=lambda: [])
    flow: Callable[[GameService], str | None] = field(default=lambda _service: None)
    subtitle: Callable[[], str] = field(default=lambda: "")
    # The screens that follow a running game by themselves (None: all but the start screen);
    # a game set up over several screens before it starts leaves those out.
    follows: tuple[str, ...] | None = None


def _dart_screens() -> list[tuple[type, str]]:
    from ui.touch.darts.bull_off import BullOffScreen
    from ui.touch.darts.game import GameScreen
    from ui.touch.darts.new_game import NewGameScreen
    from ui.touch.darts.placement import PlacementScreen
    from ui.touch.darts.result import ResultScreen

    return [(NewGameScreen, "new_game"), (PlacementScreen, "placement"),
            (BullOffScreen, "bull_off"), (GameScreen, "game"), (ResultScreen, "result")]


def _dart_flow(service: GameService) -> str | None:
    from kiosk.darts.kind import match_of
    from kiosk.darts.match import Phase

    match = match_of(service)
    if match is None:
        return None
    return {Phase.PLACING: "placement", Phase.BULL_OFF: "bull_off", Phase.THROWING: "game",
            Phase.TAKEOUT: "game", Phase.OVER: "result"}[match.phase]


def _classic_screens() -> list[tuple[type, str]]:
    from ui.touch.classic.duel import ClassicDuelScreen
    from ui.touch.classic.new import ClassicNewScreen
    from ui.touch.classic.result import ClassicResultScreen
    from ui.touch.classic.solo import ClassicSoloScreen

    return [(ClassicNewScreen, "classic_new"), (ClassicSoloScreen, "classic_solo"),
            (ClassicDuelScreen, "classic_duel"), (ClassicResultScreen, "classic_result")]


def _classic_flow(service: GameService) -> str | None:
    from kiosk.classic.match import Mode
    from kiosk.classic.table import classic_of

    match = classic_of(service)
    if match is None:
        return None
    if match.winner is not None:
        return "classic_result"
    return "classic_duel" if match.setup.mode is Mode.DUEL else "classic_solo"


def _express_screens() -> list[tuple[type, str]]:
    return list(express.screens())


def _express_flow(service: GameService) -> str | None:
    from kiosk.express.seats import express_match

    match = express_match(service)
    return express.flow_screen(match) if match is not None else None


GAMES: tuple[GameChoice, ...] = (
    GameChoice("darts", lambda: _("Dart game"), "new_game", _dart_screens, _dart_flow,
               lambda: _("Battleship on a dartboard")),
    GameChoice("classic", lambda: _("Classic 10×10"), "classic_new", _classic_screens,
               _classic_flow, lambda: _("Battleship on the screen and on phones")),
    GameChoice("express", lambda: _("Battleship Express"), express.SETUP, _express_screens,
               _express_flow, lambda: _("the dice game: no dartboard needed"),
               follows=express.FLOW),
)


def flow_screen(service: GameService) -> str | None:
    """The screen the service's running game belongs on, whatever its kind."""
    kind = service.kind.name if service.kind is not None else None
    for game in GAMES:
        if game.kind == kind:
            return game.flow(service)
    return None


def flow_screens() -> tuple[str, ...]:
    """Every screen that follows a running game by itself (all but a game's start screen)."""
    return tuple(name for game in GAMES for name in (
        game.follows if game.follows is not None
        else [n for _cls, n in game.screens() if n != game.start]))


def offered(has_screen: Callable[[str], bool]) -> list[GameChoice]:
    """The games Home offers: those whose start screen the app has."""
    return [game for game in GAMES if has_screen(game.start)]


def screens() -> list[tuple[Any, str]]:
    return [entry for game in GAMES for entry in game.screens()]
