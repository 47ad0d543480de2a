"""``companion serve``: wire the camera, buttons, session and web server, then run.

The only module besides the CLI that imports ``web`` and ``hardware``.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import sys
import threading
from pathlib import Path
from typing import Any

from companion.controls import Controls
from companion.journal import Journal
from companion.session import Session

log = logging.getLogger("companion")

DEMO_FRAMES = Path(__file__).parent / "demo" / "frames"
DEMO_PLAYERS = ["Ann", "Ben", "Cleo"]
DEFAULT_PORT = 8000
DEMO_FPS = 0.25  # the demo's replay camera shows each recorded table for 4 s


def data_dir(args: argparse.Namespace) -> Path:
    """The data folder: --data-dir, else $COMPANION_DATA_DIR, else a per-user default."""
    chosen = args.data_dir or os.environ.get("COMPANION_DATA_DIR")
    if chosen:
        return Path(chosen).expanduser()
    if args.demo:
        return Path("data") / "demo"
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "companion"


def lan_address() -> str:
    """This machine's address on the local network, for phones (by IP, not a .local name).

    Connecting a UDP socket sends nothing; it only asks the kernel which interface
    would route there.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never contacted
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def serve(args: argparse.Namespace) -> int:
    """Run until Ctrl-C or SIGTERM; return the exit status."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s",
                        datefmt="%H:%M:%S")
    folder = data_dir(args)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        journal = Journal(folder)
    except OSError as exc:
        print(f"companion serve: cannot use the data folder {folder}: {exc.strerror or exc}",
              file=sys.stderr)
        return 1
    session = Session(journal)
    if args.demo:
        _start_demo_game(session)

    from hardware.camera import CameraError, open_camera
    from web.app import create_app
    from web.server import make_server

    spec = args.camera or os.environ.get("COMPANION_CAMERA") or (
        f"replay:{DEMO_FRAMES}" if args.demo else "auto")
    try:
        open_camera(spec, probe=True)
    except CameraError as exc:
        print(f"companion serve: --camera {spec}: {exc}", file=sys.stderr)
        return 2
    capture, recognizer = _camera(spec, session, demo=args.demo)
    buttons = _open_buttons()

    config: dict[str, Any] = {"DATA_DIR": str(folder)}
    if args.pin:  # else $COMPANION_PIN, else one made once and kept in the data folder
        config["PIN"] = args.pin
    try:
        app = create_app(config, session=session, camera=recognizer)
    except ValueError as exc:
        print(f"companion serve: {exc}", file=sys.stderr)
        return 2
    pin = str(app.config["PIN"])
    host = args.host or "0.0.0.0"
    port = DEFAULT_PORT if args.port is None else args.port
    try:
        server = make_server(app, host, port)
    except OSError as exc:
        print(f"companion serve: cannot listen on {host}:{port}: {exc.strerror or exc}",
              file=sys.stderr)
        return 1

    stop = threading.Event()
    workers = [threading.Thread(target=_tick, args=(session, stop), name="timers")]
    if buttons is not None:
        workers.append(threading.Thread(target=_buttons_loop, name="buttons",
                                        args=(buttons, Controls(session, camera=recognizer),
                                              stop)))
    if capture is not None:
        capture.start()
        recognizer.start()
    for worker in workers:
        worker.start()
    _announce(server.port, host, pin, folder, spec)

    def _shutdown(*_: Any) -> None:
        stop.set()
        server.close()

    signal.signal(signal.SIGTERM, _shutdown)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        _shutdown()
        if capture is not None:
            recognizer.stop()
            capture.stop()
        for worker in workers:
            worker.join(timeout=2)
        if buttons is not None:
            buttons.close()
        journal.close()
    return 0


def _start_demo_game(session: Session) -> None:
    """Demo: a Toss Up! game ready to play, unless one is already under way."""
    state = session.state()
    if state["game"] is None or state["over"]:
        session.start("toss-up", DEMO_PLAYERS)


def _announce(port: int, host: str, pin: str, folder: Path, camera: str) -> None:
    address = lan_address() if host in ("0.0.0.0", "::", "") else host
    print(f"""
  companion is running.
    Scoreboard (phones): http://{address}:{port}/
    Host page:           http://{address}:{port}/host    PIN {pin}
    Data folder:         {folder}
    Camera:              {camera}
  Press Ctrl-C to stop.
""", flush=True)


def _tick(session: Session, stop: threading.Event) -> None:
    """Fire game timers (``Session.tick``) a few times a second."""
    while not stop.wait(0.1):
        try:
            while session.tick() is not None:
                pass
        except Exception:  # a broken timer must not stop the table
            log.exception("timer tick failed")


def _camera(spec: str, session: Session, *, demo: bool) -> tuple[Any, Any]:
    """The capture thread and the recognition loop, or (None, None) for ``--camera none``."""
    from hardware.camera import open_camera
    from hardware.capture import CaptureThread

    from companion.camera_link import DiceLink
    from companion.recognition import Recognizer

    if spec == "none":
        session.set_extra("camera", {"online": False, "status": "no camera"})
        return None, None
    # The demo holds each recorded table for a few seconds, as dice lie still after a roll.
    fps = DEMO_FPS if demo else 10.0
    capture = CaptureThread(lambda: open_camera(spec, replay_fps=fps),
                            stall_seconds=max(5.0, 3 / fps),
                            on_status=lambda status: session.set_extra("camera", status))
    recognizer = Recognizer(capture.latest, session, link=DiceLink(session))
    return capture, recognizer


def _open_buttons() -> Any:
    """Buttons on the Pi's GPIO, or None (one log line) where there is no GPIO."""
    from hardware.buttons import Buttons, DEFAULT_PINS, GPIOUnavailable

    try:
        return Buttons(DEFAULT_PINS)
    except GPIOUnavailable as exc:
        log.info("no push buttons: %s", exc)
        return None


def _buttons_loop(buttons: Any, controls: Controls, stop: threading.Event) -> None:
    while not stop.is_set():
        event = buttons.get(timeout=0.5)
        if event is not None:
            log.info("button %s (%s): %s", event.name, event.kind,
                     controls.handle(event.name, event.kind))
