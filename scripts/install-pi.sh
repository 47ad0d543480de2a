#!/bin/sh
# Install the companion on Raspberry Pi OS (Bookworm or later), from the cloned repository:
#
#     sh scripts/install-pi.sh            # install (or update), then start at boot
#     sh scripts/install-pi.sh --no-service
#
# Run it again after `git pull` to update: it reinstalls and restarts a running service.
# The service has its own venv, .venv-pi: `./run demo` and `./run test` use .venv, with
# pip's OpenCV and numpy 2, which must never reach the venv picamera2 is imported from.
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

VENV=.venv-pi  # the service's own: ./run fills .venv with pip's OpenCV and numpy 2
fix="rm -rf $VENV && sh scripts/install-pi.sh"

say "Creating $VENV with the system site packages (picamera2, numpy, cv2, lgpio)"
python3 -m venv --system-site-packages "$VENV"
numpy_version=$("$VENV/bin/python" -c 'import numpy; print(numpy.__version__)')
pins=$(mktemp)
trap 'rm -f "$pins"' EXIT
echo "numpy==$numpy_version" > "$pins"

say "Installing Python packages (keeping apt's numpy $numpy_version and OpenCV)"
"$VENV/bin/pip" install -r requirements-pi.txt -c constraints-pi.txt -c "$pins"
"$VENV/bin/pip" install --no-deps -c constraints-pi.txt -c "$pins" .

say "Checking the camera library still imports"
if ! FIX="$fix" "$VENV/bin/python" - <<'PY'
import os, sys
import numpy, cv2
fix = f"Start again from a clean venv: {os.environ['FIX']}"
if not numpy.__file__.startswith("/usr/lib/python3"):
    sys.exit(f"numpy comes from {numpy.__file__}, not apt: picamera2 would break. {fix}")
try:
    import picamera2  # noqa: F401
except Exception as exc:
    sys.exit(f"picamera2 cannot be imported: {exc}. {fix}")
print(f"numpy {numpy.__version__} and OpenCV {cv2.__version__} from apt; picamera2 imports")
PY
then
    echo "The install stopped before the service was touched. To repair: $fix" >&2
    exit 1
fi

if [ -f .venv/pyvenv.cfg ] && grep -qi '^include-system-site-packages *= *true' .venv/pyvenv.cfg; then
    echo "Note: .venv is the service's venv of an older install; the service now runs from" \
         "$VENV. Remove it (rm -rf .venv) before using ./run demo or ./run test."
fi

if [ "$service" = yes ]; then
    say "Starting the companion at boot (systemd) and announcing it on the network (Avahi)"
    out=$(mktemp -d)
    # the unit runs the `companion` found first on PATH: make it this venv's, not an
    # activated .venv's (pip's OpenCV, no picamera2)
    PATH="$PWD/$VENV/bin:$PATH" "$VENV/bin/companion" install-service --dest "$out"
    sudo cp "$out/companion.service" /etc/systemd/system/companion.service
    sudo cp "$out/companion.avahi.service" /etc/avahi/services/companion.service
    sudo systemctl daemon-reload
    sudo systemctl enable companion.service
    # restart, not `enable --now`: a service already running must pick up the new code
    sudo systemctl restart companion.service
    say "Done. On a phone on the same Wi-Fi, open http://$(hostname).local:8000"
    echo "The host PIN and logs: journalctl -u companion -f"
else
    say "Done. Start it with: $VENV/bin/companion serve"
fi
