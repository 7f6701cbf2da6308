"""The suite's hang backstop (tests/hang_backstop.py), in pytest runs of their own with a short
limit: a test that hangs in an await ends the run (exit status 1) with a line naming it, every
thread's stack and the task's, and a last line naming it again with the count of the tests
before it (passed, failed, skipped: pytest's summary never comes), and the tests after it never
run; one that hangs in C code
holding the GIL (where the backstop's own thread cannot run) is ended by faulthandler's C
watchdog, its stack shown; and tests each under the limit, though together over it, pass."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.held_run import ROOT, pytest_of_its_own

pytestmark = pytest.mark.slow

HUNG_IN_AN_AWAIT = """
import asyncio

import pytest

def test_before():
    print("BEFORE RAN", flush=True)

def test_fails_before():
    assert False

@pytest.mark.skip(reason="skipped before")
def test_skipped_before():
    pass

@pytest.mark.asyncio
async def test_hangs_in_an_await():
    await asyncio.sleep(600)  # THE HANG

def test_after():
    print("AFTER RAN", flush=True)
"""

HOLDING_THE_GIL = """
import re

def test_holds_the_gil():
    re.match(r"(a+)+$", "a" * 64 + "b")  # hours of backtracking, all of it in C

def test_after():
    print("AFTER RAN", flush=True)
"""

SLOW_BUT_HEALTHY = """
import time

def test_one():
    time.sleep(1.5)

def test_two():
    time.sleep(1.5)

def test_three():
    time.sleep(1.5)
"""


def _run(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    test = tmp_path / "test_backstopped.py"
    test.write_text(text)
    return subprocess.run(
        pytest_of_its_own(test, "-p", "no:randomly", "--hang-seconds=3"),
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_a_test_hung_in_an_await_ends_the_run_naming_it(tmp_path):
    done = _run(tmp_path, HUNG_IN_AN_AWAIT)
    said = done.stdout + done.stderr
    assert done.returncode == 1, said
    assert "BEFORE RAN" in said and "AFTER RAN" not in said
    assert "HANG: test_backstopped.py::test_hangs_in_an_await has run for more than 3 s" in said, said
    # What pytest's summary would have said of the tests before it (the run ends without one).
    assert (
        "HANG: the test run ends: test_backstopped.py::test_hangs_in_an_await hung. "
        "Before it: 1 passed, 1 failed, 1 skipped (of 5 tests collected)." in said
    ), said
    assert "in test_hangs_in_an_await" in said and "THE HANG" in said  # the task's own stack


def test_a_test_that_holds_the_gil_is_ended_by_faulthandler_s_own_watchdog(tmp_path):
    done = _run(tmp_path, HOLDING_THE_GIL)
    said = done.stdout + done.stderr
    assert done.returncode == 1, said
    assert "Timeout (0:00:06)!" in said, said  # the C watchdog: the limit of 3 s again after it
    assert "in test_holds_the_gil" in said and "AFTER RAN" not in said


def test_tests_each_under_the_limit_pass_though_together_over_it(tmp_path):
    done = _run(tmp_path, SLOW_BUT_HEALTHY)
    said = done.stdout + done.stderr
    assert done.returncode == 0 and "3 passed" in said and "HANG" not in said, said
