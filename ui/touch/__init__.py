"""The kiosk's touchscreen: a Kivy app that runs a whole game (ISSUE 4).

Import order matters: `kivy_setup.configure` must run before anything imports
`kivy.core.window`, so the modules here import Kivy's widgets lazily or after it.
"""

import os

# Kivy parses sys.argv on import unless told not to: our argv belongs to `dartship`/pytest.
os.environ.setdefault("KIVY_NO_ARGS", "1")
