#!/bin/bash
# Guest test suite: boots a Debian kernel under QEMU (TCG, emulated VT-d, four virtio-net NICs on one hub), runs
# every ci/guest/scenarios/NN-name.sh inside it, and reports one GUEST-TEST line per scenario.
#
# Usage: ci/qemu-suite.sh [--jar PATH] [--workdir DIR] [--keep] [--only a,b] [--host-mtu N] [--timeout SECS]
#                         [--cache DIR] [--tcg single|multi] [--append ARGS]
#   --jar PATH      jrxe.jar to test (default: tools/target/jrxe.jar); a missing jar fails the scenarios needing it
#   --workdir DIR   scratch space, about 1.5 GiB (default: ci-work/ in the repository, which git ignores)
#   --keep          keep the rootfs, image, kernel and initramfs in the workdir (logs are always kept)
#   --only LIST     run only these scenarios (comma-separated names, e.g. guest-boot,nic-ping)
#   --host-mtu N    give every NIC VIRTIO_NET_F_MTU = N (jumbo frames)
#   --timeout SECS  wall-clock limit for the QEMU run (default 2400)
#   --cache DIR     keep the debootstrapped rootfs as a tarball in DIR, keyed on its package list and the week
#                   (also JRXE_CI_CACHE); off by default so that CI always builds it fresh
#   --tcg MODE      single (default) runs both vCPUs on one host thread; multi gives each its own. Multi is about
#                   twice as fast, but the guest JVM then dies now and then with SIGILL/SIGSEGV in freshly patched
#                   JIT code (QEMU 7.2's multi-threaded TCG and HotSpot's cross-modifying code), so CI uses single
#   --append ARGS   more guest kernel command line (e.g. clocksource=tsc, to try a setting before making it the default)
#
# Run as root on Debian 12; missing host packages are installed with apt-get. Exit status: 0 when every scenario
# passed; 1 when a scenario failed, the guest did not boot or finish, or QEMU timed out; 2 on a setup error.
set -euo pipefail
# set -e alone would stop the suite without a word.
trap 'echo "qemu-suite: ERROR: \"$BASH_COMMAND\" failed (status $?) at line $LINENO" >&2' ERR

CI_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$CI_DIR/.." && pwd)
# shellcheck source=lib/common.sh
source "$CI_DIR/lib/common.sh"
source "$CI_DIR/lib/kernel.sh"
source "$CI_DIR/lib/initramfs.sh"
source "$CI_DIR/lib/rootfs.sh"
source "$CI_DIR/lib/qemu.sh"

JAR=$REPO_DIR/tools/target/jrxe.jar
WORK=$REPO_DIR/ci-work
KEEP=0
ONLY=""
HOST_MTU=""
QEMU_TIMEOUT=2400
TCG_THREADS=single
EXTRA_APPEND=""
CACHE_DIR=${JRXE_CI_CACHE:-}

need_arg()
{
    [ $# -ge 2 ] && [ -n "$2" ] || die "$1 needs a value (see the usage at the top of $0)"
}

while [ $# -gt 0 ]; do
    case $1 in
        --jar) need_arg "$@"; JAR=$2; shift 2 ;;
        --workdir) need_arg "$@"; WORK=$2; shift 2 ;;
        --keep) KEEP=1; shift ;;
        --only) need_arg "$@"; ONLY=$2; shift 2 ;;
        --host-mtu) need_arg "$@"; HOST_MTU=$2; shift 2 ;;
        --timeout) need_arg "$@"; QEMU_TIMEOUT=$2; shift 2 ;;
        --cache) need_arg "$@"; CACHE_DIR=$2; shift 2 ;;
        --tcg) need_arg "$@"; TCG_THREADS=$2; shift 2 ;;
        --append) need_arg "$@"; EXTRA_APPEND=$2; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
done

[ "$(id -u)" = 0 ] || die "run as root: it installs packages, debootstraps and binds devices inside the guest"
[[ $QEMU_TIMEOUT =~ ^[0-9]+$ ]] || die "--timeout wants seconds, got '$QEMU_TIMEOUT'"
[ -z "$HOST_MTU" ] || [[ $HOST_MTU =~ ^[0-9]+$ && $HOST_MTU -ge 68 && $HOST_MTU -le 65535 ]] \
    || die "--host-mtu wants 68..65535, got '$HOST_MTU'"
