# Guest kernel: the current Debian 6.1 kernel package, unpacked without installing it (sourced).
#
# Debian's archive keeps only the current linux-image-6.1.0-N-amd64, so the exact package is resolved through the
# linux-image-amd64 meta package every run rather than pinned.

# Sets KPKG (package name), KV (kernel release, e.g. 6.1.0-56-amd64) and KROOT (the unpacked tree).
fetch_kernel()
{
    KPKG=$(apt-cache depends linux-image-amd64 2> /dev/null | awk '/Depends: linux-image-6\.1\./ { print $2; exit }')
    [ -n "$KPKG" ] || die "could not resolve linux-image-6.1.*-amd64 from 'apt-cache depends linux-image-amd64'"
    KV=${KPKG#linux-image-}
    local dir=$WORK/kernel
    KROOT=$dir/root
    mkdir -p "$dir"
    local deb
    deb=$(ls "$dir/${KPKG}_"*.deb 2> /dev/null | head -1 || true)
    if [ -z "$deb" ]; then
        # apt-get download drops privileges to _apt, which cannot write a root-owned directory: let it.
        chmod 0777 "$dir"
        (cd "$dir" && apt-get download -qq "$KPKG" 2>&1 | grep -v 'unsandboxed' || true)
        deb=$(ls "$dir/${KPKG}_"*.deb 2> /dev/null | head -1 || true)
        [ -n "$deb" ] || die "apt-get download $KPKG failed"
    fi
    if [ ! -f "$KROOT/lib/modules/$KV/modules.dep" ]; then
        rm -rf "$KROOT"
        dpkg -x "$deb" "$KROOT" || die "dpkg -x $deb failed"
        # dpkg -x does not run the package's postinst, so modules.dep and friends do not exist yet.
        depmod -b "$KROOT" "$KV" || die "depmod -b $KROOT $KV failed"
    fi
    [ -f "$KROOT/boot/vmlinuz-$KV" ] || die "no vmlinuz-$KV in $deb"
    say "kernel $KPKG ($(basename "$deb"))"
}

# Prints the module files (paths relative to lib/modules/$KV) needed for the named modules, dependencies first,
# each once. Module names may be given with '-' or '_'.
resolve_modules()
{
    local kroot=$1 kv=$2
    shift 2
    awk -v want="$*" '
        function norm(s) { gsub("-", "_", s); return s }
        function base(p,    b) { b = p; sub(".*/", "", b); sub("\\.ko(\\.[a-z]+)?$", "", b); return norm(b) }
        function visit(name,    i, n, d) {
            if (!(name in path)) { missing = missing " " name; return }
            if (done[name]++) return
            n = split(deps[name], d, " ")
            for (i = 1; i <= n; i++) visit(base(d[i]))
            print path[name]
        }
        {
            p = $1; sub(":$", "", p)
            b = base(p)
            path[b] = p
            deps[b] = ""
            for (i = 2; i <= NF; i++) deps[b] = deps[b] " " $i
        }
        END {
            n = split(want, w, " ")
            for (i = 1; i <= n; i++) visit(norm(w[i]))
            if (missing != "") { print "resolve_modules: not found:" missing > "/dev/stderr"; exit 1 }
        }' "$kroot/lib/modules/$kv/modules.dep"
}
