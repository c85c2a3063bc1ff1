# perftest's latency tests between the kernel's Soft-RoCE (rxe0 on NIC A) and jrxe's perftest peer mode on NIC B
# (vfio-pci), both roles each: ib_X_lat client -> `jrxe perf --lat --op X --server`, then `jrxe perf --lat --op X`
# client -> ib_X_lat server, for X = send, write, read, atomic (2-byte messages, 8 for atomic, few iterations: the
# guest is TCG-emulated), and send once more with jrxe's loop run to completion (--layout single). Then ib_write_bw
# with 4 QPs (-q 4) and bidirectional (-b), ib_send_bw bidirectional (-b), over all sizes (-a: 2 B .. 8 MiB,
# 5 messages each, perftest's least) and ib_send_lat for a duration (-D 1), both roles each.
# Checks: every run exits 0 and prints its result line (the read/atomic servers print none, as perftest's; with -a
# a line for each of the 23 sizes on both sides; with -D the duration table's line, iterations counted), jrxe's
# counters show no errors.
# timeout: 1000

LAT_ITERS=100
BW_ITERS=100
BW_SIZE=65536
RUN_TIMEOUT=300
BW_PARTS=yes
SEND_PARTS=yes
# -a: perftest's least -n; every size 2..2^23 (16 MiB a message's worth in all) goes that many times each way
ALL_ITERS=5
SEND_B_SIZE=4096

interop_setup
log "rxe0 on $eth, RoCE v2 GID index $gidx; NIC B on vfio-pci"

problems=()
figures="lat_iters=$LAT_ITERS"
devices=()

# lat_column FILE SIZE ITERS COLUMN: a column of the latency line "SIZE ITERS t_min t_max t_typical ..." (perftest's
# or jrxe's; 5 = t_typical).
lat_column()
{
    awk -v s="$2" -v n="$3" -v c="$4" '$1 == s && $2 == n && NF >= 9 { v = $c } END { if (v != "") print v }' "$1"
}

# all_sizes FILE ITERS: how many of -a's sizes (2..2^23) have a line of ITERS iterations in a perftest bandwidth table.
all_sizes()
{
    awk -v n="$2" '$2 == n && NF >= 5 && $1 ~ /^[0-9]+$/ { for (s = 2; s <= 8388608; s *= 2) if ($1 == s) seen[s] = 1 }
        END { c = 0; for (s in seen) c++; print c }' "$1"
}

# duration_iters FILE SIZE: the iterations of the duration table's line "SIZE ITERS t_avg tps" (print_report_lat_duration;
# perftest's or jrxe's), if it counted any.
duration_iters()
{
    awk -v s="$2" '$1 == s && NF == 4 && $2 ~ /^[0-9]+$/ && $2 > 0 { v = $2 } END { if (v != "") print v }' "$1"
}

