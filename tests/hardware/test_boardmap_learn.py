"""The board map file and the learn wizard's state machine."""

from __future__ import annotations

import io

import pytest

from hardware import boardmap
from hardware.boardmap import BoardMapError, contact_key, demo_map, from_pairs
from hardware.learn import LearnWizard, Outcome, run_terminal, steps_for
from kiosk.board import BULL, BullZone, Profile, board_for
from kiosk.inputs import UnmappedInput


@pytest.mark.parametrize(("raw", "key"), [("3,7", "3,7"), (" 03 , 07", "3,7"), ("3.4@", "3.4@")])
def test_contact_key(raw, key):
    assert contact_key(raw) == key


def test_map_round_trip(tmp_path):
    original = demo_map(Profile.FOUR_RING)
    path = tmp_path / "map.toml"
    boardmap.save(original, path)
    loaded = boardmap.load(path)
    assert loaded.contacts == original.contacts
    assert loaded.check() == []


def test_a_contact_mapped_twice_is_a_problem_and_the_first_is_kept():
    text = '[contacts]\n"3,7" = "T20"\n"03,7" = "T1"\n'
    board_map = boardmap.parse(text)
    assert board_map.lookup("3,7").cell.code == "T20"
    assert any("mapped twice" in p for p in board_map.problems)


def test_bad_cells_and_missing_cells_are_named_not_fatal():
    text = 'profile = "three-ring"\n[contacts]\n"1,1" = "T21"\n"1,2" = 5\n"1,3" = "L20"\n'
    board_map = boardmap.parse(text, "m.toml")
    assert board_map.lookup("1,3").cell.code == "S20"  # three-ring: L20 is the merged single
    problems = board_map.check()
    assert any("T21" in p for p in problems)
    assert any("1,2" in p for p in problems)
    assert any("60 cells have no contact" in p for p in problems)


def test_broken_toml_and_missing_file_raise_a_clear_error(tmp_path):
    with pytest.raises(BoardMapError, match="not valid TOML"):
        boardmap.parse('[contacts\n"1,1" = ')
    with pytest.raises(BoardMapError, match="cannot read"):
        boardmap.load(tmp_path / "nope.toml")


def test_bull_spelling_keeps_the_zone():
    board_map = from_pairs([("0,0", "SB"), ("0,1", "DB")])
    assert board_map.lookup("0,0").zone is BullZone.OUTER
    assert board_map.lookup("0,1").zone is BullZone.INNER


@pytest.mark.parametrize("profile", list(Profile))
def test_wizard_walks_every_cell(profile):
    wizard = LearnWizard(profile)
    total = len(board_for(profile).cells) + 1  # the bull twice: outer and inner
    assert wizard.progress == (0, total)
    n = 0
    while not wizard.done:
        assert wizard.contact(f"{n // 10},{n % 10}").outcome is Outcome.LEARNED
        n += 1
    assert n == total
    assert wizard.board_map().check() == []
    assert wizard.contact("9,9").outcome is Outcome.IGNORED


def test_wizard_skip_back_redo_and_taken():
    wizard = LearnWizard(Profile.FOUR_RING)
    first, second = steps_for(Profile.FOUR_RING)[:2]
    assert wizard.contact("1,1").outcome is Outcome.LEARNED
    answer = wizard.contact("1,1")  # the same contact for the next cell
    assert answer.outcome is Outcome.TAKEN and first.spelling in answer.message
    assert wizard.current == second
    assert wizard.skip().outcome is Outcome.SKIPPED
    assert wizard.back().outcome is Outcome.BACK
    assert wizard.current == second
    assert wizard.back().outcome is Outcome.BACK  # back to the first: its contact is forgotten
    assert wizard.current == first
    assert "1,1" not in wizard.contacts
    wizard.contact("2,2")
    wizard.contact("3,3")
    assert wizard.redo().outcome is Outcome.REDO
    assert wizard.contacts == {"2,2": first.spelling, "3,3": second.spelling}
    problems = wizard.problems()
    assert problems and "no contact" in problems[-1]


def test_wizard_starts_from_an_existing_map_and_relearns():
    start = from_pairs([("5,5", "D20"), ("6,6", "T20")])
    wizard = LearnWizard(Profile.FOUR_RING, start)
    assert wizard.current.spelling == "D20"
    wizard.contact("7,7")  # D20 learned again: the old contact goes
    assert wizard.board_map().lookup("5,5") is None
    assert wizard.board_map().lookup("7,7").cell.code == "D20"


def test_terminal_front_end_with_typed_contacts_and_board_contacts():
    class FakeInput:
        stopped = False

        def stop(self):
            self.stopped = True

    device = FakeInput()

    def start_input(sink):
        sink(UnmappedInput("4,4"))  # a contact from the board
        return device

    out = io.StringIO()
    wizard = LearnWizard(Profile.FOUR_RING)
    learned = run_terminal(wizard, start_input, iter(["c 1,2", "s", "b", "c 3,3", "q"]), out)
    assert device.stopped
    steps = steps_for(Profile.FOUR_RING)
    cells = {raw: t.spelling for raw, t in learned.contacts.items()}
    # the board contact and the typed one arrive in some order; both are learned, skip+back
    # returned to the third cell, which took 3,3
    assert set(cells) == {"4,4", "1,2", "3,3"}
    assert cells["3,3"] == steps[2].spelling
    assert "throw or press" in out.getvalue()


def test_demo_map_is_complete_for_both_styles():
    for style in ("rc", "granboard"):
        board_map = demo_map(Profile.THREE_RING, style)
        assert board_map.missing() == ()
        assert {t.cell for t in board_map.contacts.values()} >= {BULL}


def test_a_board_with_one_contact_for_both_singles_is_learned_three_ring():
    """A soft-tip board's 7 x 10 matrix (70 contacts) has one contact for the inner and the
    outer single of a number. Learned under the default four-ring profile (qa9, the touchscreen's
    Learn board over the GPIO matrix), S20 hit with L20's contact was refused ("already L20:
    hit S20 again, or skip") for every number: a four-ring map without its 20 inner singles,
    and games whose ships there could never be hit. The wizard goes on three-ring instead."""
    wizard = LearnWizard(Profile.FOUR_RING)
    contacts: dict[str, str] = {}  # what each contact of the board is, as it is wired
    n = 0
    while not wizard.done:
        step = wizard.current
        single = "S" + step.spelling[1:] if step.spelling[:1] in "LS" else step.spelling
        if single not in contacts:
            contacts[single] = f"{n // 10},{n % 10}"
            n += 1
        answer = wizard.contact(contacts[single])
        assert answer.outcome is Outcome.LEARNED, answer.message
    assert n == 62  # 20 x (D, T, one single) and the bull's two parts
    board_map = wizard.board_map()
    assert board_map.profile is Profile.THREE_RING
    assert board_map.check() == []
    assert board_map.lookup(contacts["S20"]).cell.code == "S20"
    assert 'profile = "three-ring"' in wizard.map_text()
