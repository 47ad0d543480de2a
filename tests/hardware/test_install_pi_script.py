"""scripts/install-pi.sh and ./run, run for real with apt, sudo, systemctl and the venv faked.

What is checked is the scripts' own logic: the service gets its own venv (.venv-pi, never
the .venv that ./run fills with pip's OpenCV and numpy 2), re-running the script restarts a
running service, a venv whose numpy is not apt's stops the install with the command that
repairs it, and ./run refuses an old install's service venv instead of breaking it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]

# python3 -m venv DIR makes a fake venv whose python answers the script's three questions
_PYTHON3 = """#!/bin/sh
if [ "$1" = -m ] && [ "$2" = venv ]; then
    for d; do dir=$d; done
    mkdir -p "$dir/bin"
    printf 'include-system-site-packages = true\\n' > "$dir/pyvenv.cfg"
    for tool in python pip companion; do cp "$FAKE/venv-$tool" "$dir/bin/$tool"; done
    exit 0
fi
exit 9
"""
_VENV_PYTHON = """#!/bin/sh
case "$*" in
    *numpy.__version__*) echo 1.24.2 ;;
    -) cat >/dev/null; [ -z "$NUMPY_NOT_APT" ] || { echo "numpy comes from pip" >&2; exit 1; } ;;
esac
"""
_VENV_PIP = '#!/bin/sh\necho "pip $*" >> "$FAKE/log"\n'
_VENV_COMPANION = """#!/bin/sh
echo "companion $*" >> "$FAKE/log"
touch "$3/companion.service" "$3/companion.avahi.service"
"""
_LOGGED = '#!/bin/sh\necho "$(basename "$0") $*" >> "$FAKE/log"\n'


def _fake_pi(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A copy of the repository's install files and a PATH of fake system commands."""
    repo, fake = tmp_path / "companion", tmp_path / "fake"
    (repo / "scripts").mkdir(parents=True)
    fake.mkdir()
    for name in ("scripts/install-pi.sh", "run", "requirements-pi.txt", "constraints-pi.txt"):
        shutil.copy(ROOT / name, repo / name)
    scripts = {"python3": _PYTHON3, "venv-python": _VENV_PYTHON, "venv-pip": _VENV_PIP,
               "venv-companion": _VENV_COMPANION, "sudo": _LOGGED, "hostname": "#!/bin/sh\necho gametable\n"}
    for name, text in scripts.items():
        (fake / name).write_text(text)
        (fake / name).chmod(0o755)
    env = {"PATH": f"{fake}:/usr/bin:/bin", "FAKE": str(fake), "HOME": str(tmp_path)}
    return repo, env


def _install(repo: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["sh", "scripts/install-pi.sh"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=60)


def test_the_service_gets_its_own_venv_and_a_rerun_restarts_it(tmp_path):
    repo, env = _fake_pi(tmp_path)
    for _ in range(2):  # install, then update
        result = _install(repo, env)
        assert result.returncode == 0, result.stderr
    log = (Path(env["FAKE"]) / "log").read_text().splitlines()
    assert (repo / ".venv-pi" / "bin" / "companion").exists() and not (repo / ".venv").exists()
    assert log.count("sudo systemctl restart companion.service") == 2
    assert not any("--now" in line for line in log)


def test_a_venv_whose_numpy_is_not_apts_stops_the_install_with_the_repair(tmp_path):
    repo, env = _fake_pi(tmp_path)
    result = _install(repo, env | {"NUMPY_NOT_APT": "1"})
    assert result.returncode != 0
    assert "rm -rf .venv-pi && sh scripts/install-pi.sh" in result.stderr
    assert "systemctl" not in (Path(env["FAKE"]) / "log").read_text()


@pytest.mark.parametrize("command", ["demo", "test"])
def test_run_refuses_an_old_installs_service_venv(tmp_path, command):
    repo, env = _fake_pi(tmp_path)
    (repo / ".venv" / "bin").mkdir(parents=True)
    (repo / ".venv" / "pyvenv.cfg").write_text("include-system-site-packages = true\n")
    shutil.copy(Path(env["FAKE"]) / "venv-pip", repo / ".venv" / "bin" / "python")
    result = subprocess.run(["sh", "run", command], cwd=repo, env=env, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 1
    assert "sh scripts/install-pi.sh" in result.stderr and "rm -rf .venv" in result.stderr
    assert not (Path(env["FAKE"]) / "log").exists()  # pip never ran


def test_both_scripts_pass_shellcheck():
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (apt-get install shellcheck)")
    subprocess.run(["shellcheck", "-s", "sh", str(ROOT / "run"),
                    str(ROOT / "scripts" / "install-pi.sh")], check=True)
