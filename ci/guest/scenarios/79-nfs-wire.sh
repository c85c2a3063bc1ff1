# A record of NFS over RDMA on the wire, for whoever writes an RPC-over-RDMA peer: the kernel NFS client (rxe1,
# NIC D, 10.9.0.4) against knfsd (rxe0, NIC A, 10.9.0.1), vers=3 then vers=4.1, captured with tcpdump on NIC A
# (RoCEv2, UDP 4791: the CM MADs to QP1 and the connection's RC traffic). Each session: mount (CM REQ/REP/RTU with
# the RPC-over-RDMA private data, RFC 8797), a small inline READ, a 64 KiB READ (a Write chunk), a 64 KiB WRITE (a
# Read chunk), ls -l of a directory of 100 entries (READDIRPLUS / READDIR, a Reply chunk), create and remove,
# umount (DREQ/DREP); for 4.1 also the server's backchannel: CB_NULL after CREATE_SESSION, and a CB_RECALL (with
# CB_SEQUENCE) forced by writing, on the server, to a file the client holds open under a read delegation.
# Prints selected frames with tcpdump -XX and then each capture whole, gzipped and base64-encoded on lines
#   NFS-WIRE-PCAP <vers> <base64>
# (on the host: grep -a -o 'NFS-WIRE-PCAP 3 .*' console.log | cut -d' ' -f3 | base64 -d | gunzip > v3.pcap).
# Not part of the suite: it runs only when named, ci/qemu-suite.sh --only nfs-wire.
# on-request
# timeout: 900

two_rxe_devices
nfs_server_start
wait_until 10 nfs_rdma_listening || fail "knfsd's rdma_cm id does not listen on $NFS_RDMA_PORT on rxe0"
problems=()
at_exit 'nfs_kernel_umount /mnt/nfs-wire'

printf 'a small file, read inline\n' > "$NFS_EXPORT/small.txt"
nfs_make_file read64k.bin 1 > /dev/null
truncate -s 65536 "$NFS_EXPORT/read64k.bin"
make_local_file /tmp/write64k.bin 1 > /dev/null
truncate -s 65536 /tmp/write64k.bin
mkdir -p "$NFS_EXPORT/many"
for i in $(seq -w 1 100); do
    : > "$NFS_EXPORT/many/entry-with-a-longish-name-$i"
done
printf 'delegated\n' > "$NFS_EXPORT/deleg.txt"

# print_frames PCAP TITLE COUNT FILTER: the first COUNT frames matching FILTER, hex, in the console.
print_frames()
{
    echo "[$SCENARIO] ==== $2 (first $3: $4)"
    tcpdump -r "$1" -nn -XX -c "$3" "$4" 2> /dev/null | sed "s/^/[$SCENARIO] /"
}

for vers in 3 4.1; do
    mnt=/mnt/nfs-wire
    pcap=/tmp/nfs-wire-$vers.pcap
    tcpdump -i "$ETH_A" -s 0 -U -w "$pcap" 'udp port 4791' > /tmp/tcpdump-$vers.log 2>&1 &
    tpid=$!
    wait_until 20 grep -q 'listening on' /tmp/tcpdump-$vers.log || problems+=("tcpdump on $ETH_A did not start")
    nfs_kernel_mount "$vers" "$mnt" || { problems+=("mount vers=$vers failed"); kill -INT $tpid; wait $tpid; continue; }
    log "vers=$vers mounted: $(nfs_mount_opts "$mnt")"
    cat "$mnt/small.txt" > /dev/null || problems+=("vers=$vers: read of small.txt failed")
    dd if="$mnt/read64k.bin" of=/dev/null bs=64k iflag=direct status=none || problems+=("vers=$vers: 64 KiB read failed")
    dd if=/tmp/write64k.bin of="$mnt/write64k-$vers.bin" bs=64k oflag=direct status=none \
        || problems+=("vers=$vers: 64 KiB write failed")
    ls -l "$mnt/many" > /dev/null || problems+=("vers=$vers: ls -l many failed")
    : > "$mnt/created-$vers" && rm "$mnt/created-$vers" || problems+=("vers=$vers: create/remove failed")
    if [ "$vers" = 4.1 ]; then
        # A read-only open may get a read delegation; a local write on the server breaks it: CB_RECALL.
        exec 3< "$mnt/deleg.txt"
        read -r line <&3
        log "read delegations on the server: $(grep -c 'DELEG.*READ' /proc/locks)"
        timeout 60 sh -c "echo recalled >> $NFS_EXPORT/deleg.txt" || problems+=("local write to deleg.txt failed")
        exec 3<&-
    fi
    grep 'xprt:' /proc/self/mountstats | sed "s/^/[$SCENARIO] vers=$vers mountstats: /"
    nfs_kernel_umount "$mnt" || problems+=("umount vers=$vers failed")
    # the DREQ/DREP follow the umount after a moment
    sleep 2
    kill -INT $tpid
    wait $tpid
    cat /tmp/tcpdump-$vers.log | sed "s/^/[$SCENARIO] tcpdump: /"
    log "vers=$vers: $(tcpdump -r "$pcap" -nn 2> /dev/null | wc -l) frames captured"

    print_frames "$pcap" "vers=$vers CM MADs (BTH opcode 0x64 UD SEND_ONLY to QP1)" 8 'udp[8] = 0x64'
    print_frames "$pcap" "vers=$vers RC SEND_ONLY / SEND_ONLY_WITH_IMM / SEND_ONLY_WITH_INVALIDATE" 24 \
        'udp[8] = 0x04 or udp[8] = 0x05 or udp[8] = 0x17'
    print_frames "$pcap" "vers=$vers SEND_FIRST / SEND_LAST / SEND_LAST_WITH_INVALIDATE" 6 \
        'udp[8] = 0x00 or udp[8] = 0x02 or udp[8] = 0x16'
    print_frames "$pcap" "vers=$vers RDMA WRITE FIRST/ONLY (RETH)" 3 'udp[8] = 0x06 or udp[8] = 0x0a'
    print_frames "$pcap" "vers=$vers RDMA READ REQUEST (RETH)" 3 'udp[8] = 0x0c'
    print_frames "$pcap" "vers=$vers RDMA READ RESPONSE FIRST/ONLY (AETH)" 2 'udp[8] = 0x0d or udp[8] = 0x10'
    gzip -9 < "$pcap" | base64 -w 160 | sed "s/^/NFS-WIRE-PCAP $vers /"
done

[ ${#problems[@]} = 0 ] || fail "$(printf '%s; ' "${problems[@]}")"
pass "captured vers=3 and vers=4.1 sessions: $(stat -c %s /tmp/nfs-wire-3.pcap) and $(stat -c %s /tmp/nfs-wire-4.1.pcap) bytes"
