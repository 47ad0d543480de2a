"""The ``companion`` command: the root of the stack, where real devices are wired.

Imports of ``web``, ``hardware`` and the recognizers happen inside the command
functions, so ``companion detect`` never loads Flask and ``companion serve`` starts fast.
Exit status: 0 success, 1 a failure the output explains, 2 a usage error.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, NoReturn, Sequence

from companion import photo_help

_Raw = argparse.RawDescriptionHelpFormatter  # the help texts' own lines and examples


class _Parser(argparse.ArgumentParser):
    """argparse that exits with status 2 and a one-line message on a usage error.

    The line names the command typed (``companion detect dice``), the error and where its
    usage is (argparse's default prints the usage block first, a second line the contract
    does not want, and names the top-level command for a subcommand's unknown option).
    """

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see: {self.prog} --help)\n")

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None,
                         ) -> tuple[Any, list[str]]:
        """Parse as argparse does, but refuse an unknown option first, and any leftover.

        argparse runs a subcommand's parser with this method and reports its leftovers
        under the top-level command, and an unknown option only after a missing argument
        (``companion detect --bogus`` said "required: {dice,cards}").
        """
        args = list(sys.argv[1:] if args is None else args)
        unknown = self._unknown_options(args)
        if unknown:
            self.error(f"unrecognized arguments: {' '.join(unknown)}")
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras

    def _unknown_options(self, args: list[str]) -> list[str]:
        """The options in `args` this parser does not know, up to ``--`` or, for a parser
        with subcommands, up to the subcommand's name (its own parser reads the rest)."""
        unknown = []
        for arg in args:
            if arg == "--":
                break
            try:
                found: Any = self._parse_optional(arg)  # argparse's own reading of `arg`
            except argparse.ArgumentError as exc:  # an ambiguous abbreviation (3.13+)
                self.error(str(exc))
            if found is None:  # a value or a subcommand's name
                if self._subparsers is not None:
                    break
                continue
            if isinstance(found, list):  # Python 3.12.7+ lists the matching options
                found = found[0]
            if found[0] is None:
                unknown.append(arg)
        return unknown


def build_parser() -> argparse.ArgumentParser:
    """The ``companion`` command line: serve, config, record, detect, eval, deck and more."""
    parser = _Parser(prog="companion", description=(
        "A play companion for the game table: it sees the dice and cards, keeps score and "
        "serves a live scoreboard to the phones on this Wi-Fi."))
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser,
                                metavar="COMMAND")
    parser.add_argument("--version", action="version", version=f"companion {_version()}")
    for add in (_serve_parser, _config_parser, _record_parser, _calibrate_parser,
                _detect_parser, _eval_parser, _deck_parser, _install_parser,
                _backup_parser, _restore_parser):  # the order ``companion --help`` lists
        add(sub)
    return parser


