# The kernel as oracle for NFS over RDMA, what jrxe's NFS client is measured against:
#
#   kernel NFS client, rxe1 (NIC D, 10.9.0.4)  --RPC-over-RDMA, port 20049-->  knfsd, rxe0 (NIC A, 10.9.0.1)
#
# For vers=3 (MOUNT over TCP first, nolock) and vers=4.1: mount -t nfs -o proto=rdma with NFS_RSIZE/NFS_WSIZE,
# read a 16 MiB file made on the server (dd iflag=direct bs=rsize: every byte crosses the wire although client and
# server share one page cache, one READ in flight; md5 equal to the server's), write a 16 MiB file (dd oflag=direct
# bs=wsize; md5 of the server's copy equal), create and remove a file (seen and gone on the server), umount. The
# client's transport counters (READs with a Write chunk, WRITEs with a Read chunk ...) and knfsd's svc_rdma
# counters go to the log. Two rxe devices in one network
# namespace need the policy routing of two_rxe_devices, or the mount would short-cut through lo; the rxe
# hw_counters of both devices (at least 16 MiB / path MTU packets each way, each side) and NIC D's byte counters
# show that the bytes crossed the hub as RoCE. MB/s are 10^6 bytes per second, measured around dd.
# timeout: 600

SIZE_MIB=16
SIZE=$((SIZE_MIB * 1024 * 1024))

two_rxe_devices
nfs_server_start
wait_until 10 nfs_rdma_listening || fail "knfsd's rdma_cm id does not listen on $NFS_RDMA_PORT on rxe0"
path_mtu=$(rxe_active_mtu rxe1)
[ -n "$path_mtu" ] || fail "ibv_devinfo -d rxe1 shows no active_mtu"
min_pkts=$((SIZE / path_mtu))
log "knfsd on $ETH_A ($NIC_A_IP, rxe0); kernel client on $ETH_D ($NIC_D_IP, rxe1); path MTU $path_mtu;" \
    "mountd: $(rpcinfo -p 127.0.0.1 2> /dev/null | awk '$5 == "mountd" && !seen[$3]++ { printf "%s/%s ", $3, $4 }')"

src_md5=$(nfs_make_file read-src.bin $SIZE_MIB)
problems=()
figures=""
at_exit 'for m in /mnt/nfs-3 /mnt/nfs-4.1; do nfs_kernel_umount $m; done'

