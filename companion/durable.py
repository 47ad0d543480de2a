"""fsync a file or a folder by its path: what makes a write, or a rename in a folder, reach
the disk before the program says it is done (a power cut on a Pi's SD card loses the rest).

Shared by the writers that publish by rename: the settings file (``config``), a taught card
face (``deck_teach``) and a restored data folder (``restore``).
"""

from __future__ import annotations

import os


def fsync_path(path: str | os.PathLike[str]) -> None:
    """Flush the file or folder at `path` to the disk (for a folder: its entries, renames
    included).

    :raises OSError: `path` cannot be opened (missing, no permission).
    """
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