def _version() -> str:
    """The installed companion's version (pyproject.toml's), or "unknown" from a bare tree."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("companion")
    except PackageNotFoundError:
        return "unknown"


def _backup_parser(sub: Any) -> None:
    """``companion backup DEST``: copy the data folder, the journal whole, even while running."""
    bk = sub.add_parser("backup", help="copy the data folder (journal, PIN, key, decks, "
                                       "settings) into a new folder, safely while it runs")
    bk.add_argument("dest", metavar="DEST", help="a new or empty folder")
    bk.add_argument("--data-dir", default=None, help=_DATA_DIR_HELP)


def _restore_parser(sub: Any) -> None:
    """``companion restore SRC``: the way back from ``companion backup``."""
    rs = sub.add_parser("restore", help="replace the data folder with a backup (the "
                                        "companion stopped; the replaced data is kept)")
    rs.add_argument("src", metavar="SRC", nargs="?", help="a folder `companion backup` wrote")
    rs.add_argument("--list", action="store_true",
                    help="list the data folders restores replaced (kept beside it), newest first")
    rs.add_argument("--keep", metavar="N", type=int, default=None,
                    help="remove all but the newest N of those copies (after restoring SRC, "
                         "if given); N is at least 1")
    rs.add_argument("--data-dir", default=None, help=_DATA_DIR_HELP)


def _serve_parser(sub: Any) -> None:
    """``companion serve``: the camera loop, buttons and web server."""
    serve = sub.add_parser(
        "serve", help="run the camera loop, buttons and web server", formatter_class=_Raw,
        epilog="environment: COMPANION_DATA_DIR (as --data-dir), COMPANION_PIN (as --pin),\n"
               "COMPANION_HOST, COMPANION_PORT; flags win over them, they over companion.toml.\n"
               "The data folder keeps the journal (companion.db), host-pin.txt, web-secret.key,\n"
               "decks/ and companion.toml: copy it with `companion backup DEST`.")
    serve.add_argument("--demo", action="store_true",
                       help="start a ready game with the replay camera on bundled images")
    serve.add_argument("--pin", default=None,
                       help="host PIN (default: the one kept in the data folder's "
                            "host-pin.txt, chosen at random on the first run and printed)")
    _config_flags(serve)


def _config_parser(sub: Any) -> None:
    """``companion config``: print the effective settings."""
    conf = sub.add_parser("config", help="print the effective settings as TOML "
                                         "(the data folder's companion.toml, then flags)")
    _config_flags(conf)
    conf.add_argument("--save", action="store_true",
                      help="write the settings (the data folder's companion.toml, then these "
                           "flags; not the environment's) back into that companion.toml "
                           "instead of printing them")


def _eval_parser(sub: Any) -> None:
    """``companion eval SUITE_DIR`` (CONTRACT.md: the recorded-image suite)."""
    ev = sub.add_parser("eval", help="score the recognizer on a recorded-image suite",
                        epilog=photo_help.EVAL, formatter_class=_Raw)
    ev.add_argument("suite", metavar="SUITE_DIR",
                    help="folder with labels.json and the images it names")
    _calibration_flags(ev)


def _calibrate_parser(sub: Any) -> None:
    """``companion calibrate IMAGE``: learn this table's dice from one photo."""
    cal = sub.add_parser("calibrate", help="learn this table's dice (size, colours) from one "
                                           "photo of them, stored in companion.toml")
    cal.add_argument("image", metavar="IMAGE",
                     help="a photo from the table camera of your Toss Up! dice spread out, "
                          "tops of all three colours showing, nothing else on the table")
    cal.add_argument("--data-dir", default=None,
                     help="folder whose companion.toml stores it (default: as serve)")


def _calibration_flags(parser: argparse.ArgumentParser) -> None:
    """``--calibration FILE`` / ``--data-dir DIR`` of ``detect dice`` and ``eval``."""
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--calibration", default=None, metavar="FILE",
                       help="read dice with the calibration in FILE (a companion.toml, or "
                            "JSON as stored there)")
    which.add_argument("--data-dir", default=None,
                       help="read dice with the calibration of this data folder's "
                            "companion.toml")


def _deck_parser(sub: Any) -> None:
    """``companion deck learn``: teach a deck live (--game) or from photos (--from)."""
    deck = sub.add_parser("deck", help="teach a card deck")
    deck_cmds = deck.add_subparsers(dest="deck_command", required=True, parser_class=_Parser,
                                   metavar="learn")
    learn = deck_cmds.add_parser(
        "learn", help="teach a game's card faces live under the camera (--game), "
                      "or from photos named by card id (--from)",
        epilog=photo_help.LEARN, formatter_class=_Raw)
    learn.add_argument("--game", metavar="GAME_ID",
                       help="show each card this game needs under the camera, one at a "
                            "time (with --from: the game whose deck the photos teach)")
    learn.add_argument("--from", dest="photos", metavar="DIR",
                       help="folder of photos, one card each, named <card-id>.jpg")
    learn.add_argument("--deck", default=None, metavar="DECK_DIR",
                       help="deck folder the faces are written to (with --game: default "
                            "<data>/decks/GAME_ID, where the companion looks for it)")
    learn.add_argument("--camera", default=None,
                       help="--game: auto, picamera2, opencv:N or replay:PATH "
                            "(default: companion.toml's camera)")
    learn.add_argument("--data-dir", default=None,
                       help="--game: the data folder of the default deck folder and settings")
    learn.add_argument("--all", action="store_true",
                       help="--game: ask for every face, not only those not taught yet")


def _install_parser(sub: Any) -> None:
    """``companion install-service``: the start-at-boot files."""
    inst = sub.add_parser("install-service",
                          help="write a systemd unit and an Avahi file to start at boot")
    inst.add_argument("--dest", required=True, metavar="DIR",
                      help="folder to write companion.service and companion.avahi.service")
    inst.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    inst.add_argument("--camera", default="auto",
                      help="auto, picamera2, opencv:N, replay:PATH or none (default auto)")
    inst.add_argument("--data-dir", default=None,
                      help="folder for the journal and companion.toml")


