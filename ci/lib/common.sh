# Shared host-side helpers for ci/qemu-suite.sh (sourced, not executed).
# Everything here runs on the CI host as root; nothing here runs inside the guest.

SUITE_T0=${EPOCHREALTIME}
STEP_T0=${EPOCHREALTIME}

# Elapsed seconds between two EPOCHREALTIME values, one decimal.
elapsed()
{
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'
}

say()
{
    echo "qemu-suite: $*"
}

die()
{
    echo "qemu-suite: ERROR: $*" >&2
    exit 2
}

# Close a timed phase: prints its duration and the running total, and appends it to the timings file.
step_done()
{
    local now=${EPOCHREALTIME}
    local line
    line=$(printf 'TIMING %-34s %7s s  (total %7s s)' "$1" "$(elapsed "$STEP_T0" "$now")" "$(elapsed "$SUITE_T0" "$now")")
    echo "$line"
    if [ -n "${TIMINGS_FILE:-}" ]; then
        echo "$line" >> "$TIMINGS_FILE"
    fi
    STEP_T0=$now
}

# Host packages the suite needs, as "command-or-path:package" pairs; a missing one is installed.
HOST_NEEDS=(
    "qemu-system-x86_64:qemu-system-x86"
    "qemu-img:qemu-utils"
    "debootstrap:debootstrap"
    "cpio:cpio"
    "depmod:kmod"
    "mkfs.ext4:e2fsprogs"
    "gzip:gzip"
    "timeout:coreutils"
)

# apt-get update (always: the kernel is resolved from the package lists), then install what is missing.
install_host_packages()
{
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || die "apt-get update failed"
    local missing=() pair cmd pkg
    for pair in "${HOST_NEEDS[@]}"; do
        cmd=${pair%%:*}; pkg=${pair#*:}
        command -v "$cmd" > /dev/null 2>&1 || missing+=("$pkg")
    done
    # The initramfs needs the static busybox: the dynamic one would not run without a libc in the cpio.
    dpkg-query -W -f='${Status}' busybox-static 2> /dev/null | grep -q 'install ok installed' || missing+=(busybox-static)
    if [ ${#missing[@]} -gt 0 ]; then
        say "installing host packages: ${missing[*]}"
        apt-get install -y -qq --no-install-recommends "${missing[@]}" > "$WORK/apt-host.log" 2>&1 \
            || { tail -20 "$WORK/apt-host.log"; die "apt-get install ${missing[*]} failed"; }
    fi
    [ -x /bin/busybox ] && /bin/busybox --list | grep -qx switch_root || die "/bin/busybox (busybox-static) lacks switch_root"
}
