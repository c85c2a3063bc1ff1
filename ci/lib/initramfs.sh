# Busybox initramfs whose only job is to mount the ext4 root and switch_root into it (sourced).
#
# It loads just what mounting /dev/vda needs; the guest init loads everything else from the rootfs with modprobe,
# where the kernel's own request_module() calls (crypto-crc32 for rdma_rxe) can also be satisfied.

# ext4 mounts with metadata_csum, which needs the crc32c crypto driver; modules.dep records that only as a softdep
# (ext4 pre: crypto-crc32c) that busybox insmod does not follow, so it is listed explicitly before ext4.
BOOT_MODULES="virtio_pci virtio_blk crc32c_generic crc32c-intel ext4"

# build_initramfs OUT.cpio.gz
build_initramfs()
{
    local out=$1
    local tree=$WORK/initramfs
    rm -rf "$tree"
    mkdir -p "$tree"/{bin,dev,proc,sys,newroot,etc,lib/modules/$KV}
    cp /bin/busybox "$tree/bin/busybox"
    local applet
    for applet in $(/bin/busybox --list); do
        [ -e "$tree/bin/$applet" ] || ln -s busybox "$tree/bin/$applet"
    done
    local mods
    mods=$(resolve_modules "$KROOT" "$KV" $BOOT_MODULES) || die "cannot resolve boot modules"
    local m
    for m in $mods; do
        mkdir -p "$tree/lib/modules/$KV/$(dirname "$m")"
        cp "$KROOT/lib/modules/$KV/$m" "$tree/lib/modules/$KV/$m"
    done
    printf '%s\n' $mods > "$tree/etc/boot-modules"
    install -m 0755 "$CI_DIR/initramfs/init" "$tree/init"
    (cd "$tree" && find . | cpio -o -H newc --quiet | gzip -1) > "$out" || die "cpio of $tree failed"
}
