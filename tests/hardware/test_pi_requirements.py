"""The Pi install must not pip-install numpy or OpenCV over apt's (picamera2 needs apt's).

On Raspberry Pi OS picamera2 is the apt package python3-picamera2, built against apt's numpy.
A pip numpy 2 or an opencv-python wheel (which pulls numpy 2) in a --system-site-packages
venv shadows it and ``import picamera2`` fails with "numpy.dtype size changed".
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).parents[2]
APT_OWNED = {"numpy", "opencv-python", "opencv-python-headless", "opencv-contrib-python",
             "opencv-contrib-python-headless", "picamera2", "simplejpeg", "lgpio"}
OPENCV_WHEELS = sorted(n for n in APT_OWNED if n.startswith("opencv"))
SAMPLE_VERSIONS = ["0.0.1", "3.4.18.65", "4.6.0.66", "4.8.1.78", "4.10.0.84", "5.0.0.93"]


def read_requirements(name: str) -> dict[str, Requirement]:
    """Requirement lines of a pip requirements/constraints file, by canonical name."""
    reqs: dict[str, Requirement] = {}
    for line in (ROOT / name).read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            assert not line.startswith("-"), f"{name}: options are passed by the script: {line}"
            req = Requirement(line)
            reqs[canonicalize_name(req.name)] = req
    return reqs


def test_requirements_pi_pull_nothing_apt_provides():
    assert not set(read_requirements("requirements-pi.txt")) & APT_OWNED


def test_requirements_pi_need_gpiozero_2_0_1_post3():
    spec = read_requirements("requirements-pi.txt")["gpiozero"].specifier
    assert spec.contains("2.0.1.post3") and spec.contains("2.1")
    assert not spec.contains("2.0.1") and not spec.contains("1.6.2")


def test_requirements_pi_cover_every_project_dependency_apt_does_not():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    needed = {canonicalize_name(Requirement(d).name) for d in project["dependencies"]}
    missing = needed - APT_OWNED - set(read_requirements("requirements-pi.txt"))
    assert not missing, f"add to requirements-pi.txt (or to APT_OWNED if apt has it): {missing}"


def test_constraints_pi_allow_no_opencv_wheel_at_all():
    constraints = read_requirements("constraints-pi.txt")
    for wheel in OPENCV_WHEELS:
        assert wheel in constraints, f"constraints-pi.txt must block {wheel}"
        assert not list(constraints[wheel].specifier.filter(SAMPLE_VERSIONS, prereleases=True))


def test_constraints_pi_do_not_pin_numpy_statically():
    # apt's numpy differs between OS releases (1.24 on Bookworm, 2.x later); the script pins
    # whatever apt installed.
    assert "numpy" not in read_requirements("constraints-pi.txt")


@pytest.fixture(scope="module")
def script() -> str:
    return (ROOT / "scripts" / "install-pi.sh").read_text()


def test_install_script_gets_the_binary_packages_from_apt(script):
    joined = script.replace("\\\n", " ")  # undo shell line continuations
    apt = " ".join(re.findall(r"apt-get install[^\n]*", joined))
    for package in ("python3-picamera2", "python3-numpy", "python3-opencv", "python3-lgpio"):
        assert package in apt


def test_install_script_venv_sees_apt_packages(script):
    assert re.search(r"python3 -m venv --system-site-packages \"\$VENV\"", script)
    assert "VENV=.venv-pi " in script  # not .venv: ./run fills that one


def test_every_pip_install_is_constrained_and_keeps_apt_numpy(script):
    installs = re.findall(r"pip\"? install [^\n]*", script)
    assert len(installs) == 2
    for line in installs:
        assert "-c constraints-pi.txt" in line and '-c "$pins"' in line
    assert 'echo "numpy==$numpy_version" > "$pins"' in script
    assert "import numpy; print(numpy.__version__)" in script


def test_install_script_installs_the_project_without_its_wheel_dependencies(script):
    project_install = [l for l in re.findall(r"pip\"? install [^\n]*", script) if l.endswith(" .")]
    assert len(project_install) == 1 and "--no-deps" in project_install[0]


def test_install_script_checks_picamera2_imports_and_is_valid_sh(script):
    assert "import picamera2" in script and "set -eu" in script
    subprocess.run(["sh", "-n", str(ROOT / "scripts" / "install-pi.sh")], check=True)


def test_pip_itself_refuses_an_opencv_wheel_under_the_constraints(tmp_path):
    """Ask the real pip (offline, dry run) for OpenCV under constraints-pi.txt: it must refuse."""
    result = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--no-index",
         "--disable-pip-version-check", "-c", str(ROOT / "constraints-pi.txt"),
         "opencv-python-headless"],
        capture_output=True, text=True, cwd=tmp_path)
    if "No module named pip" in result.stderr:
        pytest.skip("pip is not installed in this environment")
    assert result.returncode != 0
    assert "opencv-python-headless<0" in result.stdout + result.stderr
