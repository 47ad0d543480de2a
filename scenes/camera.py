"""A pinhole camera over a table plane (z = 0, millimetres) and the table drawn through it.

World: x right, y away from the player, z up. The camera looks at the origin from
``distance`` millimetres, tilted ``tilt_deg`` from straight down towards -y, so the far
side of the table is at the top of the image. Image points are (x, y) pixels.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import cv2

from vision.cvcompat import warp_perspective


@dataclass(frozen=True)
class Camera:
    """Pinhole camera; ``size`` is (width, height) in pixels, ``hfov_deg`` the horizontal view."""

    size: tuple[int, int]
    distance: float
    tilt_deg: float
    hfov_deg: float = 64.0
    roll_deg: float = 0.0

    @property
    def focal(self) -> float:
        return (self.size[0] / 2) / np.tan(np.radians(self.hfov_deg / 2))

    @property
    def centre(self) -> np.ndarray:
        t = np.radians(self.tilt_deg)
        return np.array([0.0, -self.distance * np.sin(t), self.distance * np.cos(t)])

    @property
    def rotation(self) -> np.ndarray:
        t = np.radians(self.tilt_deg)
        fwd = np.array([0.0, np.sin(t), -np.cos(t)])
        right = np.array([1.0, 0.0, 0.0])
        down = np.cross(fwd, right)
        r = np.radians(self.roll_deg)
        c, s = np.cos(r), np.sin(r)
        right, down = c * right + s * down, -s * right + c * down
        return np.stack([right, down, fwd])

    def project(self, pts: np.ndarray) -> np.ndarray:
        """Project world points, shape (N, 3) in mm, to image points (N, 2) as (x, y)."""
        cam = (np.asarray(pts, float) - self.centre) @ self.rotation.T
        f = self.focal
        w, h = self.size
        return np.stack([f * cam[:, 0] / cam[:, 2] + w / 2, f * cam[:, 1] / cam[:, 2] + h / 2], 1)

    def depth(self, pts: np.ndarray) -> np.ndarray:
        """Distance along the view axis of world points (N, 3)."""
        return ((np.asarray(pts, float) - self.centre) @ self.rotation.T)[:, 2]

    def to_table(self, xy: np.ndarray) -> np.ndarray:
        """Back-project image points (N, 2) onto the table plane; returns (N, 3) in mm."""
        w, h = self.size
        f = self.focal
        rays_cam = np.stack([(xy[:, 0] - w / 2) / f, (xy[:, 1] - h / 2) / f, np.ones(len(xy))], 1)
        rays = rays_cam @ self.rotation
        c = self.centre
        s = -c[2] / rays[:, 2]
        return c + rays * s[:, None]

    def table_extent(self, margin: float = 0.0) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) in mm of the table area the image sees, grown by ``margin``."""
        w, h = self.size
        corners = self.to_table(np.array([[0, 0], [w, 0], [w, h], [0, h]], float))
        x0, y0 = corners[:, :2].min(0) - margin
        x1, y1 = corners[:, :2].max(0) + margin
        return float(x0), float(y0), float(x1), float(y1)


def draw_table(camera: Camera, texture: np.ndarray,
               extent: tuple[float, float, float, float]) -> np.ndarray:
    """Warp a top-down ``texture`` covering ``extent`` (mm) into the camera image (float32 BGR)."""
    x0, y0, x1, y1 = extent
    th, tw = texture.shape[:2]
    world = np.array([[x0, y1, 0], [x1, y1, 0], [x1, y0, 0], [x0, y0, 0]], float)
    src = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float32)
    dst = camera.project(world).astype(np.float32)
    hom = cv2.getPerspectiveTransform(src, dst)
    return warp_perspective(texture.astype(np.float32), hom, camera.size,
                            flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def warp_patch(canvas: np.ndarray, alpha_acc: np.ndarray | None, patch: np.ndarray,
               quad: np.ndarray) -> None:
    """Paint a BGRA float ``patch`` onto ``canvas`` (in place) inside image quad (4, 2).

    The quad's corners match the patch's top-left, top-right, bottom-right, bottom-left.
    """
    h, w = canvas.shape[:2]
    x0, y0 = np.floor(quad.min(0)).astype(int) - 2
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    ph, pw = patch.shape[:2]
    src = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float32)
    dst = (quad - [x0, y0]).astype(np.float32)
    hom = cv2.getPerspectiveTransform(src, dst)
    warped = warp_perspective(patch, hom, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    a = warped[..., 3:4]
    roi = canvas[y0:y1, x0:x1]
    roi[:] = roi * (1 - a) + warped[..., :3] * a
    if alpha_acc is not None:
        alpha_acc[y0:y1, x0:x1] = np.maximum(alpha_acc[y0:y1, x0:x1], a[..., 0])
