"""``companion serve``: wire the camera, buttons, session and web server, then run.

The only module besides the CLI that imports ``web`` and ``hardware``.
"""

from __future__ import annotations

import argparse
import logging
import signal
import socket
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from companion.calibration import load_calibration
from companion.cli import config_overrides
from companion.config import Config, ConfigError, load_config, resolve_data_dir
from companion.controls import Controls
from companion.data_lock import Held, hold_shared
from companion.indicators import Indicators
from companion.journal import Journal, JournalBusy
from companion.restore import finish_restore
from companion.session import Session

log = logging.getLogger("companion")

DEMO_FRAMES = Path(__file__).parent / "demo" / "frames"
DEMO_PLAYERS = ["Ann", "Ben", "Cleo"]
DEMO_FPS = 0.25  # the demo's replay camera shows each recorded table for 4 s
#: What --demo changes (below companion.toml, the environment and flags).
DEMO_SETTINGS = {"camera": {"spec": f"replay:{DEMO_FRAMES}", "replay_fps": DEMO_FPS}}


def data_dir(args: argparse.Namespace) -> Path:
    """The data folder: --data-dir, else $COMPANION_DATA_DIR, else a per-user default."""
    return resolve_data_dir(args.data_dir, demo=bool(getattr(args, "demo", False)))


