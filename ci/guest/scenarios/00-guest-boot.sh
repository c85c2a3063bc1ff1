# Harness self-check: the machine the other scenarios rely on is there, using the kernel's own tools only.
#   - four modern virtio-net functions (1af4:1041) at 00:02.0..00:05.0 with the expected MACs, each in its own
#     IOMMU group; NIC A up as 10.9.0.1/24
#   - NIC B handed to vfio-pci with sysfs writes gives /dev/vfio/<group>
#   - Soft-RoCE on NIC A: rxe0's port is ACTIVE and has a RoCE v2 GID for 10.9.0.1
#   - the guest's Java runs
# timeout: 180

groups=""
for letter in A B C D; do
    bdf=$(bdf_of $letter)
    dev=/sys/bus/pci/devices/$bdf
    [ -e "$dev" ] || fail "NIC $letter: no PCI function $bdf"
    id="$(< "$dev/vendor"):$(< "$dev/device")"
    [ "$id" = 0x1af4:0x1041 ] || fail "NIC $letter: $bdf is $id, want 0x1af4:0x1041 (modern virtio-net)"
    netdev=$(netdev_of "$bdf")
    [ -n "$netdev" ] || fail "NIC $letter: virtio_net did not create an interface for $bdf"
    mac_var=NIC_${letter}_MAC
    [ "$(< /sys/class/net/"$netdev"/address)" = "${!mac_var}" ] \
        || fail "NIC $letter: $netdev has MAC $(< /sys/class/net/"$netdev"/address), want ${!mac_var}"
    group=$(iommu_group_of "$bdf")
    [ -n "$group" ] || fail "NIC $letter: $bdf has no IOMMU group (is the emulated VT-d there?)"
    [ "$(ls /sys/kernel/iommu_groups/"$group"/devices | wc -l)" = 1 ] \
        || fail "NIC $letter: IOMMU group $group is shared: $(ls /sys/kernel/iommu_groups/"$group"/devices)"
    groups+="$group,"
done

eth=$(netdev_of "$NIC_A_BDF")
wait_until 10 grep -qx up "/sys/class/net/$eth/operstate" \
    || fail "NIC A ($eth) operstate is $(< "/sys/class/net/$eth/operstate"), want up"
ip -4 addr show dev "$eth" | grep -q "inet $NIC_A_IP/$NIC_PREFIX " || fail "NIC A ($eth) lacks $NIC_A_IP/$NIC_PREFIX"
mtu=$(< "/sys/class/net/$eth/mtu")
if [ -n "${HOST_MTU:-}" ] && [ "$mtu" != "$HOST_MTU" ]; then
    fail "NIC A ($eth) has MTU $mtu, but QEMU was started with host_mtu=$HOST_MTU"
fi

group=$(iommu_group_of "$NIC_B_BDF")
bind_vfio "$NIC_B_BDF" || fail "NIC B ($NIC_B_BDF) did not bind to vfio-pci (driver: $(driver_of "$NIC_B_BDF"))"
wait_until 10 test -c "/dev/vfio/$group" || fail "no /dev/vfio/$group after binding $NIC_B_BDF to vfio-pci"
[ -c /dev/vfio/vfio ] || fail "no /dev/vfio/vfio container device"

rdma link add rxe0 type rxe netdev "$eth" || fail "rdma link add rxe0 type rxe netdev $eth failed"
wait_until 10 eval 'ibv_devinfo -d rxe0 2> /dev/null | grep -q "state:.*PORT_ACTIVE"' \
    || { ibv_devinfo -d rxe0; fail "rxe0 port is not PORT_ACTIVE"; }
active_mtu=$(ibv_devinfo -d rxe0 | awk '/active_mtu:/ { print $2; exit }')
gid=""
wait_until 10 eval 'gid=$(roce_v2_gid_index rxe0 "$NIC_A_IP")' \
    || fail "rxe0 has no RoCE v2 GID for $NIC_A_IP: $(grep -H . /sys/class/infiniband/rxe0/ports/1/gid_attrs/types/* 2> /dev/null | tr '\n' ' ')"
rdma link delete rxe0 || fail "rdma link delete rxe0 failed"

java_version=$(java -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p' | head -1)
[ -n "$java_version" ] || fail "java -version failed: $(java -version 2>&1 | head -3)"

pass "nics=4 iommu_groups=${groups%,} eth=$eth mtu=$mtu vfio=/dev/vfio/$group rxe0=PORT_ACTIVE" \
    "active_mtu=$active_mtu roce_v2_gid_index=$gid java=$java_version"