def _record_parser(sub: Any) -> None:
    """``companion record``: capture labelled camera frames into a test suite."""
    rec = sub.add_parser("record", help="capture labelled camera frames into a test suite")
    rec.add_argument("--camera", required=True, help="auto, picamera2, opencv:N, replay:PATH")
    rec.add_argument("--suite", required=True, metavar="DIR",
                     help="suite folder (created if missing; labels.json is added to)")
    rec.add_argument("--kind", choices=("dice", "cards"), default="dice",
                     help="what the suite's images show (default dice)")
    rec.add_argument("--deck", default=None, metavar="DECK_DIR",
                     help="cards: the deck folder to note in labels.json (default: deck)")
    when = rec.add_mutually_exclusive_group()
    when.add_argument("--every", type=float, default=None, metavar="SECONDS",
                      help="capture every SECONDS (default: when Enter is pressed)")
    when.add_argument("--count", type=int, default=None, metavar="N",
                      help="stop after N images (with --label: N captures in a row)")
    rec.add_argument("--label", default=None,
                     help='the label of every capture: "3 4 3" (green yellow red) or card ids')


def _detect_parser(sub: Any) -> None:
    """``companion detect dice|cards --json IMAGE...`` (CONTRACT.md: the output format)."""
    detect = sub.add_parser("detect", help="recognize dice or cards in image files")
    kinds = detect.add_subparsers(dest="kind", required=True, parser_class=_Parser,
                                  metavar="{dice,cards}")
    dice = kinds.add_parser("dice", help="count Toss Up! dice by top-face colour")
    dice.add_argument("--json", action="store_true", required=True,
                      help="one JSON object per line (the only format)")
    dice.add_argument("images", nargs="+", metavar="IMAGE",
                      help="photos of the table from above (see below)")
    _calibration_flags(dice)
    cards = kinds.add_parser("cards", help="name the known card faces")
    cards.add_argument("--deck", required=True, metavar="DECK_DIR",
                       help="folder of the deck's faces, one <card-id>.png or .jpg each")
    cards.add_argument("--json", action="store_true", required=True,
                       help="one JSON object per line (the only format)")
    cards.add_argument("images", nargs="+", metavar="IMAGE",
                       help="photos of the table from above (see below)")
    for kind, text in ((dice, photo_help.DICE), (cards, photo_help.CARDS)):
        kind.epilog, kind.formatter_class = text, _Raw  # the output and the photos


_DATA_DIR_HELP = ("folder for the journal, host PIN, decks and companion.toml (default: "
                  "$COMPANION_DATA_DIR, else $XDG_DATA_HOME/companion, else "
                  "~/.local/share/companion; data/demo with --demo)")


def _config_flags(parser: argparse.ArgumentParser) -> None:
    """The settings flags shared by ``serve`` and ``config`` (they override companion.toml)."""
    parser.add_argument("--data-dir", default=None, help=_DATA_DIR_HELP)
    parser.add_argument("--host", default=None, help="address to listen on (default 0.0.0.0)")
    parser.add_argument("--port", type=int, default=None, help="port (default 8000)")
    parser.add_argument("--camera", default=None,
                        help="auto, picamera2, opencv:N, replay:PATH or none")
    parser.add_argument("--replay-fps", type=float, default=None, metavar="FPS",
                        help="frames per second of a replay camera (default 10)")
    parser.add_argument("--dice", choices=("confirm", "auto"), default=None,
                        help="confirm each roll the camera reads (default) or apply it")
    parser.add_argument("--buzzer", default=None, metavar="PIN",
                        help='BCM pin of the buzzer, or "none"')
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="any setting of companion.toml, e.g. buttons.pins.bank=5 "
                             "(repeatable)")


def config_overrides(args: argparse.Namespace) -> list[str]:
    """The ``--set`` items plus the dedicated flags, as ``section.key=value`` strings."""
    items = list(args.set)
    for flag, key in (("host", "server.host"), ("port", "server.port"),
                      ("camera", "camera.spec"), ("replay_fps", "camera.replay_fps"),
                      ("dice", "recognition.dice"), ("buzzer", "buzzer.pin")):
        value = getattr(args, flag, None)
        if value is not None:
            text = json.dumps(value) if isinstance(value, str) and flag != "buzzer" else value
            items.append(f"{key}={text}")
    return items


