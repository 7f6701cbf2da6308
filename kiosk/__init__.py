"""Dartship's core: rules, match flow, storage, config and the `dartship` command.

Pure Python: nothing here imports Kivy, GPIO or a web framework (see docs/design.md).
"""

__version__ = "0.1.0"
