"""A probe that holds its place: it says which display it has and sleeps until it is killed
(tests/ui/test_probe_dies.py kills the test run that waits for it)."""

from __future__ import annotations

import json
import os
import time

print(json.dumps({"display": os.environ.get("DISPLAY")}), flush=True)
time.sleep(600)
