# Baseline: NFSv3 over RDMA read and write throughput, the kernel's NFS client against jrxe's, same server, same
# file size and rsize/wsize (NFS_RSIZE/NFS_WSIZE):
#
#   kernel: NFS client, rxe1 (NIC D, 10.9.0.4, policy routing)  -->  knfsd, rxe0 (NIC A, 10.9.0.1)
#   jrxe:   jrxe nfs bench (NIC B, vfio-pci, 10.9.0.2)           -->  knfsd, rxe0 (NIC A, 10.9.0.1)
#
# RUNS runs of each, median. The kernel reads with dd iflag=direct bs=rsize and writes with dd oflag=direct
# bs=wsize: O_DIRECT because client and server share one kernel, so dropping caches would also empty the server's
# cache and time the server's disk, and a remount per run would time the mount; O_DIRECT makes every run cross the
# wire with the server's cache warm, as jrxe's reads do. bs=rsize keeps one READ (WRITE) in flight: with more
# (bs=1M, 4 READs) the kernel's reads over the TCG hub were 1.5 to 6 times slower and erratic (bs=16M: 10.8 s
# against 1.8 s for 16 MiB), writes no faster. An O_DIRECT write ends with its COMMIT (cheap: the export is
# async). jrxe runs both benchmarks in one JVM (bench read ;
# bench write). MB/s are 10^6 bytes per second. Prints
#   GUEST-BASELINE nfs_read kernel=<MB/s> jrxe=<MB/s> ratio=<jrxe/kernel> runs=<RUNS>
#   GUEST-BASELINE nfs_write kernel=<MB/s> jrxe=<MB/s> ratio=<jrxe/kernel> runs=<RUNS>
# timeout: 1200

SIZE_MIB=16
SIZE=$((SIZE_MIB * 1024 * 1024))
RUNS=5
RUN_TIMEOUT=600

require_jar
two_rxe_devices
bind_vfio "$NIC_B_BDF" || fail "cannot bind $NIC_B_BDF to vfio-pci"
nfs_server_start
wait_until 10 nfs_rdma_listening || fail "knfsd's rdma_cm id does not listen on $NFS_RDMA_PORT on rxe0"
nfs_make_file bench.bin $SIZE_MIB > /dev/null
src=/tmp/nfs-bench-src.bin
make_local_file "$src" $SIZE_MIB > /dev/null
problems=()
mnt=/mnt/nfs-bench
at_exit "nfs_kernel_umount $mnt"

# 1. the kernel's client over rxe1
k_read=()
k_write=()
if nfs_kernel_mount 3 "$mnt" > /tmp/nfs-bench-mount.log 2>&1; then
    log "kernel mount: $(nfs_mount_opts "$mnt")"
    for run in $(seq 1 $RUNS); do
        t0=${EPOCHREALTIME}
        dd if="$mnt/bench.bin" of=/dev/null bs=$NFS_RSIZE iflag=direct status=none \
            && k_read+=("$(mbps $SIZE "$(elapsed_since "$t0")")") || problems+=("kernel read run $run failed")
        t0=${EPOCHREALTIME}
        dd if="$src" of="$mnt/bench-w-kernel.bin" bs=$NFS_WSIZE oflag=direct status=none \
            && k_write+=("$(mbps $SIZE "$(elapsed_since "$t0")")") || problems+=("kernel write run $run failed")
    done
    log "kernel MB/s: read ${k_read[*]}; write ${k_write[*]}"
    log "kernel transport: $(nfs_xprt_stats "$mnt")"
    nfs_kernel_umount "$mnt" || problems+=("umount failed")
else
    show_log /tmp/nfs-bench-mount.log "mount"
    problems+=("kernel mount failed: $(tail -1 /tmp/nfs-bench-mount.log)")
fi
k_read_med=$(median "${k_read[@]}")
k_write_med=$(median "${k_write[@]}")

