"""hardware: cameras as BGR frames, buttons as queued events.

Nothing here imports an optional library at import time: picamera2 and cv2 load inside
the backend that needs them, gpiozero inside the button and LED constructors.
"""

from hardware.camera import Camera, CameraError, NullCamera, check_camera_spec, open_camera
from hardware.capture import CaptureThread

__all__ = ["Camera", "CameraError", "CaptureThread", "NullCamera", "check_camera_spec",
           "open_camera"]
