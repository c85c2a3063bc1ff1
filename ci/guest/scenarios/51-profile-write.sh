# Where the time goes in the baseline: Linux perf samples the whole guest (cpu-clock on both vCPUs: there is no PMU
# under TCG) during one ib_write_bw rxe0 -> rxe1 run and one `jrxe perf --op write` NIC C -> NIC B run, the same
# setup as 50-baseline-write with fewer messages. The JVMs write perf maps at exit so JIT-compiled Java methods
# have names. For each run it prints, as GUEST-PROFILE lines, the share of samples per thread and shared object and
# the hottest symbols:
#   GUEST-PROFILE <rxe|jrxe> <comm|sym> <percent> <what>
# Passes when both runs completed and perf recorded samples for both.
# timeout: 900

ITERS=100
SIZE=65536

require_jar
command -v perf > /dev/null || fail "no perf in the guest (package linux-perf)"
two_rxe_devices
problems=()

# profile_run NAME COMMAND...: runs COMMAND under a system-wide `perf record` (lib.sh) into /tmp/profile-NAME.data.
profile_run()
{
    local name=$1
    shift
    profile_start "$name"
    "$@"
    profile_stop "$name"
}

run_problems=()
profile_run rxe rxe_write_run $ITERS $SIZE /tmp/profile-rxe-server.log /tmp/profile-rxe-client.log
problems+=("${run_problems[@]}")
rxe_bw=$(perftest_bw_average /tmp/profile-rxe-client.log $SIZE)

run_problems=()
profile_run jrxe jrxe_write_run $ITERS $SIZE /tmp/profile-jrxe-server.log /tmp/profile-jrxe-client.log \
    $PROFILE_JVM_OPTS
problems+=("${run_problems[@]}")
jrxe_bw=$(perftest_bw_average /tmp/profile-jrxe-client.log $SIZE)
show_log /tmp/profile-jrxe-client.log "jrxe client" 6

profile_report rxe
profile_report jrxe
figures="size=$SIZE iters=$ITERS rxe_gbps=${rxe_bw:-?} jrxe_gbps=${jrxe_bw:-?}"
figures+=" rxe_samples=$(profile_samples rxe) jrxe_samples=$(profile_samples jrxe)"
[ -n "$jrxe_bw" ] || problems+=("no jrxe result line")
if [ ${#problems[@]} -gt 0 ]; then
    show_jvm_crashes
    fail "$(printf '%s; ' "${problems[@]}")$figures"
fi
pass "$figures"