# 2. jrxe's client over NIC B, one JVM for both benchmarks
out=/tmp/jrxe-nfs-bench.log
rm -f "$NFS_EXPORT/bench-w-jrxe.bin"
timeout $((RUN_TIMEOUT + 240)) "${JRXE[@]}" nfs "${JRXE_CM_NODE[@]}" --name jrxe-nfs-bench --vers 3 \
    --rsize $NFS_RSIZE --wsize $NFS_WSIZE --port $NFS_RDMA_PORT --timeout $RUN_TIMEOUT "$NIC_A_IP:$NFS_EXPORT" \
    bench read bench.bin --size $SIZE --runs $RUNS ';' bench write bench-w-jrxe.bin --size $SIZE --runs $RUNS \
    > "$out" 2>&1
jrc=$?
show_log "$out" "jrxe nfs bench" 25
j_read_med=""
j_write_med=""
if jrxe_nfs_missing "$out"; then
    problems+=("the jrxe in the guest has no 'nfs' command yet (exit $jrc, picocli: Unmatched arguments ... 'nfs')")
else
    [ $jrc = 0 ] || problems+=("jrxe nfs bench exited $jrc")
    err=$(jrxe_nfs_line "$out" ERROR)
    [ -z "$err" ] || problems+=("$err")
    read_line=$(awk '$1 == "JRXE-NFS" && $2 == "bench" && $3 == "op=read" && $4 ~ /^runs=/ { print; exit }' "$out")
    write_line=$(awk '$1 == "JRXE-NFS" && $2 == "bench" && $3 == "op=write" && $4 ~ /^runs=/ { print; exit }' "$out")
    j_read_med=$(value_of median_MBps "$read_line")
    j_write_med=$(value_of median_MBps "$write_line")
    [ "$(value_of runs "$read_line")" = $RUNS ] || problems+=("jrxe bench read: '${read_line:-no summary line}', want runs=$RUNS")
    [ "$(value_of runs "$write_line")" = $RUNS ] || problems+=("jrxe bench write: '${write_line:-no summary line}', want runs=$RUNS")
    [ "$(stat -c %s "$NFS_EXPORT/bench-w-jrxe.bin" 2> /dev/null)" = $SIZE ] \
        || problems+=("the server's bench-w-jrxe.bin is not $SIZE bytes after jrxe's writes")
    check_jrxe_counters jrxe-nfs-bench
    log "jrxe: $SRV_COUNTERS"
fi

ratio()
{
    awk -v j="$1" -v k="$2" 'BEGIN { if (k + 0 > 0 && j + 0 > 0) printf "%.2f", j / k; else print "?" }'
}
r_ratio=$(ratio "$j_read_med" "$k_read_med")
w_ratio=$(ratio "$j_write_med" "$k_write_med")
echo "GUEST-BASELINE nfs_read kernel=$k_read_med jrxe=${j_read_med:-?} ratio=$r_ratio runs=$RUNS"
echo "GUEST-BASELINE nfs_write kernel=$k_write_med jrxe=${j_write_med:-?} ratio=$w_ratio runs=$RUNS"
figures="size=$SIZE rsize=$NFS_RSIZE wsize=$NFS_WSIZE runs=$RUNS read_kernel=$k_read_med read_jrxe=${j_read_med:-?}"
figures+=" read_ratio=$r_ratio write_kernel=$k_write_med write_jrxe=${j_write_med:-?} write_ratio=$w_ratio"
figures+=" kernel_read_runs=[${k_read[*]}] kernel_write_runs=[${k_write[*]}]"
[ ${#k_read[@]} -ge $RUNS ] && [ ${#k_write[@]} -ge $RUNS ] || problems+=("only ${#k_read[@]}/${#k_write[@]} kernel runs")
if [ ${#problems[@]} -gt 0 ]; then
    show_jvm_crashes
    fail "$(printf '%s; ' "${problems[@]}")$figures"
fi
pass "$figures"
