# jrxe's NFS client against the kernel's NFS server over RPC-over-RDMA, NFSv3 and NFSv4.1:
#
#   jrxe nfs (NIC B, vfio-pci, 10.9.0.2)  --rdma_cm + RPC-over-RDMA, port 20049-->  knfsd, rxe0 (NIC A, 10.9.0.1)
#
# One JVM per version (commands separated by a lone ';'): ls ; get get.bin (16 MiB made on the server: bytes and
# md5, the tool's and the local copy's, equal to the server's) ; put (16 MiB made locally: md5 of the server's copy
# equal) ; create new-V ; ls (shows it) ; rm new-V ; ls (does not show it, nor does the server). For 4.1 the
# back channel must answer a call: knfsd 6.1 sends no CB_NULL probe on a 4.1 session, so jrxe's `recall get.bin`
# holds a read delegation (OPEN asking for one, CLOSE, kept as Linux keeps it) and prints its delegation line; the
# scenario then opens get.bin for writing on the server, knfsd recalls the delegation (CB_COMPOUND(CB_SEQUENCE,
# CB_RECALL) on the back channel), jrxe answers, returns it (DELEGRETURN) and prints its recall line; the
# backchannel line must show the call answered and the delegation returned. The READY line must
# echo the version and NFS_RSIZE/NFS_WSIZE; no JRXE-NFS ERROR line, exit 0; jrxe's counters show no errors.
# Figures: MB/s of get and put (the tool's, 10^6 bytes/s), credits and inline sizes from the READY line.
# timeout: 900

SIZE_MIB=16
SIZE=$((SIZE_MIB * 1024 * 1024))
RUN_TIMEOUT=300

cm_setup
nfs_server_start
wait_until 10 nfs_rdma_listening || fail "knfsd's rdma_cm id does not listen on $NFS_RDMA_PORT on rxe0"
get_md5=$(nfs_make_file get.bin $SIZE_MIB)
put_src=/tmp/jrxe-nfs-put.bin
put_md5=$(make_local_file "$put_src" $SIZE_MIB)
problems=()
figures="size=$SIZE"
jrxe_nfs=("${JRXE[@]}" nfs "${JRXE_CM_NODE[@]}" --rsize $NFS_RSIZE --wsize $NFS_WSIZE --port $NFS_RDMA_PORT
    --timeout $RUN_TIMEOUT)

