"""The demo's table: its replay camera shows as many dice as the player holds.

``companion serve --demo`` plays recorded frames instead of a camera. A real player rolls
only the dice still in hand, so a Toss Up! turn past its first roll needs frames of fewer
dice: ``demo/fewer/K/`` holds recorded tables of K dice (K = 1..9, rendered by
``scenes.dice``), ``demo/frames/`` tables of all ten. :class:`DemoTable` asks the game how
many dice are in hand before each frame and plays that folder, so the camera's offer can
be confirmed roll after roll, as at a real table. Any other game, or none, plays the
ten-dice tables.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

DEMO = Path(__file__).parent / "demo"
FRAMES = DEMO / "frames"  # ten dice
FEWER = DEMO / "fewer"  # FEWER / "K": K dice


def dice_in_hand(state: dict[str, Any]) -> int | None:
    """The dice the player to act rolls next in a Toss Up! game under way, else None."""
    if state.get("game") != "toss-up" or state.get("over"):
        return None
    turn = state.get("turn") or {}
    count = turn.get("dice_in_hand")
    return count if isinstance(count, int) else None


class DemoTable:
    """A camera playing the recorded tables of as many dice as ``in_hand()`` says.

    Parameters
    ----------
    in_hand : callable
        The number of dice to show next, or None for the ten-dice tables.
    open_replay : callable
        Opens a replay camera on a folder (``hardware.replay.ReplayCamera``, paced); each
        folder's camera is opened once, when first shown, and kept.
    frames, fewer : Path
        The ten-dice folder and the folder of ``K/`` folders.
    """

    def __init__(self, in_hand: Callable[[], int | None], open_replay: Callable[[Path], Any],
                 *, frames: Path = FRAMES, fewer: Path = FEWER) -> None:
        self.name = f"demo table {frames.parent}"
        self._in_hand = in_hand
        self._open = open_replay
        self._frames = frames
        self._fewer = fewer
        self._cameras: dict[Path, Any] = {}

    def folder(self) -> Path:
        """The folder shown now: ``fewer/K`` for K dice in hand if it exists, else ``frames``."""
        count = self._in_hand()
        if count is not None:
            chosen = self._fewer / str(count)
            if chosen.is_dir():
                return chosen
        return self._frames

    def read(self) -> Any:
        """The next frame of the folder shown now (its camera's pace and errors)."""
        folder = self.folder()
        camera = self._cameras.get(folder)
        if camera is None:
            camera = self._cameras[folder] = self._open(folder)
        return camera.read()

    def close(self) -> None:
        """Close every folder's camera; calling it again does nothing."""
        cameras, self._cameras = self._cameras, {}
        for camera in cameras.values():
            camera.close()

    def __enter__(self) -> DemoTable:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