# interop NAME JRXE_ARGS KERNEL_TOOL KERNEL_ARGS CHECK: one test both ways. CHECK is "lat SIZE ITERS SERVER_PRINTS",
# "bw SIZE", "all ITERS" (-a) or "dur SIZE" (a latency test with -D). Appends to problems and figures.
interop()
{
    local name=$1 jargs=$2 tool=$3 kargs=$4 check=$5
    local kind size iters server_prints
    read -r kind size iters server_prints <<< "$check"
    local jrxe_perf=("${JRXE[@]}" perf $jargs --pci "$NIC_B_BDF" --ip "$JRXE_B_IP/$NIC_PREFIX"
        "${JRXE_NODE_OPTS[@]}" --keep-counters -u "$ACK_TIMEOUT" --timeout "$RUN_TIMEOUT")
    local kernel=(timeout $((RUN_TIMEOUT + 240)) "$tool" -d rxe0 -x "$gidx" -F -u "$ACK_TIMEOUT" $kargs)
    local srv_log=/tmp/jrxe-$name-server.log kcli_log=/tmp/$name-kernel-client.log
    local cli_log=/tmp/jrxe-$name-client.log ksrv_log=/tmp/$name-kernel-server.log
    local jpid kpid jrc krc k2j j2k

    # 1. kernel client -> jrxe server
    start_jrxe_server "$srv_log" "${jrxe_perf[@]}" --name "jrxe-$name-srv" --server
    jpid=$JRXE_PID
    "${kernel[@]}" 127.0.0.1 > "$kcli_log" 2>&1
    krc=$?
    wait_pid_exit $jpid 120
    jrc=$?
    show_log "$kcli_log" "$tool client" 8
    show_log "$srv_log" "jrxe server" 10
    [ $krc = 0 ] || problems+=("$name: $tool client exited $krc")
    [ $jrc = 0 ] || problems+=("$name: jrxe server exited $jrc")

    # 2. jrxe client -> kernel server
    "${kernel[@]}" > "$ksrv_log" 2>&1 &
    kpid=$!
    wait_until 30 tcp_listening $OOB_PORT || problems+=("$name: $tool server not listening")
    timeout $((RUN_TIMEOUT + 240)) "${jrxe_perf[@]}" --name "jrxe-$name-cli" 127.0.0.1 > "$cli_log" 2>&1
    jrc=$?
    wait_pid_exit $kpid 120
    krc=$?
    show_log "$cli_log" "jrxe client" 10
    show_log "$ksrv_log" "$tool server" 8
    [ $jrc = 0 ] || problems+=("$name: jrxe client exited $jrc")
    [ $krc = 0 ] || problems+=("$name: $tool server exited $krc")

    if [ "$kind" = all ]; then
        # size is ITERS here: every one of the 23 sizes has its line on both sides of both runs
        local log n
        for log in "$kcli_log" "$srv_log" "$cli_log" "$ksrv_log"; do
            n=$(all_sizes "$log" "$size")
            [ "$n" = 23 ] || problems+=("$name: $(basename "$log") has lines for $n of the 23 sizes")
        done
        k2j=$(perftest_bw_average "$kcli_log" 8388608)
        j2k=$(perftest_bw_average "$cli_log" 8388608)
        figures+=" ${name}_8m_k2j_gbps=${k2j:-?} ${name}_8m_j2k_gbps=${j2k:-?}"
    elif [ "$kind" = dur ]; then
        local log
        for log in "$kcli_log" "$srv_log" "$cli_log" "$ksrv_log"; do
            [ -n "$(duration_iters "$log" "$size")" ] || problems+=("$name: $(basename "$log") has no duration line")
        done
        k2j=$(duration_iters "$kcli_log" "$size")
        j2k=$(duration_iters "$cli_log" "$size")
        figures+=" ${name}_k2j_iters=${k2j:-?} ${name}_j2k_iters=${j2k:-?}"
    elif [ "$kind" = lat ]; then
        k2j=$(lat_column "$kcli_log" "$size" "$iters" 5)
        j2k=$(lat_column "$cli_log" "$size" "$iters" 5)
        [ -n "$k2j" ] || problems+=("$name: $tool client printed no result line")
        [ -n "$j2k" ] || problems+=("$name: jrxe client printed no result line")
        if [ "$server_prints" = yes ]; then
            [ -n "$(lat_column "$srv_log" "$size" "$iters" 5)" ] || problems+=("$name: jrxe server printed no line")
            [ -n "$(lat_column "$ksrv_log" "$size" "$iters" 5)" ] || problems+=("$name: $tool server printed no line")
        fi
        figures+=" ${name}_k2j_us=${k2j:-?} ${name}_j2k_us=${j2k:-?}"
    else
        k2j=$(perftest_bw_average "$kcli_log" "$size")
        j2k=$(perftest_bw_average "$cli_log" "$size")
        [ -n "$k2j" ] || problems+=("$name: $tool client printed no result line")
        [ -n "$j2k" ] || problems+=("$name: jrxe client printed no result line")
        [ -n "$(perftest_bw_average "$srv_log" "$size")" ] || problems+=("$name: jrxe server printed no line")
        [ -n "$(perftest_bw_average "$ksrv_log" "$size")" ] || problems+=("$name: $tool server printed no line")
        figures+=" ${name}_k2j_gbps=${k2j:-?} ${name}_j2k_gbps=${j2k:-?}"
    fi
    devices+=("jrxe-$name-srv" "jrxe-$name-cli")
}

