# jrxe's VFIO layer against a real vfio-pci function behind the emulated VT-d: io.jrxe.driver.pci.VfioSelfCheck
# (in the shaded jar) walks NIC B through open, config space, bus mastering, BAR mmap, IOMMU ranges, a DMA map
# with IOVA = VA, MSI-X eventfds and reset, printing one JRXE-VFIO OK/FAIL line per step.
# timeout: 240

SELFCHECK=io.jrxe.driver.pci.VfioSelfCheck

require_jar
bind_vfio "$NIC_B_BDF" || fail "NIC B ($NIC_B_BDF) did not bind to vfio-pci (driver: $(driver_of "$NIC_B_BDF"))"
group=$(iommu_group_of "$NIC_B_BDF")
wait_until 10 test -c "/dev/vfio/$group" || fail "no /dev/vfio/$group after binding $NIC_B_BDF to vfio-pci"

out=$(timeout 200 java ${JRXE_JAVA_OPTS:-} -cp "$JRXE_JAR" $SELFCHECK "$NIC_B_BDF" 2>&1)
rc=$?
echo "$out" | tail -60 | sed "s/^/[$SCENARIO] jrxe: /"
if echo "$out" | grep -q "Could not find or load main class"; then
    fail "the jar has no $SELFCHECK"
fi
first_fail=$(echo "$out" | grep -m1 '^JRXE-VFIO FAIL' | sed 's/^JRXE-VFIO FAIL: //')
steps_ok=$(echo "$out" | grep -c '^JRXE-VFIO OK')
took=$(echo "$out" | sed -n 's/^JRXE-VFIO OK: done in \([0-9.]*\) ms.*/\1/p')
[ -z "$first_fail" ] || fail "$first_fail (after $steps_ok OK steps)"
[ $rc = 0 ] || fail "$SELFCHECK exited with status $rc after $steps_ok OK steps: $(echo "$out" | tail -1)"
[ -n "$took" ] || fail "$SELFCHECK printed no 'done in' line: $(echo "$out" | tail -1)"
pass "steps_ok=$steps_ok group=$group took=${took}ms"
