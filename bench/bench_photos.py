"""Users' own photos: time, peak memory and answers of ``companion detect`` per photo size.

Phone-like copies of the real photos in ``tests/data`` (``realdice-byler``: a 640x480 crop
of each, landscape; ``cards-pinochle``: the 378x504 iPhone photos, portrait) are made in a
temporary folder: a "12 Mpx original" (scaled up to 4000x3000 with a little sensor noise,
JPEG quality 90), the 1280x960 copy a phone shares (the original shrunk, INTER_AREA, JPEG
90) and a "48 Mpx original" (8000x6000, as a 48/50 Mpx phone mode saves). Then:

- time and memory: ``companion detect dice|cards --json PHOTO`` run as a user runs it, one
  child process per photo: CPU seconds (user + system, Python's start included) and peak
  resident memory (VmHWM);
- answers: the same photos read in this process at each size; how many give the same
  answer as their 1280x960 copy.

Usage: ``.venv/bin/python bench/bench_photos.py [--time 3] [--agree 20]``
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import vision  # noqa: F401  (sets OpenCV's pixel limit and one BLAS thread first)

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DICE = ROOT / "tests" / "data" / "realdice-byler"
CARDS = ROOT / "tests" / "data" / "cards-pinochle"
SIZES = {"1280 copy": None, "12 Mpx": (4000, 3000), "48 Mpx": (8000, 6000)}

_RUN = ("import sys\n"
        "from companion.cli import main\n"
        "status = main(sys.argv[1:])\n"
        "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')][0]\n"
        "print(f'peak-rss-mb {int(hwm.split()[1]) // 1024}', file=sys.stderr)\n")


def _sources(n: int) -> dict[str, list[np.ndarray]]:
    """The first ``n`` dice photos (640x480 crops) and ``n`` iPhone card photos."""
    dice = json.loads((DICE / "labels.json").read_text())["images"]
    cards = json.loads((CARDS / "labels.json").read_text())["images"]
    phone = [name for name in sorted(cards) if "IMG_" in name]  # 378x504, not webcam frames
    return {"dice": [cv2.imread(str(DICE / name))[80:560] for name in sorted(dice)[:n]],
            "cards": [cv2.imread(str(CARDS / name)) for name in phone[:n]]}


def _phone_copies(image: np.ndarray, stem: Path, rng: np.random.Generator) -> dict[str, Path]:
    """Write the three sizes of one photo; their paths by size name."""
    portrait = image.shape[0] > image.shape[1]
    paths = {}
    original = None
    for size, wh in (("12 Mpx", SIZES["12 Mpx"]), ("48 Mpx", SIZES["48 Mpx"])):
        w, h = wh[::-1] if portrait else wh
        big = cv2.resize(image, (w, h), interpolation=cv2.INTER_CUBIC).astype(np.float32)
        big = np.clip(big + rng.normal(0, 2.0, big.shape).astype(np.float32), 0, 255)
        big = big.astype(np.uint8)
        paths[size] = stem.with_name(f"{stem.name}-{size.split()[0]}mp.jpg")
        cv2.imwrite(str(paths[size]), big, [cv2.IMWRITE_JPEG_QUALITY, 90])
        if size == "12 Mpx":
            original = big
        del big
    copy = cv2.resize(original, (960, 1280) if portrait else (1280, 960),
                      interpolation=cv2.INTER_AREA)
    paths["1280 copy"] = stem.with_name(f"{stem.name}-1280.jpg")
    cv2.imwrite(str(paths["1280 copy"]), copy, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return paths


def _detect(kind: str, path: Path) -> tuple[float, int, dict]:
    """One ``companion detect`` run: (CPU seconds, peak RSS MB, its JSON line)."""
    args = ["detect", kind, "--json"] + (["--deck", str(CARDS / "deck")] if kind == "cards"
                                         else []) + [str(path)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-c", _RUN, *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    peak = int(proc.stderr.rpartition("peak-rss-mb ")[2])
    return cpu, peak, json.loads(proc.stdout)


def _answer(kind: str, path: Path, deck) -> str:
    from companion.dice_cmd import read_colour_dice
    from vision.cards import read_cards
    from vision.imageio import ImageError, read_image

    try:
        frame = read_image(path)
    except ImageError as exc:
        return f"error: {exc}"
    if kind == "dice":
        return " ".join(map(str, read_colour_dice(frame).counts()))
    return " ".join(sorted(read_cards(frame, deck).ids))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--time", type=int, default=3, help="photos timed per kind and size")
    parser.add_argument("--agree", type=int, default=20, help="photos compared per kind")
    args = parser.parse_args()
    from vision.deck import load_deck

    deck = load_deck(CARDS / "deck")
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory(prefix="bench-photos-") as tmp:
        for kind, images in _sources(max(args.time, args.agree)).items():
            copies = [_phone_copies(image, Path(tmp) / f"{kind}{k:02d}", rng)
                      for k, image in enumerate(images)]
            print(f"\n{kind}: {len(copies)} photos")
            for size in SIZES:
                runs = [_detect(kind, c[size]) for c in copies[:args.time]]
                cpu = sorted(r[0] for r in runs)
                errors = sum("error" in r[2] for r in runs)
                print(f"  {size:9s} detect per photo: CPU median {cpu[len(cpu) // 2]:.2f} s "
                      f"(max {cpu[-1]:.2f}), peak RSS max {max(r[1] for r in runs)} MB"
                      + (f", {errors} error lines: {runs[0][2].get('error')}" if errors else ""))
            answers = [{size: _answer(kind, c[size], deck) for size in SIZES} for c in copies]
            for size in ("12 Mpx", "48 Mpx"):
                same = sum(a[size] == a["1280 copy"] for a in answers)
                print(f"  {size} answer = its 1280x960 copy's: {same}/{len(answers)}")
            for k, a in enumerate(answers):
                if len(set(a.values())) > 1:
                    print(f"    photo {k}: " + "; ".join(f"{s}: {v}" for s, v in a.items()))
            for c in copies:
                for p in c.values():
                    p.unlink()


if __name__ == "__main__":
    main()
