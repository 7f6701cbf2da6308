"""The Autodarts client against frames of any shape (hypothesis): a frame is a Snapshot, None
or what is wrong with it, and whatever the snapshots hold, following them gives inputs, never
an exception (an exception would end the client's task: no more darts from the camera)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hardware.autodarts import Snapshot, VisitFollower, frame
from kiosk.board import Profile, board_for

FOUR = board_for(Profile.FOUR_RING)

VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
BEDS = st.sampled_from(["Single", "SingleInner", "SingleOuter", "Double", "Triple", "Outside", "", "Bull"])
SEGMENTS = VALUES | st.fixed_dictionaries(
    {"name": st.text(max_size=4), "number": VALUES | st.integers(-3, 60), "bed": BEDS | VALUES}
)
STATES = st.fixed_dictionaries(
    {},
    optional={
        "running": VALUES,
        "status": st.sampled_from(["Throw", "Takeout", "Takeout finished", "Stopped", ""]) | VALUES,
        "event": VALUES,
        "throws": st.lists(st.fixed_dictionaries({"segment": SEGMENTS}) | VALUES, max_size=6) | VALUES,
    },
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(STATES, min_size=1, max_size=6), st.booleans())
def test_frames_of_any_shape_are_followed_without_an_exception(states, resync):
    follower = VisitFollower(FOUR)
    for state in states:
        shot = frame(json.dumps({"type": "state", "data": state}))
        assert shot is None or isinstance(shot, Snapshot | str)
        if isinstance(shot, Snapshot):
            for event in follower.follow(shot, resync=resync):
                assert hasattr(event, "to_json") or event is not None


@pytest.mark.parametrize(
    "text",
    [
        "[" * 50_000 + "]" * 50_000,
        '{"type": "state", "data": {"throws": [' + "[" * 5000 + "]" * 5000 + "]}}",
    ],
    ids=["deep", "deep-throws"],
)
def test_a_frame_nested_past_any_parser_is_what_is_wrong(text):
    assert isinstance(frame(text), str)
