"""A game is a room that registers itself: the registry finds every hosted game's parts, the
service seats a game's participants only while a game of its kind is in play, and no shared
module names a game (they loop over the registry)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from kiosk import config
from kiosk.classic.match import Mode
from kiosk.classic.match import Setup as ClassicSetup
from kiosk.classic.wire import CLASSIC
from kiosk.darts.kind import DARTS
from kiosk.darts.match import Setup, Team, house_rules
from kiosk.hosted import HOSTED
from kiosk.kinds import kind_named
from kiosk.rooms import REGISTRY, Registry, Room, load
from kiosk.service import GameService, ServiceEvent, ServiceListener

ROOT = Path(__file__).resolve().parents[2]
SHARED = [
    "kiosk/kinds.py",
    "kiosk/house.py",
    "kiosk/service.py",
    "kiosk/store.py",
    "kiosk/ports.py",
    "kiosk/rooms.py",
    "kiosk/app/root.py",
    "kiosk/app/cli.py",
    "ui/touch/app.py",
    "ui/touch/games.py",
    "ui/touch/shell.py",
    "ui/touch/screens/home.py",
    "ui/touch/screens/stats.py",
    "ui/touch/screens/settings.py",
    "ui/touch/screens/base.py",
    "ui/touch/phones.py",
    "ui/handheld/server.py",
    "ui/handheld/seats.py",
    "ui/handheld/rooms.py",
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "kiosk" / "ai").glob("*.py")),
]


def _game_paths() -> list[str]:
    return [f"{floor}.{name}" for name in REGISTRY.names() for floor in ("kiosk", "ui.touch", "ui.handheld")]


def names_of_games(path: Path) -> list[str]:
    """Every place in a module that names a game: an import of a game's module (anywhere: at
    the top, in a function, for type checking), a string naming one ("kiosk.darts.kind:DARTS"),
    or a comparison with a game's name (`kind == "classic"`)."""
    tree = ast.parse(path.read_text(), str(path))
    games, found = _game_paths(), []
    for node in ast.walk(tree):
        modules: list[str] = []
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            modules = [node.value.replace("/", ".")]
        elif isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                if isinstance(side, ast.Constant) and side.value in REGISTRY.names():
                    found.append(f"line {node.lineno}: compares with {side.value!r}")
        for module in modules:
            for game in games:
                if (
                    module == game
                    or module.startswith((game + ".", game + ":"))
                    or (f" {game}." in f" {module}")
                ):
                    found.append(f"line {node.lineno}: {module}")
    return found


@pytest.mark.parametrize("module", SHARED)
def test_no_shared_module_names_a_game(module: str) -> None:
    assert names_of_games(ROOT / module) == []


def test_the_check_sees_a_game_named_in_each_way(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import kiosk.darts.kind\n"
        "def f(kind):\n"
        "    from ui.touch.classic import duel\n"
        "    target = 'kiosk.express.wire:EXPRESS'\n"
        "    return kind == 'classic'\n"
    )
    lines = {found.split(":")[0] for found in names_of_games(sample)}
    assert lines == {"line 1", "line 3", "line 4", "line 5"}


def test_every_hosted_game_has_a_room_with_its_parts() -> None:
    from ui.handheld.rooms import PhoneRoom
    from ui.touch.games import TouchRoom

    rooms = REGISTRY.rooms()
    assert [room.name for room in rooms] == list(HOSTED)
    for room in rooms:
        assert isinstance(room, Room)
        assert kind_named(room.name) is room.kind() and room.kind().name == room.name
        assert room.title() and room.subtitle()
        assert room.touch is not None and isinstance(load(room.touch), TouchRoom)
        if room.phones is not None:
            assert isinstance(load(room.phones), PhoneRoom)
    commands = [room.line.command for room in rooms if room.line is not None]
    assert len(commands) == len(set(commands)) == len(rooms)


def test_an_unknown_game_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown kind of game 'chess'"):
        kind_named("chess")
    wrong = Registry({"classic": "kiosk.darts.room"})
    with pytest.raises(ValueError, match="not the room of 'classic'"):
        wrong.room("classic")


class Recorder(ServiceListener):
    def __init__(self, service: GameService) -> None:
        self.service = service
        self.heard: list[str] = []

    def _heard(self, event: ServiceEvent) -> None:
        self.heard.append(type(event).__name__)

    def _sync(self) -> None:
        self.heard.append("sync")

    def _let_go(self) -> None:
        self.heard.append("let go")


def test_the_service_seats_a_games_participants_only_while_its_kind_is_in_play() -> None:
    service = GameService(None)
    darts, classic = Recorder(service), Recorder(service)
    service.host("darts", [darts])
    service.host("classic", [classic])
    assert not darts.attached and not classic.attached  # no game yet
    rules = house_rules(config.Settings())
    service.new_game(DARTS, Setup((Team("Sharks", ("Ann",)), Team("Jets", ("Cy",))), rules))
    assert darts.attached and not classic.attached
    assert darts.heard == ["sync"]  # seated on the new game: it looked at it, once
    service.new_game(CLASSIC, ClassicSetup(Mode.SOLO, ("Ann", "Computer"), 0))
    assert classic.attached and not darts.attached
    assert darts.heard == ["sync", "let go"] and classic.heard == ["sync"]
    service.dismiss()
    assert not classic.attached and service.participants() == []


def test_each_kind_knows_its_own_game_and_events_and_no_other() -> None:
    """`KIND.in_play(service)` and `KIND.events_of(events)`: the one "is this my game"."""
    from kiosk.classic.match import ShotFired
    from kiosk.darts.match import Placed
    from kiosk.express.wire import EXPRESS

    service = GameService(None)
    assert DARTS.in_play(service) is None and CLASSIC.in_play(service) is None
    rules = house_rules(config.Settings())
    service.new_game(DARTS, Setup((Team("Sharks", ("Ann",)), Team("Jets", ("Cy",))), rules))
    assert DARTS.in_play(service) is service.match
    assert CLASSIC.in_play(service) is None and EXPRESS.in_play(service) is None
    service.new_game(CLASSIC, ClassicSetup(Mode.SOLO, ("Ann", "Computer"), 0))
    assert CLASSIC.in_play(service) is service.match and DARTS.in_play(service) is None
    darts_event = Placed(0)
    classic_event = object.__new__(ShotFired)
    assert DARTS.events_of([darts_event, classic_event]) == (darts_event,)
    assert CLASSIC.events_of([darts_event, classic_event]) == (classic_event,)
    assert EXPRESS.events_of([darts_event, classic_event]) == ()