started=$EPOCHREALTIME
interop send_lat "--lat --op send -s 2 -n $LAT_ITERS" ib_send_lat "-s 2 -n $LAT_ITERS" "lat 2 $LAT_ITERS yes"
# run to completion: jrxe's application thread drives its node during the measured loop (53-baseline-send-lat's way)
interop send_lat_rtc "--lat --op send -s 2 -n $LAT_ITERS --layout single" ib_send_lat "-s 2 -n $LAT_ITERS" \
    "lat 2 $LAT_ITERS yes"
interop write_lat "--lat --op write -s 2 -n $LAT_ITERS --hgrm /tmp/write_lat.hgrm" ib_write_lat \
    "-s 2 -n $LAT_ITERS" "lat 2 $LAT_ITERS yes"
interop read_lat "--lat --op read -s 2 -n $LAT_ITERS" ib_read_lat "-s 2 -n $LAT_ITERS" "lat 2 $LAT_ITERS no"
interop atomic_lat "--lat --op atomic -s 8 -n $LAT_ITERS" ib_atomic_lat "-n $LAT_ITERS" "lat 8 $LAT_ITERS no"
if [ "$BW_PARTS" = yes ]; then
    interop write_bw_q4 "--op write -q 4 -s $BW_SIZE -n $BW_ITERS --report-gbits" ib_write_bw \
        "-q 4 -s $BW_SIZE -n $BW_ITERS --report_gbits" "bw $BW_SIZE"
    interop write_bw_b "--op write -b -s $BW_SIZE -n $BW_ITERS --report-gbits" ib_write_bw \
        "-b -s $BW_SIZE -n $BW_ITERS --report_gbits" "bw $BW_SIZE"
fi
if [ "$SEND_PARTS" = yes ]; then
    interop send_bw_b "--op send -b -s $SEND_B_SIZE -n $BW_ITERS --report-gbits" ib_send_bw \
        "-b -s $SEND_B_SIZE -n $BW_ITERS --report_gbits" "bw $SEND_B_SIZE"
    interop send_bw_a "--op send -a -n $ALL_ITERS --report-gbits" ib_send_bw "-a -n $ALL_ITERS --report_gbits" \
        "all $ALL_ITERS"
    interop send_lat_d "--lat --op send -s 2 -D 1" ib_send_lat "-s 2 -D 1" "dur 2"
fi
[ -s /tmp/write_lat.hgrm ] || problems+=("write_lat: jrxe client wrote no --hgrm file")

# one `jrxe stat` for every run's counters files
stat_out=/tmp/jrxe-stat-$SCENARIO.txt
"${JRXE[@]}" stat --all "${devices[@]}" > "$stat_out" 2>&1 || problems+=("jrxe stat failed")
for dev in "${devices[@]}"; do
    counters=$(jrxe_counters "$stat_out" "$dev")
    [ -n "$counters" ] || problems+=("no counters for $dev in jrxe stat")
    errs=$(jrxe_errors "$counters")
    [ -z "$errs" ] || problems+=("jrxe counters ($dev): $errs")
done
figures+=" elapsed_s=$(elapsed_since "$started")"

if [ ${#problems[@]} -gt 0 ]; then
    show_jvm_crashes
    fail "$(printf '%s; ' "${problems[@]}")$figures"
fi
pass "$figures"
