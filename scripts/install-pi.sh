#!/bin/sh
# Install the companion on Raspberry Pi OS (Bookworm or later), from the cloned repository:
#
#     sh scripts/install-pi.sh            # install, then start at boot
#     sh scripts/install-pi.sh --no-service
#
# picamera2 exists only as the apt package python3-picamera2, built against apt's numpy.
# So numpy, OpenCV, picamera2 and lgpio come from apt; the venv sees them through
# --system-site-packages; pip adds only pure-Python packages (requirements-pi.txt) under
# constraints-pi.txt plus a pin on apt's numpy, and installs the project with --no-deps.
set -eu

cd "$(dirname "$0")/.."
service=yes
[ "${1:-}" = "--no-service" ] && service=no

say() { printf '\n==> %s\n' "$*"; }

say "Installing system packages (apt)"
sudo apt-get update
sudo apt-get install -y --no-install-recommends \
    python3-venv python3-pip python3-numpy python3-opencv python3-picamera2 \
    python3-lgpio avahi-daemon

say "Creating .venv with the system site packages (picamera2, numpy, cv2, lgpio)"
python3 -m venv --system-site-packages .venv
numpy_version=$(.venv/bin/python -c 'import numpy; print(numpy.__version__)')
pins=$(mktemp)
trap 'rm -f "$pins"' EXIT
echo "numpy==$numpy_version" > "$pins"

say "Installing Python packages (keeping apt's numpy $numpy_version and OpenCV)"
.venv/bin/pip install -r requirements-pi.txt -c constraints-pi.txt -c "$pins"
.venv/bin/pip install --no-deps -c constraints-pi.txt -c "$pins" .

say "Checking the camera library still imports"
.venv/bin/python - <<'PY'
import sys
import numpy, cv2
if not numpy.__file__.startswith("/usr/lib/python3"):
    sys.exit(f"numpy comes from {numpy.__file__}, not apt: picamera2 would break")
try:
    import picamera2  # noqa: F401
except Exception as exc:
    sys.exit(f"picamera2 cannot be imported: {exc}")
print(f"numpy {numpy.__version__} and OpenCV {cv2.__version__} from apt; picamera2 imports")
PY

if [ "$service" = yes ]; then
    say "Starting the companion at boot (systemd) and announcing it on the network (Avahi)"
    out=$(mktemp -d)
    .venv/bin/companion install-service --dest "$out"
    sudo cp "$out/companion.service" /etc/systemd/system/companion.service
    sudo cp "$out/companion.avahi.service" /etc/avahi/services/companion.service
    sudo systemctl daemon-reload
    sudo systemctl enable --now companion.service
    say "Done. On a phone on the same Wi-Fi, open http://$(hostname).local:8000"
    echo "The host PIN and logs: journalctl -u companion -f"
else
    say "Done. Start it with: .venv/bin/companion serve"
fi
