"""Dartship's core: the games' rules, the service that runs any game, storage, settings, ports.

Pure Python: nothing here but the shell (`kiosk/app/`) imports Kivy, GPIO or a web framework.
The house and its rules are described in docs/design.md.
"""

__version__ = "0.1.0"

import os as _os

# The AI's matrices are small (a few thousand rows by 81 or 100 cells): a threaded BLAS only adds
# overhead there, and its threads fight the kiosk over the Pi's cores. One thread unless the
# environment says otherwise; set here, before any room's AI imports numpy.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    _os.environ.setdefault(_name, "1")
