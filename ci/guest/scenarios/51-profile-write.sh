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
# 250 Hz per vCPU: enough samples in a one-minute run without slowing the TCG guest noticeably.
FREQ=250

require_jar
command -v perf > /dev/null || fail "no perf in the guest (package linux-perf)"
two_rxe_devices
problems=()

# profile_run NAME COMMAND...: runs COMMAND under a system-wide `perf record` into /tmp/profile-NAME.data.
profile_run()
{
    local name=$1 data=/tmp/profile-$1.data ppid rc
    shift
    # --no-buildid: collecting build ids at the end takes minutes under TCG and the report runs here anyway.
    perf record -a -e cpu-clock -F $FREQ --no-buildid -o "$data" > "/tmp/profile-$name.record.log" 2>&1 &
    ppid=$!
    "$@"
    # TERM, not INT: a background job of a non-interactive shell ignores SIGINT. perf writes its data and then
    # re-raises the signal, so it ends with status 143.
    kill -TERM $ppid
    wait_pid_exit $ppid 120
    rc=$?
    show_log "/tmp/profile-$name.record.log" "perf record" 5
    [ $rc = 0 ] || [ $rc = 143 ] || problems+=("perf record for $name ended with status $rc")
}

# profile_report NAME: the per-thread/object shares and the top symbols of a recording, as GUEST-PROFILE lines.
profile_report()
{
    local name=$1 data=/tmp/profile-$1.data
    [ -s "$data" ] || { problems+=("no perf data for $name"); return; }
    perf report -i "$data" --stdio --no-children --sort comm,dso --percent-limit 1.5 -q 2> /dev/null \
        | awk -v n="$name" 'NF >= 3 { p = $1; $1 = ""; sub(/^ +/, ""); print "GUEST-PROFILE " n " comm " p " " $0 }' \
        > "/tmp/profile-$name.comm"
    perf report -i "$data" --stdio --no-children --sort sym --percent-limit 0.8 -q 2> /dev/null | head -30 \
        | awk -v n="$name" 'NF >= 2 { p = $1; $1 = ""; sub(/^ +/, ""); print "GUEST-PROFILE " n " sym " p " " $0 }' \
        > "/tmp/profile-$name.sym"
    cat "/tmp/profile-$name.comm" "/tmp/profile-$name.sym"
    [ -s "/tmp/profile-$name.comm" ] || problems+=("perf report for $name is empty")
}

# profile_samples NAME: how many samples a recording holds ("12K" style, from perf's report header).
profile_samples()
{
    perf report -i "/tmp/profile-$1.data" --stdio --sort comm 2> /dev/null | sed -n 's/^# Samples: \([^ ]*\) .*/\1/p' \
        | head -1
}

run_problems=()
profile_run rxe rxe_write_run $ITERS $SIZE /tmp/profile-rxe-server.log /tmp/profile-rxe-client.log
problems+=("${run_problems[@]}")
rxe_bw=$(perftest_bw_average /tmp/profile-rxe-client.log $SIZE)

run_problems=()
profile_run jrxe jrxe_write_run $ITERS $SIZE /tmp/profile-jrxe-server.log /tmp/profile-jrxe-client.log \
    -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit
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
