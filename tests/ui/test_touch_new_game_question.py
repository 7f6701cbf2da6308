"""A stranger's one tap never ends a game (the audit, point 1): a game's start over an unfinished
game in play asks first, in one question of the shell ("Dart game in play: Sharks v Kiosk").
"Keep playing" goes back to the game, untouched; "Start new game" stores it as abandoned (as
Settings -> Abandon does) and starts the new one. A rematch after a finished game asks nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.board import Cell, Ring

pytestmark = pytest.mark.slow


def _question(tour):
    from kivy.core.window import Window

    from ui.touch.question import Question

    return next((w for w in Window.children if isinstance(w, Question)), None)


def _status(tour, game: int) -> str:
    row = tour.kiosk.store.db.execute("SELECT status FROM games WHERE id=?", [game]).fetchone()
    return row[0]


def _texts(widget) -> list[str]:
    from kivy.uix.label import Label

    return [w.text for w in widget.walk() if isinstance(w, Label)]


def _solo_with_darts(tour, darts: int) -> int:
    """The Sharks against the kiosk, `darts` of the Sharks' darts thrown (the kiosk answers)."""
    tour.at("solo")
    match = tour.match
    for number in range(darts):
        assert tour.pump(lambda: match.turn == 0 and tour.app.sm.current == "game")
        tour.throw_tap(Cell(Ring.SMALL, 1 + number % 20))
    assert not match.outcome().over
    return tour.kiosk.service.game


def test_express_start_over_a_solo_game_asks_and_keep_playing_keeps_it(tour, artefacts: Path) -> None:
    from kiosk.app.tour.express import ExpressTour

    game = _solo_with_darts(tour, 13)
    version = tour.match.version
    x = ExpressTour(tour)
    x.set_up([("Ann", None), ("Bo", None)])
    x.lay_out(start=False)
    tour.press("Start")
    question = _question(tour)
    assert question is not None and tour.app.asking is question
    texts = _texts(question)
    assert "Dart game in play: Sharks v Kiosk" in texts
    assert "Start a new game? The one in play ends with no winner." in texts
    tour.save(artefacts / "new_game_question.png")
    tour.press("Start")  # a second tap on the screen under it: still one question
    assert sum(1 for w in tour.app.root_window.children if w is question) == 1
    tour.press("Keep playing")
    assert _question(tour) is None and tour.app.asking is None
    assert tour.kiosk.service.game == game and _status(tour, game) == "playing"
    assert tour.match.version == version and tour.app.sm.current == "game"


def test_start_new_game_abandons_the_one_in_play_then_starts(tour) -> None:
    from kiosk.app.tour.express import ExpressTour

    game = _solo_with_darts(tour, 3)
    x = ExpressTour(tour)
    x.set_up([("Ann", None), ("Bo", None)])
    x.lay_out(start=False)
    tour.press("Start")
    assert _question(tour) is not None
    tour.press("Start new game")
    service = tour.kiosk.service
    assert _question(tour) is None and _status(tour, game) == "abandoned"
    assert service.game != game and service.kind.name == "express"
    assert _status(tour, service.game) == "playing" and tour.app.sm.current == "express"
    summary = next(s for s in tour.kiosk.store.stats.last_games() if s.id == game)
    assert summary.abandoned and summary.winner is None


@pytest.mark.parametrize("start", ["darts", "classic"])
def test_every_games_start_asks_over_a_game_in_play(tour, start: str) -> None:
    tour.at("game")  # a dart game of two teams, the Sharks throwing
    game = tour.kiosk.service.game
    tour.choose_game(start)
    if start == "darts":
        screen = tour.screen()
        screen.names[0].text, screen.names[1].text = "Owls", "Bats"
        tour.press("Place fleets")
    else:
        tour.screen().solo_name.text = "Owls"
        tour.press("Play solo")
    question = _question(tour)
    assert question is not None and "Dart game in play: Sharks v Jets" in _texts(question)
    assert tour.kiosk.service.game == game  # nothing happened yet
    tour.press("Start new game")
    assert _status(tour, game) == "abandoned" and tour.kiosk.service.game != game
    assert tour.kiosk.service.kind.name == start


def test_a_rematch_after_a_finished_game_asks_nothing(tour) -> None:
    tour.at("over")
    game = tour.kiosk.service.game
    tour.press("Rematch")
    assert _question(tour) is None
    assert tour.kiosk.service.game != game and _status(tour, game) == "over"
    assert tour.app.sm.current == "placement"


def test_the_question_in_german_and_finnish(tour) -> None:
    for lang, words in (("de", "Weiterspielen"), ("fi", "Jatka peliä")):
        tour.at("game", lang)
        tour.choose_game("darts")
        tour.screen().start()
        question = _question(tour)
        assert question is not None and words in _texts(question)
        question.stay_button.dispatch("on_release")
        tour.drain()
        assert _question(tour) is None and tour.app.sm.current == "game"
    tour.reset()
