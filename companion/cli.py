"""The ``companion`` command: the root of the stack, where real devices are wired.

Imports of ``web``, ``hardware`` and the recognizers happen inside the command
functions, so ``companion detect`` never loads Flask and ``companion serve`` starts fast.
Exit status: 0 success, 1 a failure the output explains, 2 a usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Sequence


class _Parser(argparse.ArgumentParser):
    """argparse that exits with status 2 and a one-line message on a usage error."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="companion", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    serve = sub.add_parser("serve", help="run the camera loop, buttons and web server")
    serve.add_argument("--demo", action="store_true",
                       help="start a ready game with the replay camera on bundled images")
    serve.add_argument("--host", default=None, help="address to listen on (default 0.0.0.0)")
    serve.add_argument("--port", type=int, default=None, help="port (default 8000)")
    serve.add_argument("--camera", default=None,
                       help="auto, picamera2, opencv:N, replay:PATH or none")
    serve.add_argument("--data-dir", default=None, help="folder for the journal and config")
    serve.add_argument("--pin", default=None, help="host PIN (default: a random one, printed)")

    detect = sub.add_parser("detect", help="recognize dice or cards in image files")
    kinds = detect.add_subparsers(dest="kind", required=True, parser_class=_Parser)
    dice = kinds.add_parser("dice", help="count Toss Up! dice by top-face colour")
    dice.add_argument("--json", action="store_true", required=True,
                      help="one JSON object per line (the only format)")
    dice.add_argument("images", nargs="+", metavar="IMAGE")
    cards = kinds.add_parser("cards", help="name the known card faces")
    cards.add_argument("--deck", required=True, metavar="DECK_DIR")
    cards.add_argument("--json", action="store_true", required=True,
                       help="one JSON object per line (the only format)")
    cards.add_argument("images", nargs="+", metavar="IMAGE")

    ev = sub.add_parser("eval", help="score the recognizer on a recorded-image suite")
    ev.add_argument("suite", metavar="SUITE_DIR")

    inst = sub.add_parser("install-service",
                          help="write a systemd unit and an Avahi file to start at boot")
    inst.add_argument("--dest", required=True, metavar="DIR",
                      help="folder to write companion.service and companion.avahi.service")
    inst.add_argument("--port", type=int, default=8000)
    inst.add_argument("--camera", default="auto")
    inst.add_argument("--data-dir", default=None)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "serve":
            from companion.serve import serve

            return serve(args)
        if args.command == "detect" and args.kind == "dice":
            from companion.dice_cmd import detect

            return detect(args.images, out=sys.stdout)
        if args.command == "detect":
            from companion.cards_cmd import detect as detect_cards

            return detect_cards(args.images, args.deck, out=sys.stdout)
        if args.command == "eval":
            return _eval(Path(args.suite))
        if args.command == "install-service":
            return _install_service(args)
    except KeyboardInterrupt:
        return 130
    return 2


def _eval(suite: Path) -> int:
    """Read the suite's labels.json and hand it to the recognizer of its kind."""
    try:
        labels = json.loads((suite / "labels.json").read_text(encoding="utf-8"))
        kind = labels["kind"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"companion eval: {suite}: no readable labels.json ({exc})", file=sys.stderr)
        return 2
    if kind == "dice":
        from companion.dice_cmd import evaluate
    elif kind == "cards":
        from companion.cards_cmd import evaluate
    else:
        print(f"companion eval: unknown suite kind {kind!r} (dice or cards)", file=sys.stderr)
        return 2
    return evaluate(suite, labels, out=sys.stdout)


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


if __name__ == "__main__":
    sys.exit(main())
