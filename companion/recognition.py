"""The recognition loop: the latest camera frame, read, settled, and handed to the game.

Runs on its own thread beside the capture thread, so recognition never blocks the web
server. While Toss Up! runs it reads dice, votes over still frames with
:class:`vision.settle.DiceSettler` and gives one settled reading per roll to the
:class:`~companion.camera_link.DiceLink`. While a card game with a camera hook
(``from_cards``) runs and a deck for it has been taught (``<decks>/<game-id>/``), it
names the cards, settles them with :class:`vision.settle.CardSettler` and hands each
new set to the :class:`~companion.camera_link.CardLink`.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

from companion.camera_link import CardLink, DiceLink
from companion.session import Session
from vision.dice import read_dice
from vision.hand import HandWatcher
from vision.results import CardReading, DiceReading
from vision.settle import CardSettler, DiceSettler, small_grey, small_motion

log = logging.getLogger(__name__)

DICE_GAMES = frozenset({"toss-up"})


#: Motion score above which the picture is another scene, not a hand coming in.
SCENE_CHANGE = 30.0


class Recognizer:
    """Reads the capture thread's latest frame a few times a second.

    Parameters
    ----------
    latest : returns the newest frame, (H, W, 3) uint8 BGR, or None (``CaptureThread.latest``).
    session : the table's session; its current game decides what to look for.
    link : where settled dice readings go.
    calibration : this table's dice calibration (``vision.calibrate``), or None.
    clock : monotonic seconds, for the settler's timing.
    interval : seconds between reads.
    """

    def __init__(self, latest: Callable[[], np.ndarray | None], session: Session, *,
                 link: DiceLink, card_link: CardLink | None = None,
                 decks: str | Path | None = None, calibration: Any = None,
                 clock: Callable[[], float] = time.monotonic, interval: float = 0.1) -> None:
        self._latest, self.session, self.link = latest, session, link
        self.card_link, self.decks = card_link, None if decks is None else Path(decks)
        self.calibration = calibration
        self.interval = interval
        self.settler = DiceSettler(clock=clock)
        self.card_settler = CardSettler()
        self.hand_watcher = HandWatcher()  # .last.hand: a hand or an arm is over the table
        # the current card game's loaded deck, in the reader that reads frames with it
        # in turn (vision.cards_track.CardReader), or None
        self._card_reader: Any = None
        self._deck_stamp: int | None = None  # its folder's change time when it was loaded
        self._lock = threading.Lock()
        self._frame: np.ndarray | None = None
        self._reading: DiceReading | CardReading | None = None
        self._game: str | None = None
        self.frames = 0  # new frames looked at (not counting repeats of the same frame)
        self.reads = 0  # frames the dice reader read (only still ones awaiting a decision)
        self._read_frame: np.ndarray | None = None  # the frame last read for dice ...
        self._last_read: DiceReading | None = None  # ... and its reading
        self._small: tuple[np.ndarray | None, np.ndarray | None] = (None, None)  # frame, small grey
        self.failures = 0  # steps that raised (logged at most once a minute)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def snapshot(self) -> tuple[np.ndarray | None, DiceReading | CardReading | None]:
        """The last frame looked at and what was read in it (for the live preview)."""
        with self._lock:
            return self._frame, self._reading

    def confirm(self, shown: Any = None) -> dict[str, Any]:
        """Apply what the camera offers (host tap or confirm button); the new state.
        ``shown``: the offer the host's screen showed, refused when the camera's is another.

        :raises NotNow: nothing offered, another offer than ``shown``, or the game moved on.
        """
        if self._game in DICE_GAMES or self.card_link is None:
            return self.link.confirm(shown)
        return self.card_link.confirm(shown)

    def step(self) -> None:
        """Look at the newest frame once: feed the settler, pass on a decision.

        Motion and the hand flag come first (cheap); the dice are read only on a still
        frame with no hand while the roll awaits its decision: a frame the settler would
        throw away (things moving) or not need (the roll decided) is not read. The preview
        shows no reading while things move, and the last one while the table stays still.
        """
        frame = self._latest()
        game = self.session.state().get("game")
        stamp = self._deck_stamp_of(game)
        if game != self._game or stamp != self._deck_stamp:
            if game != self._game:
                self._game = game
                self.settler.reset()
                self.hand_watcher.reset()  # its table picture may be stale: learn it again
            self._deck_stamp = stamp  # a deck taught (or changed) while running is reloaded
            self._card_reader = self._load_reader(game)
        if frame is None:
            return
        with self._lock:
            previous, last_reading = self._frame, self._reading
        if game not in DICE_GAMES:
            if self._card_reader is None:
                with self._lock:
                    self._frame, self._reading = frame, None
                return
            self._step_cards(frame, previous, last_reading)
            return
        if frame is previous:
            motion = 0.0  # the camera has no newer frame: still
        else:
            change, motion = self._motion(previous, frame)  # the whole picture, its peak
            self._watch_hand(frame, change)
            self.frames += 1
        hand = self.hand_watcher.last.hand
        reading = None
        if self.settler.can_use_reading(motion=motion, hand=hand):
            reading = self._read_dice(frame)
            shown: DiceReading | None = reading
        elif hand or motion > self.settler.max_motion:
            shown = None  # moving dice or a hand: no stale outlines on the preview
        else:
            shown = last_reading if isinstance(last_reading, DiceReading) else None
        with self._lock:
            self._frame, self._reading = frame, shown
        decision = self.settler.feed(reading, motion=motion, hand=hand)
        if decision is not None:
            self.link.on_reading(decision.reading if decision.settled else None)

    def _motion(self, previous: np.ndarray | None, frame: np.ndarray) -> tuple[float, float]:
        """``vision.settle.motion_scores``, the previous frame's small picture kept from the
        step before rather than made again."""
        small = small_grey(frame)
        last, last_small = self._small
        self._small = (frame, small)
        if previous is None or previous.shape != frame.shape:
            return 255.0, 255.0
        if last is previous and last_small is not None:
            return small_motion(last_small, small)
        return small_motion(small_grey(previous), small)

    def _read_dice(self, frame: np.ndarray) -> DiceReading:
        """The dice in `frame`, read once per frame (a repeated frame reuses its reading)."""
        if frame is not self._read_frame or self._last_read is None:
            self._last_read = read_dice(frame, calibration=self.calibration)
            self._read_frame = frame
            self.reads += 1
        return self._last_read

    def _watch_hand(self, frame: np.ndarray, motion: float) -> None:
        """Look for a hand over the table; the phones see ``hand`` (true while one is).

        A change of the whole picture (the camera moved, the light switched, a replay of
        photos of other tables) makes the watcher learn the table again: an arm coming in
        moves far less of the picture (motion 4-21 against 34 and more for a new table).
        """
        if motion > SCENE_CHANGE:
            self.hand_watcher.reset()
        self.hand_watcher.update(frame)
        self.session.set_extra("hand", self.hand_watcher.last.hand)

    def _deck_stamp_of(self, game: str | None) -> int | None:
        """When the game's deck folder last gained, lost or renamed a file; None if none.

        Teaching (``companion.deck_teach``) renames each face into place, so a face taught
        on the host page or at the command line changes this.
        """
        if self.decks is None or game is None or game in DICE_GAMES:
            return None
        try:
            return (self.decks / game).stat().st_mtime_ns
        except OSError:
            return None

    def _load_reader(self, game: str | None) -> Any:
        """A card reader with the taught deck of a card game with a camera hook, or None
        (said once on phones)."""
        self.card_settler.reset()
        if self.card_link is None or self.decks is None or game is None:
            return None
        if not hasattr(self.session.game, "from_cards"):
            return None
        self.card_link.reset()
        from vision.cards_track import CardReader
        from vision.deck import load_deck

        folder = self.decks / game
        try:
            deck = load_deck(folder)
        except (ValueError, OSError):
            self.card_link.on_cards((), message=(
                "No deck taught for this game yet: open Teach cards on the host page, "
                f"or run companion deck learn --game {game}."))
            return None
        return CardReader(deck)

    def _step_cards(self, frame: np.ndarray, previous: np.ndarray | None,
                    last: DiceReading | CardReading | None) -> None:
        if frame is previous and isinstance(last, CardReading):
            reading, motion = last, 0.0
        else:
            # a still table is not read again; a card that lands is looked for where it changed
            reading = self._card_reader.read(frame)
            motion = self._motion(previous, frame)[0]
            self._watch_hand(frame, motion)
            self.frames += 1
        with self._lock:
            self._frame, self._reading = frame, reading
        settled = self.card_settler.feed(reading.ids, motion=motion,
                                         hand=self.hand_watcher.last.hand)
        if settled is not None and self.card_link is not None:
            unsure = tuple((sight.best_guess, sight.runner_up) for sight in reading.unsure)
            self.card_link.on_cards(settled, unsure=unsure)

    # -- the thread ------------------------------------------------------------------

    def start(self) -> None:
        """Start the recognition thread."""
        self._thread = threading.Thread(target=self._run, name="recognition", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the recognition thread, waiting up to ``timeout`` seconds for it."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        last_logged = float("-inf")
        while not self._stop.is_set():
            started = time.monotonic()
            try:
                self.step()
            except Exception:  # a bad frame must not end recognition for the evening
                self.failures += 1
                if started - last_logged >= 60:  # a broken camera fails 10 times a second
                    log.exception("recognition step failed (%d times so far)", self.failures)
                    last_logged = started
            self._stop.wait(max(0.0, self.interval - (time.monotonic() - started)))
