"""Process settings made by importing ``vision`` (before numpy and OpenCV load)."""

from __future__ import annotations

import os
import subprocess
import sys


def test_numpy_products_run_on_one_thread_unless_told_otherwise():
    code = "import vision, numpy, os; print(os.environ['OPENBLAS_NUM_THREADS'])"
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "1"
    env["OPENBLAS_NUM_THREADS"] = "3"  # a setting made outside is kept
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "3"
