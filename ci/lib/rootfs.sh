# Guest root filesystem: Debian bookworm minbase via debootstrap, the suite's payload, an ext4 image (sourced).

ROOTFS_SUITE=bookworm
ROOTFS_MIRROR=${JRXE_CI_MIRROR:-http://deb.debian.org/debian}
# What the scenarios run: the JRE for jrxe, rdma-core + perftest for the kernel Soft-RoCE peer, and the network
# tools the scenarios use to drive and measure the kernel-owned NICs (tcpdump is there for debugging by hand and
# for the nfs-wire capture), Linux perf for the profile scenario, and the kernel NFS server's user space
# (nfs-kernel-server and rpcbind; nfs-common, with mount.nfs, comes with them) for the NFS-over-RDMA scenarios.
# Their maintainer scripts start nothing in the debootstrap chroot (no runlevel, no systemd there) and the guest
# init is no service manager: the scenarios start rpcbind, rpc.mountd and knfsd by hand (nfs_server_start).
ROOTFS_PACKAGES=openjdk-17-jre-headless,rdma-core,ibverbs-utils,ibverbs-providers,perftest,rdmacm-utils,iproute2,kmod,iputils-ping,iputils-arping,procps,ethtool,tcpdump,linux-perf,nfs-kernel-server,rpcbind

# Copied in with their dependencies (resolve_modules follows modules.dep). The guest init modprobes the RoCE ones
# at boot; the NFS ones (knfsd, the kernel client for v3 and v4.x, and rpcrdma, which holds both the RPC-over-RDMA
# client and server) are modprobed by nfs_server_start in guest/lib.sh, for the scenarios that use them, and the
# fault cells' qdiscs and classifier (prio, netem, u32) by netem_on in guest/faults.sh. The whole
# crypto/ and lib/ trees go in as well because rdma_rxe asks the kernel for "crypto-crc32" through
# request_module(), which modules.dep does not record as a dependency.
GUEST_MODULES="virtio_pci virtio_blk virtio_net ext4 vfio-pci vfio_iommu_type1 rdma_rxe ib_uverbs ib_umad rdma_ucm veth
    nfsd rpcrdma nfs nfsv3 nfsv4 sch_prio sch_netem cls_u32"
GUEST_MODULE_TREES="kernel/crypto kernel/arch/x86/crypto kernel/lib"

# Debootstraps into $1. With a cache directory ($CACHE_DIR non-empty) the pristine result is kept as a tarball keyed
# on everything that decides its content, so a changed package list never reuses an old tree.
debootstrap_rootfs()
{
    local root=$1
    rm -rf "$root"
    local key tarball=""
    if [ -n "${CACHE_DIR:-}" ]; then
        key=$(printf '%s|%s|%s|%s|minbase|amd64|v1' "$ROOTFS_SUITE" "$ROOTFS_MIRROR" "$ROOTFS_PACKAGES" \
            "$(date +%G-%V)" | sha256sum | cut -c1-16)
        tarball=$CACHE_DIR/rootfs-$key.tar.gz
        if [ -f "$tarball" ]; then
            say "rootfs from cache $tarball"
            mkdir -p "$root"
            tar -C "$root" --numeric-owner -xpzf "$tarball" || die "cannot unpack $tarball"
            return
        fi
    fi
    mkdir -p "$WORK/debootstrap-debs"
    debootstrap --variant=minbase --arch=amd64 --cache-dir="$WORK/debootstrap-debs" --include="$ROOTFS_PACKAGES" \
        "$ROOTFS_SUITE" "$root" "$ROOTFS_MIRROR" > "$WORK/debootstrap.log" 2>&1 \
        || { tail -30 "$WORK/debootstrap.log"; die "debootstrap failed (log: $WORK/debootstrap.log)"; }
    # Nothing in the guest needs these, and they make up a third of the image.
    rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* \
        "$root"/usr/share/man/* "$root"/usr/share/locale/*
    if [ -n "$tarball" ]; then
        mkdir -p "$CACHE_DIR"
        tar -C "$root" --numeric-owner -cpzf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
        # Keep one tree: older keys (another package list or an earlier week) are never read again.
        find "$CACHE_DIR" -maxdepth 1 -name 'rootfs-*.tar.gz' ! -name "rootfs-$key.tar.gz" -delete
        say "rootfs cached as $tarball"
    fi
}

# Copies kernel modules, the guest init, scenarios and the jar (if any) into the rootfs at $1.
install_payload()
{
    local root=$1 jar=$2
    local mdir=$root/lib/modules/$KV
    rm -rf "$root/lib/modules"
    mkdir -p "$mdir"
    local mods m d
    mods=$(resolve_modules "$KROOT" "$KV" $GUEST_MODULES) || die "cannot resolve guest modules"
    for m in $mods; do
        mkdir -p "$mdir/$(dirname "$m")"
        cp "$KROOT/lib/modules/$KV/$m" "$mdir/$m"
    done
    for d in $GUEST_MODULE_TREES; do
        mkdir -p "$mdir/$d"
        cp -r "$KROOT/lib/modules/$KV/$d/." "$mdir/$d/"
    done
    cp "$KROOT/lib/modules/$KV"/modules.{builtin,builtin.modinfo,order} "$mdir/"
    depmod -b "$root" "$KV" || die "depmod in the rootfs failed"

    local opt=$root/opt/jrxe
    rm -rf "$opt"
    mkdir -p "$opt/ci/scenarios"
    install -m 0755 "$CI_DIR/guest/init.sh" "$opt/ci/init.sh"
    install -m 0644 "$CI_DIR/guest/lib.sh" "$opt/ci/lib.sh"
    install -m 0644 "$CI_DIR/guest/faults.sh" "$opt/ci/faults.sh"
    install -m 0755 "$CI_DIR"/guest/scenarios/*.sh "$opt/ci/scenarios/"
    if [ -n "$jar" ]; then
        install -m 0644 "$jar" "$opt/jrxe.jar"
    fi
    echo guest > "$root/etc/hostname"
    printf '127.0.0.1 localhost\n127.0.1.1 guest\n' > "$root/etc/hosts"
}

# make_image ROOT IMAGE: an ext4 image with ~30% + 256 MiB of free space for what scenarios write.
make_image()
{
    local root=$1 img=$2
    local mb
    mb=$(( $(du -sm "$root" | cut -f1) * 13 / 10 + 256 ))
    rm -f "$img"
    mkfs.ext4 -q -F -L jrxe-root -d "$root" "$img" "${mb}M" || die "mkfs.ext4 -d $root failed"
}
