"""The ``--help`` texts of the commands that read users' own photos: ``detect dice``,
``detect cards``, ``eval`` and ``deck learn``: what a photo may be, and what the output
means (CONTRACT.md). Plain strings, so building the parser loads no recognizer."""

from __future__ import annotations

PHOTOS = """\
Photos: JPEG, PNG, WebP, TIFF or BMP, taken from above. A phone photo is read upright, as
its viewer shows it (EXIF orientation). HEIC, an iPhone's default, cannot be read: save
it as JPEG (Settings > Camera > Formats > Most Compatible). Any size: the recognizers
look at about 640 pixels wide, so a 1280x960 copy is enough; a photo over 40 million
pixels is read at half size or less. A photo that cannot be read gets one line
{"image": PATH, "error": "<why>"}; the others are still read, and the exit status is 1
(0: every photo read; 2: a usage error)."""

DICE = """\
Output: one JSON object per line, one line per photo, in the order given:
  {"image": "table.jpg", "green": 3, "yellow": 4, "red": 3, "other": 0}
the number of dice whose top face shows each colour; "other" counts dice of no Toss Up!
colour (another game's die). A black-and-white photo is an error line: the dice's
colours cannot be told in it.

""" + PHOTOS

CARDS = """\
Output: one JSON object per line, one line per photo, in the order given:
  {"image": "table.jpg", "cards": ["AH", "10C"]}
the ids of the deck's faces lying face up in the photo, in any order; a card not in the
deck, or lying face down, is never named.
DECK_DIR holds one picture per face named by its id, <card-id>.png or .jpg (more photos
of a face: <card-id>@2.jpg); `companion deck learn --from PHOTO_DIR --deck DECK_DIR`
makes one from photos of single cards.

""" + PHOTOS

EVAL = """\
SUITE_DIR holds the photos and a labels.json naming what each one shows:
  {"kind": "dice", "images": {"img/0001.jpg": {"green": 3, "yellow": 4, "red": 3}}}
  {"kind": "cards", "deck": "deck", "images": {"img/0001.jpg": {"cards": ["AH"]}}}
(paths relative to SUITE_DIR; "deck" is the deck folder in it). Labelled places (a die's
"x", "y", a "boxes" list) are pixels of the photo as a viewer shows it, upright. Prints
each photo read wrongly, then the exact-match rate, the per-colour error (dice) or
precision and recall (cards), and the CPU time per photo. `companion record` builds a
suite from the camera."""

LEARN = """\
--from PHOTO_DIR: one photo per card face, the card face up and alone on a plain table
that contrasts with it, each named by its card id (AH.jpg; a second photo: AH@2.jpg).
JPEG, PNG or WebP, any size (looked at 1600 pixels). The card is found, straightened and
saved 400 pixels high into the deck folder; a photo where no card edge is found is saved
whole (right for a scan, or a photo cropped to the card) and named in the output, so it
can be retaken. With --game, a photo may also be named by the name printed on its card
(0.jpg, "Slide to 15.jpg"); a name the game does not know is skipped with the nearest card
id, and the game's ids are listed. Check the deck with
`companion detect cards --deck DECK_DIR --json`.
GAME_ID, the games with a deck to teach: paper-toss, sorry-21, toss-your-cookies."""
