# The QEMU machine (sourced).
#
# TCG only (thread=single unless --tcg multi, see qemu-suite.sh): the CI machine's KVM cannot run a stock guest
# kernel (see shared/docs/qemu-vfio-lab.md). The emulated VT-d is what makes vfio-pci usable in the guest
# (Debian's kernel has no VFIO no-IOMMU mode).
#
#   PCI 00:02.0  NIC A  52:54:00:00:00:01  kernel (eth0, 10.9.0.1/24)  -+
#   PCI 00:03.0  NIC B  52:54:00:00:00:02  vfio-pci / jrxe              |  one QEMU hub:
#   PCI 00:04.0  NIC C  52:54:00:00:00:03  vfio-pci / jrxe              |  every frame reaches every other NIC
#   PCI 00:05.0  NIC D  52:54:00:00:00:04  kernel                      -+
#   PCI 00:10.0  virtio-blk: the ext4 rootfs, snapshot=on (guest writes never reach the image)

NIC_LETTERS="A B C D"

# run_qemu KERNEL INITRD IMAGE APPEND: runs QEMU in the foreground with the serial console on stdout.
run_qemu()
{
    local kernel=$1 initrd=$2 img=$3 append=$4
    local args=(
        -machine q35,kernel-irqchip=split -accel "tcg,thread=${TCG_THREADS:-single}" -cpu max -smp 2 -m 4096
        -nodefaults -display none -no-reboot
        -chardev stdio,id=console,signal=off -serial chardev:console
        # intel-iommu has to come before the PCI devices it translates for.
        -device intel-iommu,intremap=on,caching-mode=on
        -kernel "$kernel" -initrd "$initrd" -append "$append"
        -drive "file=$img,if=none,id=root,format=raw,snapshot=on,cache=unsafe"
        -device virtio-blk-pci,drive=root,addr=0x10
        # No option ROM: nothing boots from the NICs, and loading it costs about a second.
        -global virtio-net-pci.romfile=
    )
    local i=1 letter mtu=""
    [ -n "${HOST_MTU:-}" ] && mtu=",host_mtu=$HOST_MTU"
    for letter in $NIC_LETTERS; do
        args+=(-netdev "hubport,id=nic$letter,hubid=0")
        args+=(-device "virtio-net-pci,netdev=nic$letter,disable-legacy=on,iommu_platform=on,mac=52:54:00:00:00:0$i,addr=0x$((i + 1))$mtu")
        i=$((i + 1))
    done
    timeout -k 15 "$QEMU_TIMEOUT" qemu-system-x86_64 "${args[@]}" < /dev/null 2>&1
}
