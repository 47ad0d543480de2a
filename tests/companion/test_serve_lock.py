"""``companion serve`` waits for a running restore before it reads anything in the folder.

A restore holds the data folder alone while it swaps it; a server that read the settings
first and waited for the folder after would run the restored journal with the old settings.
"""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from companion.data_lock import hold_alone
from companion.serve import DEMO_FRAMES
from tests.companion.test_serve import Served, served  # noqa: F401 (a fixture)

LOCKS = Path("/proc/locks")


def _waits_for_a_lock(pid: int) -> bool:
    """Whether process `pid` is blocked on a file lock (Linux: a ``->`` line in /proc/locks)."""
    return any("->" in line and f" {pid} " in line for line in LOCKS.read_text().splitlines())


@pytest.mark.skipif(not LOCKS.exists(), reason="needs Linux /proc/locks")
def test_serve_reads_the_settings_of_the_folder_a_restore_put_in_place(tmp_path, served):
    data, restored = tmp_path / "data", tmp_path / "restored"
    data.mkdir()
    (data / "companion.toml").write_text("[camera]\nspec = 'none'\n")
    restored.mkdir()
    (restored / "companion.toml").write_text(f"[camera]\nspec = 'replay:{DEMO_FRAMES}'\n")
    started: list[Served] = []
    with hold_alone(data):  # a restore is running on the folder
        thread = threading.Thread(target=lambda: started.append(
            Served("--data-dir", str(data), env={"GPIOZERO_PIN_FACTORY": "no-such-factory"})))
        thread.start()
        pid = None
        while pid is None or not _waits_for_a_lock(pid):  # serve is blocked on the folder
            assert thread.is_alive(), "serve did not wait for the restore"
            pid = _child_of(os.getpid())
        os.rename(data, tmp_path / "data.before-restore")  # the restore's two renames
        os.rename(restored, data)
    thread.join(timeout=120)
    served.extend(started)
    assert started
    out = started[0].out
    while b"Camera:" not in out:  # the banner's last lines may come after the address
        out += started[0].proc.stdout.readline()
    camera = out.split(b"Camera:")[1].split(b"\n")[0].strip().decode()
    assert camera == f"replay:{DEMO_FRAMES}"  # the restored folder's setting
    shutil.rmtree(tmp_path / "data.before-restore")


def _child_of(parent: int) -> int | None:
    """A python child process of `parent` running ``companion.cli serve``, if started."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == parent and b"serve" in cmd:
            return int(entry.name)
    return None
