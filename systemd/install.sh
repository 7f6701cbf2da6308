#!/usr/bin/env bash
# Install Dartship as a kiosk on Raspberry Pi OS Bookworm (Pi 4 / Pi 5). Safe to run again:
# every step checks first and only does what is missing; your config is never overwritten.
#
#   sudo systemd/install.sh                         install or update
#   sudo systemd/install.sh --board-port /dev/ttyUSB0
#                                                   ... and pin /dev/dartboard to that device
#   systemd/install.sh --dry-run                    print every step, change nothing
#   sudo systemd/install.sh --uninstall             remove program, units and rule (keeps data)
#   sudo systemd/install.sh --uninstall --purge     ... and the config, database, backups, user
#
# Other options: --no-apt (skip the apt step, e.g. offline), --kivy-from-source (build Kivy
# against Debian's SDL2 when the Kivy wheel's SDL2 cannot open the screen).
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=/opt/dartship
VENV=$PREFIX/venv
USER_NAME=dartship
STATE_DIR=/var/lib/dartship
CONF_DIR=/etc/dartship
CONF=$CONF_DIR/config.toml
UNIT_DIR=/etc/systemd/system
RULE=/etc/udev/rules.d/99-dartboard.rules
DOC_DIR=/usr/share/doc/dartship
GROUPS_NEEDED=(video render input gpio dialout audio)
UNITS=(dartship.service dartship-backup.service dartship-backup.timer)
# The pi extra's lgpio. On Bookworm (Python 3.11, glibc 2.36) pip takes PyPI's aarch64 wheel
# (manylinux_2_34, the lg C library linked in). Where there is no wheel (Python 3.13, an older
# glibc) pip builds it from source, which by default links to liblgpio: in Raspberry Pi's archive
# only, not in Debian's. PYPI=1 makes that build compile the lg library in, as the wheels are
# made, so it needs only swig, a C compiler and python3-dev, on Raspberry Pi OS and plain Debian.
LGPIO="lgpio>=0.2"
APT_PACKAGES=(
  python3 python3-venv python3-dev python3-pip build-essential pkg-config
  # Kivy's runtime on KMS/DRM: SDL2 and its image/mixer/ttf parts, GL ES/EGL/GBM (Mesa's
  # v3d driver), mtdev for multitouch screens.
  libsdl2-2.0-0 libsdl2-image-2.0-0 libsdl2-mixer-2.0-0 libsdl2-ttf-2.0-0
  libgl1 libgles2 libegl1 libgbm1 libdrm2 libgl1-mesa-dri libegl-mesa0 libmtdev1
  # To build lgpio, gpiozero's pin library for the Pi 4/5, where pip finds no wheel (LGPIO below).
  swig
  # The caller's voice: espeak-ng renders its phrases (played through SDL2's audio above).
  espeak-ng
  sqlite3
)
KIVY_BUILD_PACKAGES=(
  libsdl2-dev libsdl2-image-dev libsdl2-mixer-dev libsdl2-ttf-dev libmtdev-dev
  libgles2-mesa-dev libegl1-mesa-dev libgbm-dev libdrm-dev
)

DRY_RUN=0
UNINSTALL=0
PURGE=0
APT=1
KIVY_FROM_SOURCE=0
BOARD_PORT=""

