"""vision: pure functions from a BGR frame to typed readings (dice, cards)."""

import os

# OpenCV reads this limit when cv2 loads, so it is set before any vision module imports
# cv2: an image file claiming more pixels (a decompression bomb) is refused unread.
# vision/imageio.py holds the same number as MAX_PIXELS.
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", "40000000")

# OpenBLAS (numpy's matrix products: the card reader ranks dozens of outlines against every
# face in one product) starts a thread per core and keeps them spinning between calls:
# on the project's small products that tripled the CPU a card frame costs (165 -> 626 ms
# on a 2-core machine) for no gain in time. Read when numpy loads, so it only takes effect
# when vision is imported first (``companion detect``/``eval``); a program that loads
# numpy earlier sets it itself.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
