"""The table's time (kiosk/express/pace.py), the dice asked for with real dice and shown again
after a restart (kiosk/express/rolls.py), luck (kiosk/express/luck.py), and the buzzer's sound."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kiosk import announce
from kiosk.express import odds
from kiosk.express.luck import expected_sinks, luck
from kiosk.express.match import Attack, Declare, QueueDice, Rolled, Target, TargetError
from kiosk.express.pace import Pace, Step, climax, length, script
from kiosk.express.rolls import last_attack, next_roll, typed
from kiosk.express.wire import EXPRESS
from kiosk.game import replay
from kiosk.service import GameService, MatchUpdate, Source
from kiosk.sound import Sound

from .conftest import ANN, BO, B, C, D, P, S, faces, game, queue

PACE = Pace(move=1, tumble=2, land=3, aside=4, sunk=5, turn=6, think=7)


def test_an_attack_is_shown_roll_by_roll_then_sunk():
    m = game()
    queue(m, "XXXXDDSS XXXXXX DDSSSS")  # the Battleship: 2, 0, 2 hits on the Destroyer (4)
    events = m.apply(Attack(B, Target(1, D)))
    steps = [beat.step for beat in script(events, PACE)]
    assert steps == [
        Step.MOVE,
        Step.TUMBLE,
        Step.LAND,
        Step.ASIDE,
        Step.TUMBLE,
        Step.LAND,
        Step.ASIDE,
        Step.TUMBLE,
        Step.LAND,
        Step.ASIDE,
        Step.SUNK,
        Step.TURN,
    ]
    assert length(events, PACE) == 1 + 3 * (2 + 3 + 4) + 5  # the turn after a sink adds nothing
    assert climax(events, PACE) == 1 + 3 * (2 + 3 + 4)  # the buzzer sounds as SUNK! shows


def test_a_miss_rests_before_the_next_player_and_the_carrier_waits_for_its_target():
    m = game(BO, ANN)
    queue(m, "PPPPPP")
    first = m.apply(Attack(C))
    assert [b.step for b in script(first, PACE)] == [Step.MOVE, Step.TUMBLE, Step.LAND]
    queue(m, "PPPPPP")
    rest = m.apply(Declare(Target(1, B)))
    assert [b.step for b in script(rest, PACE)] == [Step.ASIDE, Step.TUMBLE, Step.LAND, Step.ASIDE, Step.TURN]
    assert length(rest, PACE) == 4 + 2 + 3 + 4 + 6
    assert length([], Pace.instant()) == 0


def test_with_real_dice_the_screen_asks_roll_by_roll_for_the_dice_the_rules_throw():
    m = game()
    attack = Attack(B, Target(1, D))  # 8 dice, 4 rolls, defense 4, a Burst is no hit
    assert next_roll(m, attack, ()) == 8
    assert next_roll(m, attack, faces("XXXXDDSS")) == 6  # two hits set aside
    assert next_roll(m, attack, faces("XXXXDDSS XXXXXX")) == 6
    assert next_roll(m, attack, faces("XXXXDDSS XXXXXX DDSSSS")) is None  # sunk
    assert m.version == 0 and m.queued == 0  # asked of a copy
    rolls, wanted = typed(m, attack, faces("XXXXDDSS XXXXXX"))
    assert [r.total for r in rolls] == [2, 2] and wanted == 6
    assert next_roll(m, attack, faces("SSSSSSSS SSSSSSSS SSSSSSSS SSSSSSSS")) is None  # rolls used
    carrier = game(BO, ANN)
    assert next_roll(carrier, Attack(C), ()) == 6
    assert next_roll(carrier, Attack(C), faces("BBSSPP")) is None  # then its target
    carrier.apply(QueueDice(faces("BBSSPP")))
    carrier.apply(Attack(C))
    assert next_roll(carrier, Declare(Target(1, B)), ()) == 4  # the two B's are set aside
    assert next_roll(carrier, Declare(Target(1, C)), ()) == 6  # no hit: all six again
    with pytest.raises(TargetError, match="first two"):
        next_roll(carrier, Declare(Target(1, S)), ())


def test_faces_typed_in_before_a_restart_count_first():
    m = game()
    queue(m, "XXXXDDSS")
    assert next_roll(m, Attack(B, Target(1, D)), ()) == 6


def test_the_last_attack_is_rebuilt_with_the_same_dice():
    m = game()
    assert last_attack(m) == []
    queue(m, "XXXXDDSS XXXXXX DDSSSS")
    thrown = [e for e in m.apply(Attack(B, Target(1, D))) if isinstance(e, Rolled)]
    assert last_attack(m) == thrown
    queue(m, "PPPPPP")
    waiting = m.apply(Attack(C))  # Bo's Carrier rolled and waits for its target
    assert last_attack(m) == waiting


def test_luck_is_sinks_against_the_exact_expectation():
    m = game()
    queue(m, "XXXXDDSS XXXXXX DDSSSS")
    m.apply(Attack(B, Target(1, D)))  # Ann sinks Bo's Destroyer, goes again
    queue(m, "SSSSSSSS SSSSSSSS SSSSSSSS SSSSSSSS")
    m.apply(Attack(P, Target(1, B)))  # and misses Bo's Battleship
    expected = expected_sinks(m.setup, m.log)
    setup = m.setup
    ann = odds.chance(setup.ship(B), 4) + odds.chance(setup.ship(P), 5)
    assert expected == (ann, Fraction(0))
    assert luck(m) == (pytest.approx(1 - float(ann)), 0.0)


def test_the_carrier_is_expected_to_pick_its_target_well():
    m = game(BO, ANN)
    queue(m, "PPPPPP")
    m.apply(Attack(C))
    targets = [(t.ship, m.setup.ship(t.ship).defense) for t in m.targets(C)]
    assert expected_sinks(m.setup, m.log)[0] == odds.best_declared(m.setup.ship(C), targets)


def test_sounds_sunk_win_and_miss_and_the_buzzer_waits_for_the_word(monkeypatch):
    m = game()
    queue(m, "XXXXDDSS XXXXXX DDSSSS")
    sunk = m.apply(Attack(B, Target(1, D)))
    assert EXPRESS.sound_for(sunk) is Sound.SUNK
    queue(m, "SSSSSSSS " * 4)
    assert EXPRESS.sound_for(m.apply(Attack(B, Target(1, B)))) is Sound.MISS
    carrier = game(BO, ANN)
    assert EXPRESS.sound_for(carrier.apply(Attack(C))) is None

    class Buzzer:
        muted = False

        def __init__(self) -> None:
            self.played: list[Sound] = []

        def play(self, sound: Sound) -> None:
            self.played.append(sound)

        def close(self) -> None:
            pass

    later: list[tuple[float, object, Sound]] = []

    class Loop:
        def call_later(self, delay: float, callback, sound: Sound) -> None:
            later.append((delay, callback, sound))

    monkeypatch.setattr(announce.asyncio, "get_running_loop", Loop)
    service = GameService(None)
    service.new_game(EXPRESS, m.setup)
    buzzer = Buzzer()
    listen = announce.buzzer_listener(buzzer, service, delay=lambda events: climax(events, PACE))
    listen(MatchUpdate(tuple(sunk), -1, Source.TOUCH))
    assert buzzer.played == []  # not before the dice have landed ...
    [(delay, callback, sound)] = later
    assert delay == climax(sunk, PACE) and sound is Sound.SUNK  # ... but as SUNK! shows
    callback(sound)
    assert buzzer.played == [Sound.SUNK]


def test_replaying_the_match_gives_the_same_match():
    m = game()
    queue(m, "XXXXDDSS XXXXXX DDSSSS")
    m.apply(Attack(B, Target(1, D)))
    assert replay(EXPRESS, m.setup, m.log).public_view() == m.public_view()
    assert ANN and BO