for vers in 3 4.1; do
    v=${vers/./}
    name=jrxe-nfs-v$v
    out=/tmp/$name.log
    got=/tmp/$name-got.bin
    rm -f "$NFS_EXPORT/put-$v.bin" "$NFS_EXPORT/new-$v" "$got"
    rxe_before=$(rxe_counters rxe0)
    rm -f "$out"
    recall=()
    if [ "$vers" = 4.1 ]; then
        nfs_grace_wait
        nfs_recall_after "$out" "JRXE-NFS delegation " get.bin
        recall=(recall get.bin 120 ';')
    fi
    log "vers=$vers: jrxe nfs ... $NIC_A_IP:$NFS_EXPORT ls ; get ; ${recall[*]} put ; create ; ls ; rm ; ls"
    timeout $((RUN_TIMEOUT + 240)) "${jrxe_nfs[@]}" --name "$name" --vers "$vers" "$NIC_A_IP:$NFS_EXPORT" \
        ls ';' get get.bin "$got" ';' "${recall[@]}" put "$put_src" "put-$v.bin" ';' create "new-$v" ';' ls ';' \
        rm "new-$v" ';' ls > "$out" 2>&1
    rc=$?
    [ "$vers" = 4.1 ] && { kill $NFS_RECALL_PID 2> /dev/null; wait $NFS_RECALL_PID; }
    rxe_after=$(rxe_counters rxe0)
    show_log "$out" "jrxe nfs vers=$vers" 40
    if jrxe_nfs_missing "$out"; then
        fail "the jrxe in the guest has no 'nfs' command yet (exit $rc, picocli: Unmatched arguments ... 'nfs');" \
            "the server side is ready: knfsd listens on $NIC_A_IP:$NFS_RDMA_PORT (rdma), export $NFS_EXPORT," \
            "get.bin md5 $get_md5"
    fi
    log "vers=$vers rxe0: $(rxe_delta "$rxe_before" "$rxe_after")"
    [ $rc = 0 ] || problems+=("vers=$vers: jrxe nfs exited $rc")
    err=$(jrxe_nfs_line "$out" ERROR)
    [ -z "$err" ] || problems+=("vers=$vers: $err")

    ready=$(jrxe_nfs_line "$out" READY)
    if [ -z "$ready" ]; then
        problems+=("vers=$vers: no JRXE-NFS READY line")
    else
        [ "$(value_of vers "$ready")" = "$vers" ] || problems+=("vers=$vers: READY says $(value_of vers "$ready")")
        [ "$(value_of rsize "$ready")" = $NFS_RSIZE ] && [ "$(value_of wsize "$ready")" = $NFS_WSIZE ] \
            || problems+=("vers=$vers: READY rsize/wsize $(value_of rsize "$ready")/$(value_of wsize "$ready"), want $NFS_RSIZE/$NFS_WSIZE")
        figures+=" v${v}_credits=$(value_of credits "$ready") v${v}_inline=$(value_of inline_send "$ready")/$(value_of inline_recv "$ready")"
    fi

    # ls, get, put, create, ls, rm, ls
    jrxe_nfs_ls_entries "$out" 1 | grep -qx "$SIZE get.bin" || problems+=("vers=$vers: first ls lacks '$SIZE get.bin'")
    line=$(jrxe_nfs_line "$out" get)
    [ "$(value_of bytes "$line")" = $SIZE ] && [ "$(value_of md5 "$line")" = "$get_md5" ] \
        || problems+=("vers=$vers: get: '${line:-no line}', want bytes=$SIZE md5=$get_md5")
    [ -f "$got" ] && [ "$(md5_of "$got")" = "$get_md5" ] || problems+=("vers=$vers: local copy of get.bin differs from the server's")
    figures+=" v${v}_get_MBps=$(value_of MBps "$line")"
    line=$(jrxe_nfs_line "$out" put)
    [ "$(value_of bytes "$line")" = $SIZE ] && [ "$(value_of md5 "$line")" = "$put_md5" ] \
        || problems+=("vers=$vers: put: '${line:-no line}', want bytes=$SIZE md5=$put_md5")
    [ -f "$NFS_EXPORT/put-$v.bin" ] && [ "$(md5_of "$NFS_EXPORT/put-$v.bin")" = "$put_md5" ] \
        || problems+=("vers=$vers: the server's put-$v.bin is missing or differs from what was put")
    figures+=" v${v}_put_MBps=$(value_of MBps "$line")"
    [ -n "$(jrxe_nfs_line "$out" create)" ] || problems+=("vers=$vers: no JRXE-NFS create line")
    jrxe_nfs_ls_entries "$out" 2 | grep -q " new-$v\$" || problems+=("vers=$vers: second ls lacks new-$v")
    [ -n "$(jrxe_nfs_line "$out" rm)" ] || problems+=("vers=$vers: no JRXE-NFS rm line")
    jrxe_nfs_ls_entries "$out" 3 | grep -q " new-$v\$" && problems+=("vers=$vers: third ls still shows new-$v")
    [ -e "$NFS_EXPORT/new-$v" ] && problems+=("vers=$vers: new-$v still on the server")
    [ "$(jrxe_nfs_line "$out" ls 3)" ] || problems+=("vers=$vers: fewer than 3 JRXE-NFS ls lines")

    if [ "$vers" = 4.1 ]; then
        [ -n "$(jrxe_nfs_line "$out" delegation)" ] || problems+=("vers=4.1: no JRXE-NFS delegation line")
        rline=$(jrxe_nfs_line "$out" recall)
        [ "$(value_of returned "$rline")" = 1 ] || problems+=("vers=4.1: recall: '${rline:-no line}', want returned=1")
        line=$(jrxe_nfs_line "$out" backchannel)
        calls=$(value_of calls "$line")
        [ "${calls:-0}" -ge 1 ] 2> /dev/null && [ "$(value_of cb_recall "$line")" -ge 1 ] 2> /dev/null \
            && [ "$(value_of delegations_returned "$line")" -ge 1 ] 2> /dev/null \
            || problems+=("vers=4.1: backchannel: '${line:-no line}', want calls, cb_recall and" \
                "delegations_returned >= 1 (the CB_RECALL of get.bin's read delegation)")
        figures+=" v41_cb=[${line#JRXE-NFS backchannel }] v41_recall_s=$(value_of secs "$rline")"
    fi
    rm -f "$got"
done

check_jrxe_counters jrxe-nfs-v3 jrxe-nfs-v41
log "vers=3 jrxe: $SRV_COUNTERS"
log "vers=4.1 jrxe: $CLI_COUNTERS"
figures+=" v3_cm=[$(cm_figures "$SRV_COUNTERS")] v41_cm=[$(cm_figures "$CLI_COUNTERS")]"
if [ ${#problems[@]} -gt 0 ]; then
    show_jvm_crashes
    fail "$(printf '%s; ' "${problems[@]}")$figures"
fi
pass "$figures"
