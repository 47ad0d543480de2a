"""Process settings the ``companion`` command makes before any command loads numpy."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_the_command_runs_numpy_products_on_one_thread_unless_told_otherwise(tmp_path: Path):
    # hardware (serve) loads numpy before vision, so vision's own setting would come too late
    code = ("import os, sys, companion.cli as cli; cli.main(['config', '--data-dir', sys.argv[1]]);"
            " import numpy; print(os.environ.get('OPENBLAS_NUM_THREADS'))")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    run = subprocess.run([sys.executable, "-c", code, str(tmp_path)], env=env,
                         capture_output=True, text=True, check=True)
    assert run.stdout.strip().splitlines()[-1] == "1"
    env["OPENBLAS_NUM_THREADS"] = "2"  # a setting made outside is kept
    run = subprocess.run([sys.executable, "-c", code, str(tmp_path)], env=env,
                         capture_output=True, text=True, check=True)
    assert run.stdout.strip().splitlines()[-1] == "2"
