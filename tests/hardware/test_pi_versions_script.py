""".ci/pi-versions picks a Python numpy 1.24.2 has wheels for (3.9-3.11), or skips with one line.

Run for real in a copy of the script, with the Pythons faked: each fake answers the script's
version question as its version would and logs what it is asked to do.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).parents[2]

# A Python of version $VERSION: answers the 3.9-3.11 question; -m venv DIR makes a venv whose
# python logs its arguments and succeeds (pip, the version check, pytest).
_PYTHON = """#!/bin/sh
if [ "$1" = -c ]; then
    case "{version}" in 3.9|3.10|3.11) exit 0 ;; *) exit 1 ;; esac
fi
if [ "$1" = --version ]; then echo "Python {version}.0"; exit 0; fi
if [ "$1" = -m ] && [ "$2" = venv ]; then
    mkdir -p "$3/bin"
    printf '#!/bin/sh\\n[ "$1" != -c ] || exit 0\\necho "venv of {version}: $*" >> "$FAKE_LOG"\\n' \\
        > "$3/bin/python"
    chmod +x "$3/bin/python"
    exit 0
fi
exit 9
"""


def _python(path: Path, version: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_PYTHON.format(version=version))
    path.chmod(0o755)


def _run(tmp_path: Path, pythons: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run a copy of .ci/pi-versions with only `pythons` (name -> version) on PATH."""
    (tmp_path / "repo" / ".ci").mkdir(parents=True)
    shutil.copy(ROOT / ".ci" / "pi-versions", tmp_path / "repo" / ".ci" / "pi-versions")
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    for tool in ("sh", "dirname", "rm", "mkdir", "chmod", "cat", "printf"):
        found = shutil.which(tool)
        assert found, tool
        (fake_bin / tool).symlink_to(found)
    for name, version in pythons.items():
        _python(fake_bin / name, version)
    env = {"PATH": str(fake_bin), "HOME": str(tmp_path / "home"),
           "PYENV_ROOT": str(tmp_path / "pyenv"), "FAKE_LOG": str(tmp_path / "log")}
    if "OPENBLAS_NUM_THREADS" in os.environ:
        env["OPENBLAS_NUM_THREADS"] = os.environ["OPENBLAS_NUM_THREADS"]
    return subprocess.run(["sh", str(tmp_path / "repo" / ".ci" / "pi-versions")], env=env,
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)


def test_without_a_python_from_3_9_to_3_11_the_step_is_skipped_in_one_line(tmp_path):
    run = _run(tmp_path, {"python3": "3.12", "python3.12": "3.12"})
    assert run.returncode == 0, run.stderr
    assert run.stdout.count("\n") == 1 and run.stdout.startswith("Pi-versions step skipped")
    assert not (tmp_path / "repo" / ".venv-ci-pi").exists()


def test_pyenv_3_11_is_chosen_over_a_newer_python3(tmp_path):
    _python(tmp_path / "pyenv" / "versions" / "3.11.9" / "bin" / "python3", "3.11")
    run = _run(tmp_path, {"python3": "3.13"})
    assert run.returncode == 0, run.stderr
    log = (tmp_path / "log").read_text()
    assert "venv of 3.11: -m pip install" in log and "-m pytest" in log
    assert "venv of 3.13" not in log


def test_python3_10_on_path_is_chosen_when_pyenv_has_none(tmp_path):
    run = _run(tmp_path, {"python3": "3.12", "python3.10": "3.10"})
    assert run.returncode == 0, run.stderr
    assert "venv of 3.10: -m pytest" in (tmp_path / "log").read_text()