[[ $TCG_THREADS =~ ^(single|multi)$ ]] || die "--tcg wants single or multi, got '$TCG_THREADS'"
[[ $ONLY =~ ^[a-z0-9,-]*$ ]] || die "--only wants comma-separated scenario names, got '$ONLY'"
if [ -n "$ONLY" ]; then
    for name in ${ONLY//,/ }; do
        ls "$CI_DIR"/guest/scenarios/[0-9]*-"$name".sh > /dev/null 2>&1 || die "--only: no scenario named '$name'"
    done
fi

mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
TIMINGS_FILE=$WORK/timings.txt
CONSOLE_LOG=$WORK/console.log
RESULTS=$WORK/guest-results.txt
: > "$TIMINGS_FILE"
rm -f "$CONSOLE_LOG" "$RESULTS"

if [ -f "$JAR" ]; then
    JAR=$(cd "$(dirname "$JAR")" && pwd)/$(basename "$JAR")
    say "jar: $JAR"
else
    say "WARNING: no jar at $JAR; scenarios that need jrxe will FAIL (build it: mvn -B -q package -DskipTests)"
    JAR=""
fi

install_host_packages
step_done "host packages"

fetch_kernel
step_done "kernel $KV"

build_initramfs "$WORK/initramfs.cpio.gz"
step_done "initramfs"

debootstrap_rootfs "$WORK/rootfs"
step_done "debootstrap rootfs"

install_payload "$WORK/rootfs" "$JAR"
make_image "$WORK/rootfs" "$WORK/rootfs.ext4"
step_done "payload + ext4 image"

# no_timer_check: under TCG on a busy host the kernel's early check of the timer through the interrupt-remapped
# IO-APIC can miss its window and panic ("timer doesn't work through Interrupt-remapped IO-APIC").
APPEND="console=ttyS0 panic=-1 intel_iommu=on iommu=pt no_timer_check quiet jrxe.init=/opt/jrxe/ci/init.sh"
[ -n "$ONLY" ] && APPEND+=" jrxe.only=$ONLY"
[ -n "$HOST_MTU" ] && APPEND+=" jrxe.host_mtu=$HOST_MTU"
[ -n "$EXTRA_APPEND" ] && APPEND+=" $EXTRA_APPEND"

say "booting the guest (TCG thread=$TCG_THREADS; limit $QEMU_TIMEOUT s); its console follows"
set +e
run_qemu "$WORK/kernel/root/boot/vmlinuz-$KV" "$WORK/initramfs.cpio.gz" "$WORK/rootfs.ext4" "$APPEND" \
    | {
        t0=${EPOCHREALTIME}
        while IFS= read -r line; do
            line=${line%$'\r'}
            case $line in
                *"is not connected to host network"*) continue ;;
            esac
            stamp=$(elapsed "$t0" "${EPOCHREALTIME}")
            printf '%8s | %s\n' "$stamp" "$line" >> "$CONSOLE_LOG"
            printf 'guest %8s | %s\n' "$stamp" "$line"
        done
    }
QEMU_RC=${PIPESTATUS[0]}
set -e
step_done "guest boot + scenarios"

# A kernel message can land in the middle of a console line, so take each marker from where it starts.
grep -a -o 'GUEST-TEST .*' "$CONSOLE_LOG" | sed 's/[[:space:]]*$//' > "$RESULTS" || true
# Measurements some scenarios print besides their result (not tests: they neither pass nor fail).
grep -a -o 'GUEST-BASELINE .*' "$CONSOLE_LOG" | sed 's/[[:space:]]*$//' > "$WORK/guest-baselines.txt" || true
grep -a -o 'GUEST-PROFILE .*' "$CONSOLE_LOG" | sed 's/[[:space:]]*$//' > "$WORK/guest-profiles.txt" || true
SUMMARY=$(grep -a -o 'GUEST-TESTS: [0-9]* passed, [0-9]* failed' "$CONSOLE_LOG" | tail -1 || true)
BOOT_ERROR=$(grep -a -o 'GUEST-BOOT-ERROR .*' "$CONSOLE_LOG" | head -1 || true)
PANIC=$(grep -a -o 'Kernel panic.*' "$CONSOLE_LOG" | head -1 || true)

if [ "$KEEP" = 0 ]; then
    rm -rf "$WORK/rootfs" "$WORK/rootfs.ext4" "$WORK/initramfs" "$WORK/initramfs.cpio.gz" "$WORK/kernel/root" \
        "$WORK/debootstrap-debs"
fi

echo
echo "==== guest results ($CONSOLE_LOG)"
cat "$TIMINGS_FILE"
cat "$RESULTS"
cat "$WORK/guest-profiles.txt" "$WORK/guest-baselines.txt"
PASSED=$(awk '$3 == "PASS"' "$RESULTS" | wc -l)
FAILED=$(awk '$3 != "PASS"' "$RESULTS" | wc -l)
STATUS=0
if [ "$QEMU_RC" = 124 ] || [ "$QEMU_RC" = 137 ]; then
    say "FAIL: QEMU timed out after $QEMU_TIMEOUT s"
    STATUS=1
elif [ "$QEMU_RC" != 0 ]; then
    say "FAIL: QEMU exited with status $QEMU_RC"
    STATUS=1
fi
if [ -n "$BOOT_ERROR" ]; then
    say "FAIL: the guest did not boot: $BOOT_ERROR"
    STATUS=1
fi
if [ -n "$PANIC" ]; then
    say "FAIL: the guest kernel panicked: $PANIC"
    STATUS=1
fi
if [ -z "$SUMMARY" ]; then
    say "FAIL: the guest never printed GUEST-TESTS (did not boot, crashed or was cut off)"
    STATUS=1
elif [ "$SUMMARY" != "GUEST-TESTS: $PASSED passed, $FAILED failed" ]; then
    say "FAIL: the guest's '$SUMMARY' does not match its $PASSED PASS and $FAILED FAIL lines"
    STATUS=1
fi
[ "$FAILED" = 0 ] || STATUS=1
[ $((PASSED + FAILED)) -gt 0 ] || { say "FAIL: no scenario ran"; STATUS=1; }
echo "GUEST-TESTS: $PASSED passed, $FAILED failed"
exit $STATUS
