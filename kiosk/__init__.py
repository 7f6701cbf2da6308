"""Dartship's core: the games' rules, the service that runs any game, storage, settings, ports.

Pure Python: nothing here but the shell (`kiosk/app/`) imports Kivy, GPIO or a web framework.
The house and its rules are described in docs/design.md.
"""

__version__ = "0.1.0"