usage() {
  sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) DRY_RUN=1 ;;
    --uninstall) UNINSTALL=1 ;;
    --purge) PURGE=1 ;;
    --no-apt) APT=0 ;;
    --kivy-from-source) KIVY_FROM_SOURCE=1 ;;
    --board-port)
      [ $# -ge 2 ] || { echo "--board-port needs a device, like /dev/ttyUSB0" >&2; exit 2; }
      BOARD_PORT=$2
      shift
      ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown option: $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done
if [ "$PURGE" = 1 ] && [ "$UNINSTALL" = 0 ]; then
  echo "--purge only goes with --uninstall" >&2
  exit 2
fi

# -- how every step is done: printed, and in --dry-run only printed --

step() { printf '\n== %s\n' "$*"; }
note() { printf '   %s\n' "$*"; }
run() {
  printf '+ %s\n' "$*"
  if [ "$DRY_RUN" = 0 ]; then
    "$@"
  fi
}
# write_file DEST MODE OWNER:GROUP < content: atomically, only when the content changed.
write_file() {
  local dest=$1 mode=$2 owner=$3 tmp
  if [ "$DRY_RUN" = 1 ]; then
    if [ -f "$dest" ] && cmp -s - "$dest"; then
      note "$dest is up to date"
    else
      printf '+ write %s (mode %s, owner %s)\n' "$dest" "$mode" "$owner"
    fi
    cat >/dev/null
    return
  fi
  tmp=$(mktemp)
  cat >"$tmp"
  if [ -f "$dest" ] && cmp -s "$tmp" "$dest"; then
    note "$dest is up to date"
    rm -f "$tmp"
    return
  fi
  printf '+ write %s (mode %s, owner %s)\n' "$dest" "$mode" "$owner"
  install -m "$mode" -o "${owner%%:*}" -g "${owner##*:}" "$tmp" "$dest"
  rm -f "$tmp"
}

# In a chroot (an SD card image being built) neither systemd nor udevd runs: units are then
# enabled offline (systemctl makes the links) and start at the first boot.
systemd_running() {
  [ "$DRY_RUN" = 1 ] || [ -d /run/systemd/system ]
}
udev_running() {
  [ "$DRY_RUN" = 1 ] || [ -S /run/udev/control ]
}

if [ "$DRY_RUN" = 1 ]; then
  echo "Dry run: every step is printed, nothing is changed."
elif [ "$(id -u)" != 0 ]; then
  echo "Run it as root: sudo $0 $*  (or with --dry-run to see what it would do)" >&2
  exit 1
fi

# -- uninstall --

uninstall() {
  step "Stop and disable the kiosk and the backup timer"
  for unit in "${UNITS[@]}"; do
    if [ -f "$UNIT_DIR/$unit" ] && systemd_running; then
      run systemctl disable --now "$unit"
    elif [ -f "$UNIT_DIR/$unit" ]; then
      run systemctl disable "$unit"
    else
      note "$unit is not installed"
    fi
  done
  step "Remove the units and the udev rule"
  for unit in "${UNITS[@]}"; do
    run rm -f "$UNIT_DIR/$unit"
  done
  run rm -f "$RULE"
  if systemd_running; then
    run systemctl daemon-reload
  fi
  if udev_running; then
    run udevadm control --reload-rules
  fi
  step "Give tty1 back to the login prompt"
  run systemctl enable getty@tty1.service
  step "Remove the program"
  run rm -rf "$PREFIX" "$DOC_DIR"
  run rm -f /usr/local/bin/dartship
  if [ "$PURGE" = 1 ]; then
    step "Purge: the config, the database and its backups, the user"
    run rm -rf "$CONF_DIR" "$STATE_DIR"
    if id "$USER_NAME" >/dev/null 2>&1; then
      run userdel "$USER_NAME"
    fi
  else
    step "Kept"
    note "config:    $CONF_DIR"
    note "games:     $STATE_DIR (database and backups/)"
    note "user:      $USER_NAME"
    note "Remove them too with: sudo $0 --uninstall --purge"
  fi
  step "Done. Reboot to get the console back on the screen."
}

if [ "$UNINSTALL" = 1 ]; then
  uninstall
  exit 0
fi

# -- install --

step "Check the system"
[ -f "$REPO/pyproject.toml" ] || { echo "$REPO is not the Dartship source folder" >&2; exit 1; }
note "source: $REPO"
# shellcheck source=/dev/null
codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-unknown}")
if [ "$codename" != bookworm ]; then
  note "warning: this is '$codename', the script is made for Raspberry Pi OS Bookworm"
fi
if [ -n "$BOARD_PORT" ] && [ ! -e "$BOARD_PORT" ]; then
  echo "$BOARD_PORT does not exist: plug the board in, then look at: ls /dev/ttyUSB* /dev/ttyACM*" >&2
  exit 1
fi

if [ "$APT" = 1 ]; then
  step "Install the system packages"
  packages=("${APT_PACKAGES[@]}")
  if [ "$KIVY_FROM_SOURCE" = 1 ]; then
    packages+=("${KIVY_BUILD_PACKAGES[@]}")
  fi
  run apt-get update
  run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${packages[@]}"
else
  step "Skip the system packages (--no-apt)"
fi

step "The kiosk's user and its groups"
for group in "${GROUPS_NEEDED[@]}"; do
  if getent group "$group" >/dev/null; then
    note "group $group exists"
  else
    # Raspberry Pi OS has them all; the unit cannot start if one is missing.
    run groupadd --system "$group"
  fi
done
group_list=$(IFS=,; echo "${GROUPS_NEEDED[*]}")
if id "$USER_NAME" >/dev/null 2>&1; then
  note "user $USER_NAME exists"
  run usermod --append --groups "$group_list" "$USER_NAME"
else
  run useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
    --shell /usr/sbin/nologin --groups "$group_list" "$USER_NAME"
fi

step "The program: a venv in $VENV with Dartship and its pi extra"
if [ -x "$VENV/bin/python" ]; then
  note "venv exists"
else
  run install -d -m 0755 "$PREFIX"
  run python3 -m venv "$VENV"
fi
run "$VENV/bin/pip" install --upgrade pip
if [ "$KIVY_FROM_SOURCE" = 1 ]; then
  run "$VENV/bin/pip" install --no-binary kivy "kivy[base]>=2.3"
