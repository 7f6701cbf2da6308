"""One exception tree: every exception class of the product code derives from DartshipError, and
every error a command can be refused for is a RuleError (so a front end catches that alone)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys

import pytest

import hardware
import kiosk
import ui
from kiosk.errors import DartshipError, PlacementError, ReplayError, RuleError
from kiosk.lines import WireError


def _packages() -> list[object]:
    packages: list[object] = [kiosk, hardware, ui]
    try:  # the league's hub, where its extra (psycopg, openskill) is installed
        import hub.web  # noqa: F401

        packages.append(sys.modules["hub"])
    except ImportError:
        pass
    return packages


def _modules() -> list[str]:
    names = []
    for package in _packages():
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if ".firmware" not in info.name:
                names.append(info.name)
    return names


def _exception_classes() -> list[type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for name in _modules():
        module = importlib.import_module(name)
        for _attr, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, BaseException) and value.__module__ == name:
                found[f"{name}.{value.__qualname__}"] = value
    return list(found.values())


def test_every_exception_class_has_the_one_root() -> None:
    classes = _exception_classes()
    assert len(classes) > 20  # the walk found the product code
    strays = [f"{c.__module__}.{c.__qualname__}" for c in classes if not issubclass(c, DartshipError)]
    assert strays == []


@pytest.mark.parametrize(
    "error",
    [
        "kiosk.board:CellError",
        "kiosk.darts.fleet:PlacementError",
        "kiosk.classic.fleet:PlacementError",
        "kiosk.classic.fleet:OverlapError",
        "kiosk.classic.grid:SquareError",
        "kiosk.lines:WireError",
        "kiosk.service:NotSaved",
        "kiosk.express.match:SetupError",
        "kiosk.classic.rooms:RoomError",
    ],
)
def test_rule_errors_are_rule_errors(error: str) -> None:
    module, name = error.split(":")
    assert issubclass(getattr(importlib.import_module(module), name), RuleError)


def test_one_placement_error_for_every_game() -> None:
    from kiosk.classic import fleet as classic_fleet
    from kiosk.darts import fleet as darts_fleet

    assert darts_fleet.PlacementError is classic_fleet.PlacementError is PlacementError


def test_a_rule_error_is_still_a_value_error_and_a_replay_error_not_a_rule_error() -> None:
    # Callers outside the kiosk that catch ValueError keep working; a broken log is no refusal.
    assert issubclass(RuleError, ValueError) and issubclass(WireError, ValueError)
    assert not issubclass(ReplayError, RuleError) and issubclass(ReplayError, DartshipError)
