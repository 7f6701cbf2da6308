"""The first few of a flood, then one count per window."""

from kiosk.floodgate import FloodGate


def test_first_few_then_a_count_once_the_window_closes():
    gate = FloodGate(first=3, window=10.0)
    shown = [gate.admit(t / 1000) for t in range(10_000)]  # 10 000 events in 10 s
    assert shown[:3] == [True] * 3 and not any(shown[3:])
    assert gate.due(9.99) == 0  # the window is still open
    assert gate.due(10.0) == 9_997
    assert gate.due(10.5) == 0  # handed out once
    assert gate.admit(11.0)  # a new window: shown again


def test_nothing_held_is_lost_when_events_go_on_across_windows():
    gate = FloodGate(first=1, window=1.0)
    held = sum(not gate.admit(t / 100) for t in range(500))  # 5 s of 100 events a second
    assert gate.due(100.0) == held == 500 - 5