fi
run env PYPI=1 "$VENV/bin/pip" install "$LGPIO"
run "$VENV/bin/python" -c 'import lgpio; print("lgpio", hex(lgpio.LGPIO_PY_VERSION), "imports")'
run "$VENV/bin/pip" install --upgrade "${REPO}[pi]"
run ln -sfn "$VENV/bin/dartship" /usr/local/bin/dartship
run install -d -m 0755 "$DOC_DIR"
run install -m 0644 "$REPO/docs/raspberry-pi.md" "$DOC_DIR/raspberry-pi.md"

step "The data folder: $STATE_DIR"
# dartship.service makes it too (StateDirectory=); made here, the doctor and a backup by hand
# work before the first start.
run install -d -m 0750 -o "$USER_NAME" -g "$USER_NAME" "$STATE_DIR"

step "The config: $CONF"
run install -d -m 0750 -o "$USER_NAME" -g "$USER_NAME" "$CONF_DIR"
if [ -e "$CONF" ]; then
  note "$CONF exists: kept as it is"
elif [ "$DRY_RUN" = 1 ]; then
  printf '+ write %s from "dartship config show" with display.fullscreen and display.kiosk_mode = true\n' "$CONF"
else
  # The defaults of this version, every key with its help, the screen set up as a kiosk.
  env -u DARTSHIP_CONFIG "$VENV/bin/dartship" config show --config /dev/null \
    | sed -e 's/^fullscreen = false$/fullscreen = true/' -e 's/^kiosk_mode = false$/kiosk_mode = true/' \
    | write_file "$CONF" 0640 "$USER_NAME:$USER_NAME"
  "$VENV/bin/dartship" config check --config "$CONF"
fi

step "The caller's voice: its phrases rendered into $STATE_DIR/voice-cache"
# Once per language and voice, as the kiosk's user (the kiosk renders the rest on first use and
# a game's names when it starts). Without espeak-ng (--no-apt) it says so; the kiosk still runs.
run runuser -u "$USER_NAME" -- env STATE_DIRECTORY="$STATE_DIR" DARTSHIP_CONFIG="$CONF" \
  "$VENV/bin/dartship" caller build

step "The units and the udev rule"
for unit in "${UNITS[@]}"; do
  write_file "$UNIT_DIR/$unit" 0644 root:root <"$REPO/systemd/$unit"
done
if [ -n "$BOARD_PORT" ]; then
  # One rule for exactly this device: its vendor, product and (when it has one) serial number.
  props=$(udevadm info --query=property --name="$BOARD_PORT")
  vendor=$(sed -n 's/^ID_VENDOR_ID=//p' <<<"$props")
  model=$(sed -n 's/^ID_MODEL_ID=//p' <<<"$props")
  serial=$(sed -n 's/^ID_SERIAL_SHORT=//p' <<<"$props")
  if [ -z "$vendor" ] || [ -z "$model" ]; then
    echo "$BOARD_PORT has no USB vendor/product id: is it a USB serial device?" >&2
    exit 1
  fi
  match="ATTRS{idVendor}==\"$vendor\", ATTRS{idProduct}==\"$model\""
  if [ -n "$serial" ]; then
    match="$match, ATTRS{serial}==\"$serial\""
  fi
  note "board: vendor $vendor, product $model${serial:+, serial $serial}"
  printf '# Written by install.sh --board-port %s\nSUBSYSTEM=="tty", %s, SYMLINK+="dartboard", GROUP="dialout", MODE="0660", ENV{ID_MM_DEVICE_IGNORE}="1"\n' \
    "$BOARD_PORT" "$match" | write_file "$RULE" 0644 root:root
else
  write_file "$RULE" 0644 root:root <"$REPO/systemd/99-dartboard.rules"
fi
if udev_running; then
  run udevadm control --reload-rules
  run udevadm trigger --subsystem-match=tty --action=add
else
  note "udev is not running here (a chroot, an image being built): the rule applies from the next boot"
fi

step "Enable the kiosk on tty1 and the daily backup"
if systemd_running; then
  run systemctl daemon-reload
else
  note "systemd is not running here (a chroot, an image being built): the units are enabled offline"
fi
# Conflicts= stops the login prompt whenever the kiosk starts; disabling it keeps the two from
# racing for tty1 at boot.
run systemctl disable getty@tty1.service
run systemctl enable dartship.service
if systemd_running; then
  run systemctl enable --now dartship-backup.timer
else
  run systemctl enable dartship-backup.timer
fi

step "Done"
note "Check everything:        sudo dartship doctor"
note "Start the kiosk now:     sudo systemctl start dartship   (or reboot)"
note "Its log:                 journalctl -u dartship -f"
note "Settings:                sudo nano $CONF, then: sudo systemctl restart dartship"
