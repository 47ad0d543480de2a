"""The Raspberry Pi camera through picamera2 (imported only when this backend is opened).

Set-up follows picamera2's examples: one video configuration with a ``main`` stream for
recognition and a small ``lores`` stream for the host page's preview; start; run one
autofocus pass when the module has autofocus (Camera Module 3); let auto-exposure and
auto-white-balance settle for a few frames; then lock exposure, gain and colour gains to the
measured values so colours stay the same all evening.

picamera2's "RGB888" format is laid out B, G, R in memory (what its JPEG encoder and OpenCV
expect), so ``main`` frames are already BGR. The ``lores`` stream is YUV420, the one format
every Pi model offers there, and is converted to BGR with numpy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hardware.camera import Camera, CameraError

MAIN_SIZE = (1280, 960)  # (width, height) in pixels: recognition stream
PREVIEW_SIZE = (320, 240)  # (width, height): preview stream, must be even
SETTLE_FRAMES = 30  # about a second at 30 fps for exposure and white balance to settle


class Picamera2Camera(Camera):
    """A Raspberry Pi camera module through picamera2.

    Parameters
    ----------
    index : int
        Camera number, as in ``picamera2:N``.
    main_size, preview_size : (int, int)
        (width, height) in pixels of the recognition and preview streams.
    settle_frames : int
        Frames to let auto-exposure and white balance settle before locking them.
    lock : bool
        Lock exposure, gain and white balance after settling (default True).

    :raises CameraError: picamera2 is missing or broken, or no camera is connected.
    """

    def __init__(
        self,
        index: int = 0,
        *,
        main_size: tuple[int, int] = MAIN_SIZE,
        preview_size: tuple[int, int] = PREVIEW_SIZE,
        settle_frames: int = SETTLE_FRAMES,
        lock: bool = True,
    ) -> None:
        self.name = f"picamera2:{index}" if index else "picamera2"
        self.locked_controls: dict[str, Any] = {}
        self.focused: bool | None = None  # None: no autofocus on this module
        self._preview_size = (int(preview_size[0]), int(preview_size[1]))
        self._cam: Any = None
        Picamera2 = _import_picamera2()
        try:
            if index >= len(Picamera2.global_camera_info()):
                raise CameraError("no Raspberry Pi camera connected" if index == 0
                                  else f"no Raspberry Pi camera number {index}")
            self._cam = Picamera2(index)
        except CameraError:
            raise
        except Exception as exc:  # libcamera reports a busy or failed camera many ways
            raise CameraError(f"the Pi camera cannot be opened ({_one_line(exc)})") from None
        try:
            config = self._cam.create_video_configuration(
                main={"size": tuple(main_size), "format": "RGB888"},
                lores={"size": tuple(preview_size), "format": "YUV420"},
                buffer_count=4,
            )
            self._cam.configure(config)
            self._cam.start()
            self._calibrate(settle_frames, lock)
        except Exception as exc:
            self.close()
            raise CameraError(f"the Pi camera failed to start ({_one_line(exc)})") from None

    def _calibrate(self, settle_frames: int, lock: bool) -> None:
        """Focus once if possible, let AE/AWB settle, then lock them to the measured values."""
        if "AfMode" in self._cam.camera_controls:
            self.focused = bool(self._cam.autofocus_cycle())
        metadata: dict[str, Any] = {}
        for _ in range(max(1, settle_frames)):
            metadata = self._cam.capture_metadata()
        if not lock:
            return
        controls: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if key in metadata:
                controls[key] = metadata[key]
        self._cam.set_controls(controls)
        self.locked_controls = controls

    def read(self) -> np.ndarray | None:
        """Return the next ``main`` frame, (H, W, 3) uint8 BGR, waiting for it.

        :raises CameraError: the camera is closed or stopped delivering frames.
        """
        frame = self._capture("main")
        if frame is not None and frame.ndim == 3 and frame.shape[2] == 4:
            frame = np.ascontiguousarray(frame[..., :3])  # XBGR8888 variants: drop the padding
        return frame

    def read_preview(self) -> np.ndarray | None:
        """Return the next small preview frame, (h, w, 3) uint8 BGR.

        :raises CameraError: the camera is closed or stopped delivering frames.
        """
        yuv = self._capture("lores")
        if yuv is None:
            return None
        if yuv.ndim == 3:  # a preview stream configured as RGB already
            return yuv
        return yuv420_to_bgr(yuv, self._preview_size[1], self._preview_size[0])

    def _capture(self, stream: str) -> np.ndarray | None:
        if self._cam is None:
            raise CameraError(f"{self.name} is closed")
        try:
            frame: np.ndarray | None = self._cam.capture_array(stream)
        except Exception as exc:
            raise CameraError(f"the Pi camera stopped ({_one_line(exc)})") from None
        return frame

    def close(self) -> None:
        """Stop and release the camera (idempotent)."""
        cam, self._cam = self._cam, None
        if cam is not None:
            try:
                cam.stop()
            finally:
                cam.close()


def yuv420_to_bgr(yuv: np.ndarray, height: int, width: int) -> np.ndarray:
    """Convert a planar YUV420 (I420) buffer to BGR with BT.601 full-range coefficients.

    Parameters
    ----------
    yuv : ndarray of shape (height * 3 // 2, stride), uint8
        Y plane rows, then U and V planes at half resolution (picamera2's lores array).
    height, width : int
        Image size in pixels, both even.

    Returns
    -------
    frame : ndarray of shape (height, width, 3), uint8, BGR
    """
    stride = yuv.shape[1]
    y = yuv[:height, :width].astype(np.float32)
    chroma = yuv[height:height * 3 // 2].reshape(-1)
    half = (height // 2) * (stride // 2)
    u = chroma[:half].reshape(height // 2, stride // 2)[:, :width // 2]
    v = chroma[half:2 * half].reshape(height // 2, stride // 2)[:, :width // 2]
    u = np.repeat(np.repeat(u.astype(np.float32) - 128, 2, 0), 2, 1)
    v = np.repeat(np.repeat(v.astype(np.float32) - 128, 2, 0), 2, 1)
    b = y + 1.772 * u
    g = y - 0.344136 * u - 0.714136 * v
    r = y + 1.402 * v
    return np.clip(np.dstack((b, g, r)), 0, 255).astype(np.uint8)


def _import_picamera2() -> Any:
    """Import picamera2's Picamera2 class, or explain in one line why it cannot be used."""
    try:
        from picamera2 import Picamera2  # type: ignore[import-not-found]
    except ModuleNotFoundError as exc:
        if exc.name not in ("picamera2", "libcamera"):
            raise CameraError(f"picamera2 cannot be imported ({_one_line(exc)})") from None
        raise CameraError("picamera2 is not installed (apt install python3-picamera2)") from None
    except Exception as exc:  # e.g. "numpy.dtype size changed": a pip numpy over apt's
        raise CameraError(
            f"picamera2 is installed but cannot be imported ({_one_line(exc)}); "
            "reinstall with scripts/install-pi.sh, see docs/hardware.md") from None
    return Picamera2


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
