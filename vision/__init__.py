"""vision: pure functions from a BGR frame to typed readings (dice, cards)."""

import os

# OpenCV reads this limit when cv2 loads, so it is set before any vision module imports
# cv2: an image file claiming more pixels (a decompression bomb) is refused unread.
# vision/imageio.py holds the same number as MAX_PIXELS.
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", "40000000")