def main(argv: Sequence[str] | None = None) -> int:
    """Run one ``companion`` command and return its exit status (2: a usage error)."""
    # Before anything loads numpy: one OpenBLAS thread (see vision/__init__.py; ``serve``
    # loads numpy through hardware before vision, too late for vision's own setting).
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    args = build_parser().parse_args(argv)
    try:
        if args.command == "serve":
            from companion.serve import serve

            return serve(args)
        if args.command == "detect" and args.kind == "dice":
            from companion.dice_cmd import detect

            return detect(args.images, out=sys.stdout,
                          calibration=_chosen_calibration("detect dice", args))
        if args.command == "calibrate":
            from companion.calibration import calibrate_command
            from companion.config import resolve_data_dir

            return calibrate_command(args.image, resolve_data_dir(args.data_dir),
                                     out=sys.stdout, err=sys.stderr)
        if args.command == "detect":
            from companion.cards_cmd import detect as detect_cards

            return detect_cards(args.images, args.deck, out=sys.stdout)
        if args.command == "config":
            return _config(args)
        if args.command == "record":
            from companion.record import record_command

            return record_command(args)
        if args.command == "eval":
            return _eval(Path(args.suite), _chosen_calibration("eval", args))
        if args.command == "deck" and args.photos is None:
            if args.game is None:
                _usage_error("deck learn", "give --game GAME_ID or --from DIR")
            from companion.teach_cmd import learn_command

            return learn_command(args)
        if args.command == "deck":
            from companion.cards_cmd import learn_from_folder

            deck, cards = _photo_deck(args)
            return learn_from_folder(args.photos, deck, out=sys.stdout, cards=cards)
        if args.command == "install-service":
            return _install_service(args)
        if args.command == "backup":
            return _backup(args)
        if args.command == "restore":
            return _restore(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _reader_gone()
    return 2


#: The status of a command whose reader went: 128 + SIGPIPE, as a shell reports a tool
#: that signal ended (``yes | head -1``).
READER_GONE = 141


def _reader_gone() -> int:
    """The reader of standard output went (``companion eval SUITE | head -1``): stop quietly.

    Python ignores SIGPIPE, so the next write raised BrokenPipeError; standard output now
    goes to /dev/null, so the flush at exit raises nothing either ("Exception ignored").
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return READER_GONE


def _photo_deck(args: argparse.Namespace) -> tuple[Path, dict[str, str] | None]:
    """The deck folder ``deck learn --from DIR`` writes to: ``--deck``, else the folder the
    companion reads ``--game``'s deck from (``<data>/decks/GAME_ID``); and ``--game``'s
    card ids with their printed names (None without ``--game``), read once.

    :raises SystemExit: (2, after a one-line usage error) neither is given, or no such game.
    """
    from companion.config import resolve_data_dir
    from companion.deck_teach import card_faces, deck_folder
    from companion.errors import InvalidAction

    cards = None
    if args.game is not None:
        try:
            cards = {face.id: face.name for face in card_faces(args.game)}
        except InvalidAction as exc:
            _usage_error("deck learn", str(exc))
    if args.deck is not None:
        return Path(args.deck), cards
    if args.game is None:
        _usage_error("deck learn", "--from needs --deck DECK_DIR or --game GAME_ID")
    return deck_folder(resolve_data_dir(args.data_dir), args.game), cards


def _usage_error(command: str, message: str) -> NoReturn:
    """Exit 2 with the one-line usage error of ``companion COMMAND`` (a check after argparse's)."""
    _Parser(prog=f"companion {command}").error(message)


def _chosen_calibration(command: str, args: argparse.Namespace) -> Any:
    """The dice calibration ``--calibration FILE`` or ``--data-dir DIR`` names, or None.

    :raises SystemExit: (2, after one line) the file is unreadable or no calibration.
    """
    from companion.calibration import calibration_from

    if args.calibration is None and args.data_dir is None:
        return None
    try:
        return calibration_from(args.calibration, args.data_dir)
    except ValueError as exc:
        print(f"companion {command}: {' '.join(str(exc).split())}", file=sys.stderr)
        raise SystemExit(2) from None


def _eval(suite: Path, calibration: Any = None) -> int:
    """Read the suite's labels.json and hand it to the recognizer of its kind."""
    try:
        labels = json.loads((suite / "labels.json").read_text(encoding="utf-8"))
    except OSError as exc:
        print(f"companion eval: {suite}: no readable labels.json ({exc.strerror or exc})",
              file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"companion eval: {suite}: labels.json is not valid JSON ({exc})", file=sys.stderr)
        return 2
    kind = labels.get("kind") if isinstance(labels, dict) else None
    if kind is None:
        print(f'companion eval: {suite}: labels.json must be an object with "kind" (dice or '
              f'cards) and "images" (see: companion eval --help)', file=sys.stderr)
        return 2
    if kind in ("dice", "dice-count"):
        from functools import partial

        from companion.dice_cmd import evaluate

        evaluate = partial(evaluate, calibration=calibration)
    elif kind == "cards":
        from companion.cards_cmd import evaluate
    else:
        print(f"companion eval: unknown suite kind {kind!r} (dice or cards)", file=sys.stderr)
        return 2
    return evaluate(suite, labels, out=sys.stdout)


def _config(args: argparse.Namespace) -> int:
    """Print the effective settings as TOML (a valid companion.toml)."""
    from companion.config import (FILE_NAME, ConfigError, format_toml, load_config,
                                  resolve_data_dir, write_settings)
    from hardware.camera import CameraSpecError, parse_camera_spec

    data_dir = resolve_data_dir(args.data_dir)
    try:
        # saved: the file and the flags only, so a variable set for one run is not kept
        config = load_config(data_dir, env={} if args.save else None,
                             overrides=config_overrides(args))
        parse_camera_spec(config.camera)  # refused here as ``serve`` would refuse it
    except ConfigError as exc:
        print(f"companion config: {exc}", file=sys.stderr)
        return 2
    except CameraSpecError as exc:
        print(f"companion config: camera.spec: {exc}", file=sys.stderr)
        return 2
    if not args.save:
        sys.stdout.write(format_toml(config))
        return 0
    path = data_dir / FILE_NAME
    try:  # whole or not at all: a cut power never leaves half a file
        write_settings(path, format_toml(config, environment=False))
    except OSError as exc:
        print(f"companion config: cannot save {path}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"Saved the settings to {path}; `companion serve` uses them when it next starts.")
    return 0


def _install_service(args: argparse.Namespace) -> int:
    """Write the start-at-boot files into ``--dest`` and say how to enable them."""
    import getpass
    import shutil

    from hardware.service import ServiceSettings, enable_instructions, write_service_files

    program = shutil.which("companion") or str(Path(sys.argv[0]).resolve())
    command = [program, "serve", "--camera", args.camera, "--port", str(args.port)]
    if args.data_dir:
        command += ["--data-dir", str(Path(args.data_dir).resolve())]
    try:
        settings = ServiceSettings(command=command, user=getpass.getuser(),
                                   working_dir=Path.cwd(), port=args.port)
        unit, avahi = write_service_files(Path(args.dest), settings)
    except ValueError as exc:
        print(f"companion install-service: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"companion install-service: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(enable_instructions(unit, avahi))
    return 0


def _backup(args: argparse.Namespace) -> int:
    """``companion backup DEST``: one line per copied item, or one line saying what is wrong."""
    from companion.backup import backup
    from companion.config import resolve_data_dir

    data_dir = resolve_data_dir(args.data_dir)
    try:
        copied = backup(data_dir, Path(args.dest))
    except (ValueError, OSError) as exc:
        print(f"companion backup: {exc}", file=sys.stderr)
        return 1
    print(f"Copied {', '.join(copied) or 'nothing'} from {data_dir} to {args.dest}")
    return 0


def _restore(args: argparse.Namespace) -> int:
    """``companion restore SRC [--keep N]`` or ``--list``: what was restored, listed or
    removed, or one line saying why nothing changed."""
    from companion.config import resolve_data_dir
    from companion.restore import restore
    from companion.restore_kept import kept_command

    if args.src is None and not args.list and args.keep is None:
        _usage_error("restore", "give SRC (a backup folder), --list or --keep N")
    if args.keep is not None and args.keep < 1:
        _usage_error("restore", f"--keep {args.keep}: keep at least 1 (the newest copy is "
                     "never removed)")
    data_dir = resolve_data_dir(args.data_dir)
    if args.src is not None:
        try:
            done = restore(Path(args.src), data_dir)
        except (ValueError, OSError) as exc:
            print(f"companion restore: {exc}", file=sys.stderr)
            return 1
        kept = f"; the data it replaced is kept in {done.kept}" if done.kept else ""
        print(f"Restored {', '.join(done.copied)} from {args.src} into {data_dir}{kept}")
    return kept_command(data_dir, keep=args.keep, listed=args.list, out=sys.stdout,
                        err=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