for vers in 3 4.1; do
    mnt=/mnt/nfs-$vers
    up=/tmp/nfs-up-$vers.bin
    up_md5=$(make_local_file "$up" $SIZE_MIB)
    rm -f "$NFS_EXPORT/write-$vers.bin" "$NFS_EXPORT/new-$vers"
    rxe0_before=$(rxe_counters rxe0)
    rxe1_before=$(rxe_counters rxe1)
    d_tx0=$(net_counter "$ETH_D" tx_bytes)
    d_rx0=$(net_counter "$ETH_D" rx_bytes)
    lo_rx0=$(net_counter lo rx_bytes)
    svc_before=$(svc_rdma_stats)
    t0=${EPOCHREALTIME}
    if ! nfs_kernel_mount "$vers" "$mnt" > /tmp/nfs-mount-$vers.log 2>&1; then
        show_log /tmp/nfs-mount-$vers.log "mount vers=$vers"
        problems+=("mount vers=$vers failed: $(tail -1 /tmp/nfs-mount-$vers.log)")
        continue
    fi
    mount_s=$(elapsed_since "$t0")
    opts=$(nfs_mount_opts "$mnt")
    log "vers=$vers mounted in $mount_s s: $opts"
    [[ ,$opts, == *,proto=rdma,* ]] || problems+=("vers=$vers: mount is not proto=rdma: $opts")

    # read: O_DIRECT, so the client's page cache (the server's too) cannot answer for the wire
    t0=${EPOCHREALTIME}
    dd if="$mnt/read-src.bin" of=/tmp/nfs-got-$vers.bin bs=$NFS_RSIZE iflag=direct status=none \
        || problems+=("vers=$vers: dd read failed")
    read_s=$(elapsed_since "$t0")
    got_md5=$(md5_of /tmp/nfs-got-$vers.bin)
    [ "$got_md5" = "$src_md5" ] || problems+=("vers=$vers: read md5 $got_md5, server's $src_md5")
    rm -f /tmp/nfs-got-$vers.bin

    # write: O_DIRECT; the client sends UNSTABLE WRITEs and a COMMIT before dd's last write returns
    t0=${EPOCHREALTIME}
    dd if="$up" of="$mnt/write-$vers.bin" bs=$NFS_WSIZE oflag=direct status=none \
        || problems+=("vers=$vers: dd write failed")
    write_s=$(elapsed_since "$t0")
    srv_md5=$(md5_of "$NFS_EXPORT/write-$vers.bin")
    [ "$srv_md5" = "$up_md5" ] || problems+=("vers=$vers: server's copy md5 $srv_md5, written $up_md5")
    rm -f "$up"

    # create, list, remove
    : > "$mnt/new-$vers" || problems+=("vers=$vers: create failed")
    [ -e "$NFS_EXPORT/new-$vers" ] || problems+=("vers=$vers: new-$vers not on the server after create")
    listed=$(ls "$mnt")
    [[ $'\n'$listed$'\n' == *$'\n'new-$vers$'\n'* ]] || problems+=("vers=$vers: ls does not show new-$vers")
    rm "$mnt/new-$vers" || problems+=("vers=$vers: rm failed")
    [ -e "$NFS_EXPORT/new-$vers" ] && problems+=("vers=$vers: new-$vers still on the server after rm")

    log "vers=$vers client transport: $(nfs_xprt_stats "$mnt")"
    nfs_kernel_umount "$mnt" || problems+=("vers=$vers: umount failed")
    log "vers=$vers knfsd svc_rdma: $(counters_delta "$svc_before" "$(svc_rdma_stats)")"
    rxe0_after=$(rxe_counters rxe0)
    rxe1_after=$(rxe_counters rxe1)
    d_tx=$(( $(net_counter "$ETH_D" tx_bytes) - d_tx0 ))
    d_rx=$(( $(net_counter "$ETH_D" rx_bytes) - d_rx0 ))
    lo_rx=$(( $(net_counter lo rx_bytes) - lo_rx0 ))
    # rxe counts RoCE packets only: the data of both transfers went over RDMA
    c_sent=$(( $(value_of sent_pkts "$rxe1_after") - $(value_of sent_pkts "$rxe1_before") ))
    c_rcvd=$(( $(value_of rcvd_pkts "$rxe1_after") - $(value_of rcvd_pkts "$rxe1_before") ))
    s_sent=$(( $(value_of sent_pkts "$rxe0_after") - $(value_of sent_pkts "$rxe0_before") ))
    s_rcvd=$(( $(value_of rcvd_pkts "$rxe0_after") - $(value_of rcvd_pkts "$rxe0_before") ))
    for pair in "rxe1 sent_pkts:$c_sent" "rxe1 rcvd_pkts:$c_rcvd" "rxe0 sent_pkts:$s_sent" "rxe0 rcvd_pkts:$s_rcvd"; do
        [ "${pair#*:}" -ge $min_pkts ] || problems+=("vers=$vers: ${pair%:*} grew by ${pair#*:}, want >= $min_pkts")
    done
    [ $d_tx -ge $SIZE ] && [ $d_rx -ge $SIZE ] || problems+=("vers=$vers: $ETH_D sent $d_tx and received $d_rx bytes, want >= $SIZE each")
    [ $lo_rx -lt $((SIZE / 4)) ] || problems+=("vers=$vers: lo carried $lo_rx bytes: loopback, not the hub")
    log "vers=$vers rxe1 (client): $(rxe_delta "$rxe1_before" "$rxe1_after")"
    log "vers=$vers rxe0 (server): $(rxe_delta "$rxe0_before" "$rxe0_after")"
    log "vers=$vers $ETH_D tx_bytes=$d_tx rx_bytes=$d_rx, lo rx_bytes=$lo_rx"
    rsize=$(value_of rsize "${opts//,/ }")
    wsize=$(value_of wsize "${opts//,/ }")
    v=${vers/./}
    figures+="v${v}_read_MBps=$(mbps $SIZE "$read_s") v${v}_write_MBps=$(mbps $SIZE "$write_s") v${v}_mount_s=$mount_s"
    figures+=" v${v}_rsize=$rsize v${v}_wsize=$wsize v${v}_pkts=$c_sent/$c_rcvd "
    log "vers=$vers read $SIZE bytes in $read_s s, wrote $SIZE bytes in $write_s s"
done

figures="size=$SIZE mtu=$path_mtu ${figures% }"
if [ ${#problems[@]} -gt 0 ]; then
    dmesg | grep -iE 'rpcrdma|svcrdma|nfs|rpc' | tail -20 | sed "s/^/[$SCENARIO] kmsg: /"
    fail "$(printf '%s; ' "${problems[@]}")$figures"
fi
pass "$figures"
