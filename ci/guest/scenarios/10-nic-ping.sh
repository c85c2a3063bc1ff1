# jrxe's user-space virtio-net driver answers ARP and ICMP echo on NIC B (vfio-pci), pinged by the kernel on NIC A.
#
#   kernel eth0 (NIC A, 10.9.0.1) --- QEMU hub --- NIC B (vfio-pci) <- `jrxe nic --pci 0000:00:03.0 --ip 10.9.0.2/24`
#
# Checks: `jrxe bind` leaves NIC B on vfio-pci; `jrxe nic` prints JRXE-NIC READY; 20 of 20 pings and 3 of 3 arpings
# are answered; then 5 pings go to 10.9.0.99, a station that does not exist, through a static neighbour entry
# 52:54:00:00:00:99: the hub floods them to NIC B, whose receive filter (VIRTIO_NET_F_CTRL_RX, set by jrxe) must
# drop them; jrxe exits 0 on SIGTERM after a final JRXE-NIC STATS line with rx_filter=applied whose rx/tx packet
# counts equal what the kernel NIC sent (less the foreign frames) and received while jrxe ran, in frames and bytes
# (IPv6 is off, so eth0 sends nothing the scenario did not ask for).
# timeout: 420

JRXE_IP=10.9.0.2
READY_TIMEOUT=240
STOP_TIMEOUT=60

require_jar
eth=$(netdev_of "$NIC_A_BDF")
[ -n "$eth" ] || fail "NIC A ($NIC_A_BDF) has no kernel interface"
nic_log=/tmp/jrxe-nic.log

# Shows what jrxe printed (driver errors, stack traces) in the console, whatever the outcome.
show_jrxe_log()
{
    [ -f "$nic_log" ] && tail -80 "$nic_log" | sed "s/^/[$SCENARIO] jrxe: /"
}

log "jrxe bind $NIC_B_BDF"
bind_out=$(timeout 120 "${JRXE[@]}" bind "$NIC_B_BDF" 2>&1)
rc=$?
echo "$bind_out" | tail -20 | sed "s/^/[$SCENARIO] jrxe bind: /"
[ $rc = 0 ] || fail "jrxe bind $NIC_B_BDF exited with status $rc: $(echo "$bind_out" | grep -m1 .)"
driver=$(driver_of "$NIC_B_BDF")
[ "$driver" = vfio-pci ] || fail "after jrxe bind, $NIC_B_BDF is on '${driver:-no driver}', want vfio-pci"

tx0=$(net_counter "$eth" tx_packets)
rx0=$(net_counter "$eth" rx_packets)
txb0=$(net_counter "$eth" tx_bytes)
rxb0=$(net_counter "$eth" rx_bytes)
started=$SECONDS
log "jrxe nic --pci $NIC_B_BDF --ip $JRXE_IP/$NIC_PREFIX"
"${JRXE[@]}" nic --pci "$NIC_B_BDF" --ip "$JRXE_IP/$NIC_PREFIX" > "$nic_log" 2>&1 &
jpid=$!

if ! wait_until $READY_TIMEOUT eval 'grep -q "^JRXE-NIC READY" "$nic_log" || ! kill -0 $jpid 2> /dev/null'; then
    show_jrxe_log
    fail "jrxe nic printed no JRXE-NIC READY within $READY_TIMEOUT s"
fi
if ! grep -q "^JRXE-NIC READY" "$nic_log"; then
    wait $jpid
    rc=$?
    show_jrxe_log
    fail "jrxe nic exited with status $rc before JRXE-NIC READY: $(tail -1 "$nic_log")"
fi
ready_after=$((SECONDS - started))
log "$(grep -m1 '^JRXE-NIC READY' "$nic_log") (after $ready_after s)"

ping_out=$(ping -c 20 -i 0.2 -w 60 "$JRXE_IP" 2>&1)
echo "$ping_out" | tail -3 | sed "s/^/[$SCENARIO] ping: /"
replies=$(echo "$ping_out" | sed -n 's/.* \([0-9][0-9]*\) received.*/\1/p')
rtt_avg=$(echo "$ping_out" | sed -n 's|^rtt [^=]*= [0-9.]*/\([0-9.]*\)/.*|\1|p')

arping_out=$(arping -c 3 -w 15 -I "$eth" "$JRXE_IP" 2>&1)
echo "$arping_out" | sed "s/^/[$SCENARIO] arping: /"
arp_replies=$(echo "$arping_out" | sed -n 's/^Received \([0-9][0-9]*\) response.*/\1/p')
arp_mac_ok=yes
echo "$arping_out" | grep -i 'reply from' | grep -qiv "\[$NIC_B_MAC\]" && arp_mac_ok=no

