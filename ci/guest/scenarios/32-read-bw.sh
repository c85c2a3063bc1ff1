# ib_read_bw between the kernel's Soft-RoCE (rxe0 on NIC A) and jrxe's perftest peer mode on NIC B (vfio-pci),
# both roles: ib_read_bw client -> `jrxe perf --op read --server`, then `jrxe perf --op read` client ->
# ib_read_bw server; 64 KiB messages, MTU 1024 (the active MTU of a 1500-byte netdev), --report_gbits.
# Checks: both runs finish and print their result line, jrxe's counters show no errors; rxe's hw_counters are shown.
# timeout: 900
perftest_interop read 200 65536