def serve(args: argparse.Namespace) -> int:
    """Run until Ctrl-C or SIGTERM; return the exit status."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s",
                        datefmt="%H:%M:%S")
    folder = data_dir(args)
    opened = _open_data(args, folder)
    if isinstance(opened, int):
        return opened
    config, calibration, journal, held = opened
    with held:
        return _serve_folder(args, folder, config=config, calibration=calibration,
                             journal=journal)


def _serve_folder(args: argparse.Namespace, folder: Path, *, config: Config,
                  calibration: Any, journal: Journal) -> int:
    """Run on the opened data folder `folder` until Ctrl-C or SIGTERM; the exit status."""
    session = Session(journal)
    if args.demo:
        _start_demo_game(session)

    from hardware.camera import CameraError, open_camera

    spec = config.camera
    try:
        open_camera(spec, probe=True)
    except CameraError as exc:
        print(f"companion serve: --camera {spec}: {exc}", file=sys.stderr)
        journal.close()
        return 2
    indicators = _indicators(config, session)
    capture, recognizer = _camera(config, session, indicators, calibration,
                                  decks=folder / "decks")
    buttons = _open_buttons(config)
    served = _server(args, config, folder, session, recognizer)
    if isinstance(served, int):
        indicators.outputs.close()
        journal.close()
        return served
    server, pin = served

    table = _Table(session, indicators, capture, recognizer, buttons)
    try:
        _run(server, table, lambda: _announce(server.port, config.host, pin, folder, spec))
    finally:
        journal.close()
    return 0


def _open_data(args: argparse.Namespace,
               folder: Path) -> tuple[Config, Any, Journal, Held] | int:
    """The settings, the dice calibration, the journal in ``folder`` and this server's
    hold on it (a restore refuses while it is held); or, after one line on stderr, the
    exit status (2: a bad setting, 1: the data folder cannot be used)."""
    if args.pin is not None and not args.pin.strip():
        print("companion serve: --pin is empty: give the host PIN, or leave --pin out to keep "
              "the one stored in the data folder", file=sys.stderr)
        return 2
    held = Held(None)
    try:  # the folder first: a running restore finishes before anything in it is read
        finished = None
        if not folder.exists():  # a restore killed between its renames: its copy becomes it
            finished = finish_restore(folder)
        if folder.exists():
            held = hold_shared(folder)
            finished = finish_restore(folder) or finished  # companion.toml may be in its copy
    except OSError as exc:
        held.close()
        print(f"companion serve: cannot use the data folder {folder}: {exc.strerror or exc}",
              file=sys.stderr)
        return 1
    if finished:
        log.warning("%s", finished)
    try:
        config = load_config(folder, overrides=config_overrides(args),
                             base=DEMO_SETTINGS if args.demo else None)
        calibration = load_calibration(config)
        _check_address(config.host, config.port)
    except ConfigError as exc:
        held.close()
        print(f"companion serve: {exc}", file=sys.stderr)
        return 2
    try:
        if not folder.exists():  # a new data folder (not made for a refused setting)
            folder.mkdir(parents=True, exist_ok=True)
            held = hold_shared(folder)
        journal = Journal(folder)
    except OSError as exc:
        held.close()
        print(f"companion serve: cannot use the data folder {folder}: {exc.strerror or exc}",
              file=sys.stderr)
        return 1
    except JournalBusy as exc:  # another program holds it: nothing was moved
        held.close()
        print(f"companion serve: {exc}", file=sys.stderr)
        return 1
    return config, calibration, journal, held


def _check_address(host: str, port: int) -> None:
    """Look ``host`` up as the server will, before anything starts (waitress would raise a
    bare ValueError for a name that does not resolve, after the journal was opened).

    :raises ConfigError: the address does not resolve on this machine.
    """
    try:
        socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ConfigError(f"server.host {host!r} cannot be looked up "
                          f"({reason}); use 0.0.0.0 for every network or 127.0.0.1 for "
                          "this machine alone.") from None


def _server(args: argparse.Namespace, config: Config, folder: Path, session: Session,
            recognizer: Any) -> tuple[Any, str] | int:
    """The web app's server on the configured address and the host PIN; or, after one line
    on stderr, the exit status (2: the app refused a setting, 1: the address is taken)."""
    from web.app import create_app
    from web.server import make_server

    web_config: dict[str, Any] = {"DATA_DIR": str(folder)}
    if args.pin:  # else $COMPANION_PIN, else one made once and kept in the data folder
        web_config["PIN"] = args.pin
    try:
        app = create_app(web_config, session=session, camera=recognizer)
    except ValueError as exc:
        print(f"companion serve: {exc}", file=sys.stderr)
        return 2
    try:
        server = make_server(app, config.host, config.port)
    except ValueError:  # waitress's "Invalid host/port" when a lookup fails after the check
        print(f"companion serve: cannot listen on {config.host}:{config.port}: the address "
              "does not resolve", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"companion serve: cannot listen on {config.host}:{config.port}: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return 1
    return server, str(app.config["PIN"])


@dataclass(frozen=True)
class _Table:
    """What ``serve`` wired to the session: ``capture`` and ``recognizer`` are None
    without a camera, ``buttons`` None without GPIO buttons."""

    session: Session
    indicators: Indicators
    capture: Any
    recognizer: Any
    buttons: Any


def _run(server: Any, table: _Table, announce: Callable[[], None]) -> None:
    """Serve until Ctrl-C or SIGTERM beside the timer, button and camera threads; then stop
    them and close the devices (the journal stays open: it is the caller's)."""
    stop = threading.Event()
    session, capture, recognizer, buttons = (table.session, table.capture, table.recognizer,
                                             table.buttons)
    workers = [threading.Thread(target=_tick, args=(session, table.indicators, stop),
                                name="timers")]
    if buttons is not None:
        workers.append(threading.Thread(target=_buttons_loop, name="buttons",
                                        args=(buttons, Controls(session, camera=recognizer),
                                              stop)))
    if capture is not None:
        capture.start()
        recognizer.start()
    for worker in workers:
        worker.start()

    def _on_sigterm(*_: Any) -> None:
        # The handler runs on the main thread, inside the server loop's select(): closing
        # the sockets there breaks the loop, so another thread closes through its trigger.
        stop.set()
        threading.Thread(target=server.close, name="sigterm", daemon=True).start()

    signal.signal(signal.SIGTERM, _on_sigterm)
    # Announce only once SIGTERM is handled: a supervisor may stop us right after it.
    try:
        announce()
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        server.close()
        if capture is not None:
            recognizer.stop()
            capture.stop()
        for worker in workers:
            worker.join(timeout=2)
        if buttons is not None:
            buttons.close()
        table.indicators.close()
        table.indicators.outputs.close()


def _start_demo_game(session: Session) -> None:
    """Demo: a Toss Up! game ready to play on a data folder that never had one. A game
    played there before, finished or not, is kept: a restart gives back the same state."""
    if session.state()["game"] is None:
        session.start("toss-up", DEMO_PLAYERS)


def _announce(port: int, host: str, pin: str, folder: Path, camera: str) -> None:
    """Print where phones connect (by IP: phones resolve ``.local`` names unreliably)."""
    from web.qr import lan_address

    address = (lan_address() or "127.0.0.1") if host in ("0.0.0.0", "::", "") else host
    url = f"http://{address}:{port}/"
    try:
        _print_banner(url, pin, folder, camera)
    except OSError as exc:  # stdout closed (``| head``, a closed terminal): serve on
        sys.stdout = None  # type: ignore[assignment]  # print() then writes nothing
        log.warning("could not print the address (%s); scoreboard %s, host page %shost",
                    exc.strerror or exc, url, url)


def _print_banner(url: str, pin: str, folder: Path, camera: str) -> None:
    from web.qr import terminal_qr

    print(f"""
{terminal_qr(url)}

  companion is running. Scan the code, or open on any phone on this Wi-Fi:
    Scoreboard (phones): {url}
    Host page:           {url}host    PIN {pin}
    Data folder:         {folder}
    Camera:              {camera}
  Press Ctrl-C to stop.
""", flush=True)


def _tick(session: Session, indicators: Indicators, stop: threading.Event) -> None:
    """Fire game timers (``Session.tick``) and due beeps a few times a second."""
    while not stop.wait(0.1):
        try:
            indicators.tick()
            while session.tick() is not None:
                pass
        except Exception:  # a broken timer must not stop the table
            log.exception("timer tick failed")


def _indicators(config: Config, session: Session) -> Indicators:
    """Status LEDs and buzzer on the configured pins (nothing, one log line, off a Pi)."""
    from hardware.outputs import NullOutputs, open_outputs

    try:
        outputs = open_outputs(dict(config.leds), buzzer=config.buzzer)
    except ImportError as exc:  # gpiozero not installed at all
        log.info("no status LEDs or buzzer: %s", exc)
        outputs = NullOutputs()
    indicators = Indicators(outputs, clock=session.clock)
    session.add_listener(indicators.on_change)
    indicators.start(session.state())
    return indicators


def _camera(config: Config, session: Session, indicators: Indicators,
            calibration: Any, decks: Path) -> tuple[Any, Any]:
    """The capture thread and the recognition loop, or (None, None) for ``--camera none``.

    ``decks`` holds one taught deck folder per card game (``decks/sorry-21/``).
    """
    from hardware.camera import open_camera, parse_camera_spec
    from hardware.capture import CaptureThread

    from companion.camera_link import CardLink, DiceLink
    from companion.recognition import Recognizer

    spec, fps = config.camera, config.replay_fps
    # No `camera` in the state: the pages show no camera, not a broken one. Parsed, as the
    # camera opener does: "None" or " none" were read as a camera that never gave a frame.
    if parse_camera_spec(spec).kind == "none":
        return None, None

    def on_status(status: dict[str, Any]) -> None:
        session.set_extra("camera", status)
        indicators.on_camera(status)

    capture = CaptureThread(lambda: open_camera(spec, replay_fps=fps),
                            stall_seconds=max(5.0, 3 / fps), on_status=on_status)
    auto = config.dice == "auto"
    recognizer = Recognizer(capture.latest, session, calibration=calibration,
                            link=DiceLink(session, auto=auto),
                            card_link=CardLink(session, auto=auto), decks=decks)
    return capture, recognizer


def _open_buttons(config: Config) -> Any:
    """Buttons on the configured GPIO pins, or None (one log line) where there is no GPIO."""
    from hardware.buttons import open_buttons

    if not config.buttons:
        return None
    try:
        return open_buttons(dict(config.buttons), hold_seconds=config.hold_seconds,
                            bounce_seconds=config.bounce_seconds)
    except ImportError as exc:  # gpiozero not installed at all
        log.info("no push buttons: %s", exc)
        return None


def _buttons_loop(buttons: Any, controls: Controls, stop: threading.Event) -> None:
    while not stop.is_set():
        event = buttons.get(timeout=0.5)
        if event is not None:
            log.info("button %s (%s): %s", event.name, event.kind,
                     controls.handle(event.name, event.kind, at=event.at))
