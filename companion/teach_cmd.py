"""``companion deck learn --game GAME_ID``: teach a game's cards at the terminal, live.

The user shows each face the game needs under the camera and presses Enter; the logic of
a capture and of the run is :mod:`companion.deck_teach`. (``--from DIR`` teaches from a
folder of photos instead: :func:`companion.cards_cmd.learn_from_folder`.)
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable

import numpy as np

from companion.deck_teach import (TeachRun, card_faces, deck_folder, describe,
                                  settled_frame)
from companion.errors import InvalidAction, NotNow
from companion.games import find_game


def learn_live(run: TeachRun, read: Callable[[], np.ndarray | None], *,
               ask: Callable[[str], str] = input, say: Callable[[str], None] = print,
               still: int = 3) -> int:
    """Walk the run's faces at the terminal: Enter captures, s skips, r redoes, q quits.

    ``read`` is the camera's ``read``; each capture waits for ``still`` calm frames.
    Returns how many faces were saved.
    """
    name = find_game(run.game).NAME
    say(f"Teaching {name}: {len(run.queue)} card faces into {run.folder}")
    say("Put each card face up under the camera, alone, and press Enter. "
        "s = skip it, r = redo the last one, q = quit.")
    saved = 0
    while (face := run.current) is not None:
        try:
            answer = ask(f"[{run.position + 1}/{len(run.queue)}] Show {face.name} "
                         f"({face.id}): ").strip().lower()
        except EOFError:
            answer = "q"
        if answer in ("q", "quit"):
            break
        if answer in ("s", "skip"):
            run.skip()
        elif answer in ("r", "redo"):
            run.back()
        elif answer:
            say("Press Enter to capture the card, or s (skip), r (redo), q (quit).")
        else:
            try:
                path = run.capture(settled_frame(read, still=still))
            except NotNow as exc:
                say(str(exc))
                continue
            saved += 1
            say(f"  learned {face.name}: {path}")
    missing = run.untaught()
    say(f"Saved {saved} card face{'s' if saved != 1 else ''}. "
        + (f"Still to teach: {describe(missing)}." if missing else
           f"Every card of {name} is taught."))
    return saved


def learn_command(args: Any) -> int:
    """``companion deck learn --game GAME_ID``: exit 0, 1 for a camera failure, 2 for usage."""
    from hardware.camera import CameraError, NullCamera, open_camera, parse_camera_spec
    from hardware.replay import ReplayCamera

    from companion.config import ConfigError, load_config, resolve_data_dir

    prog = "companion deck learn"
    data = resolve_data_dir(args.data_dir)
    try:
        card_faces(args.game)
        camera_spec = args.camera or load_config(data).camera
        spec = parse_camera_spec(camera_spec)
    except (InvalidAction, ConfigError, CameraError) as exc:
        return _fail(prog, str(exc), 2)
    if spec.kind == "none":
        return _fail(prog, "teaching needs a camera; --camera none has none "
                           "(or teach from photos: --from DIR).", 2)
    folder = Path(args.deck) if args.deck else deck_folder(data, args.game)
    run = TeachRun.start(args.game, folder, every=args.all)
    if run.is_done:
        print(f"Every card of {args.game} is taught in {folder}; "
              "use --all to show them again.")
        return 0
    try:
        # A replay camera gives its next recorded picture at each capture, without pacing.
        camera = (ReplayCamera(spec.path, fps=None) if spec.kind == "replay"
                  else open_camera(spec, log=lambda line: None))  # its reasons come below
    except CameraError as exc:
        return _fail(prog, f"--camera {camera_spec}: {exc}", 2 if spec.kind == "replay" else 1)
    if isinstance(camera, NullCamera):  # auto found none: every capture would fail
        why = "; ".join(f"{backend}: {reason}" for backend, reason in camera.skipped)
        return _fail(prog, "no camera found" + (f" ({why})" if why else "") + "; connect "
                           "one or name it with --camera, or teach from photos: --from DIR.", 1)
    with camera:
        try:
            learn_live(run, camera.read, still=1 if spec.kind == "replay" else 3,
                       say=lambda line: print(line, flush=True))
        except (CameraError, OSError) as exc:
            return _fail(prog, str(getattr(exc, "strerror", None) or exc), 1)
    return 0


def _fail(prog: str, message: str, status: int) -> int:
    print(f"{prog}: {message}", file=sys.stderr)
    return status