# Frames for another station: a filtering NIC B never takes them (a promiscuous one counts them as rx_packets).
FOREIGN_IP=10.9.0.99
FOREIGN_MAC=52:54:00:00:00:99
ip neigh replace "$FOREIGN_IP" lladdr "$FOREIGN_MAC" dev "$eth" nud permanent
foreign_tx0=$(net_counter "$eth" tx_packets)
foreign_txb0=$(net_counter "$eth" tx_bytes)
ping -c 5 -i 0.2 -W 1 "$FOREIGN_IP" > /dev/null 2>&1
foreign=$(( $(net_counter "$eth" tx_packets) - foreign_tx0 ))
foreign_bytes=$(( $(net_counter "$eth" tx_bytes) - foreign_txb0 ))
ip neigh del "$FOREIGN_IP" dev "$eth" 2> /dev/null

stats_before_stop=$(grep -c '^JRXE-NIC STATS' "$nic_log")
kill -TERM $jpid
if ! wait_until $STOP_TIMEOUT eval '! kill -0 $jpid 2> /dev/null'; then
    show_jrxe_log
    fail "jrxe nic still running $STOP_TIMEOUT s after SIGTERM"
fi
wait $jpid
rc=$?
tx1=$(net_counter "$eth" tx_packets)
rx1=$(net_counter "$eth" rx_packets)
txb1=$(net_counter "$eth" tx_bytes)
rxb1=$(net_counter "$eth" rx_bytes)
show_jrxe_log

[ "$(grep -c '^JRXE-NIC STATS' "$nic_log")" -gt "$stats_before_stop" ] \
    || fail "jrxe nic printed no final JRXE-NIC STATS line on SIGTERM"
final=$(grep '^JRXE-NIC STATS' "$nic_log" | tail -1)
jrxe_rx=$(value_of rx_packets "$final")
jrxe_tx=$(value_of tx_packets "$final")
jrxe_rx_bytes=$(value_of rx_bytes "$final")
jrxe_tx_bytes=$(value_of tx_bytes "$final")
rx_filter=$(value_of rx_filter "$final")
[[ $jrxe_rx =~ ^[0-9]+$ && $jrxe_tx =~ ^[0-9]+$ ]] || fail "cannot read rx_packets/tx_packets from '$final'"
eth_tx=$((tx1 - tx0))
eth_rx=$((rx1 - rx0))
eth_tx_bytes=$((txb1 - txb0))
eth_rx_bytes=$((rxb1 - rxb0))

figures="replies=${replies:-0}/20 rtt_avg=${rtt_avg:-none}ms arping=${arp_replies:-0}/3 ready_after=${ready_after}s"
figures+=" rx_filter=${rx_filter:-?} foreign_sent=$foreign"
figures+=" ${eth}_tx=$eth_tx jrxe_rx=$jrxe_rx ${eth}_rx=$eth_rx jrxe_tx=$jrxe_tx"
figures+=" ${eth}_tx_bytes=$eth_tx_bytes jrxe_rx_bytes=${jrxe_rx_bytes:-?}"
figures+=" ${eth}_rx_bytes=$eth_rx_bytes jrxe_tx_bytes=${jrxe_tx_bytes:-?}"
# Every broken expectation at once: one run shows the whole picture of a driver bug.
problems=()
[ $rc = 0 ] || problems+=("jrxe nic exited with status $rc after SIGTERM, want 0")
[ "${replies:-0}" = 20 ] || problems+=("ping got ${replies:-0} of 20 replies")
[ "${arp_replies:-0}" = 3 ] || problems+=("arping got ${arp_replies:-0} of 3 replies")
[ $arp_mac_ok = yes ] || problems+=("an ARP reply did not carry NIC B's MAC $NIC_B_MAC")
[ "$rx_filter" = applied ] || problems+=("jrxe's receive filter is '${rx_filter:-?}', want applied")
[ "$foreign" = 5 ] || problems+=("$eth sent $foreign frames to $FOREIGN_MAC, want 5")
[ "$jrxe_rx" = "$((eth_tx - foreign))" ] || problems+=("jrxe rx_packets=$jrxe_rx but $eth sent $eth_tx frames while jrxe ran, $foreign of them to $FOREIGN_MAC")
[ "$jrxe_tx" = "$eth_rx" ] || problems+=("jrxe tx_packets=$jrxe_tx but $eth received $eth_rx frames while jrxe ran")
# Both sides count Ethernet frames without FCS or virtio-net header, so bytes must agree too (catches truncation
# and padding mistakes that packet counts cannot see).
[ "${jrxe_rx_bytes:-}" = "$((eth_tx_bytes - foreign_bytes))" ] || problems+=("jrxe rx_bytes=${jrxe_rx_bytes:-?} but $eth sent $eth_tx_bytes bytes, $foreign_bytes of them to $FOREIGN_MAC")
[ "${jrxe_tx_bytes:-}" = "$eth_rx_bytes" ] || problems+=("jrxe tx_bytes=${jrxe_tx_bytes:-?} but $eth received $eth_rx_bytes bytes")
if [ ${#problems[@]} -gt 0 ]; then
    fail "$(printf '%s; ' "${problems[@]}")$figures"
fi
pass "$figures"
