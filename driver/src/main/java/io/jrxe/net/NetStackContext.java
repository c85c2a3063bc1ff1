package io.jrxe.net;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Configuration of a {@link NetStack}: fluent setters with the getter's name, defaults for everything except the
 * IPv4 address, checked by {@link #conclude()} (the stack's constructor calls it).
 */
public final class NetStackContext
{
    public static final int DEFAULT_IPV4_PREFIX_LENGTH = 24;
    public static final int DEFAULT_NEIGHBOR_CACHE_SIZE = 256;
    /** rxe's RXE_MAX_MCAST_GRP: the most multicast groups a device attaches QPs to. */
    public static final int DEFAULT_MAX_MULTICAST_GROUPS = 8192;
    /** Like Linux's base_reachable_time; the brief fixes ARP expiry at 60 s by default. */
    public static final long DEFAULT_NEIGHBOR_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);
    /** RFC 4861 §10 RETRANS_TIMER. */
    public static final long DEFAULT_RESOLVE_RETRY_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);
    /** RFC 4861 §10 MAX_MULTICAST_SOLICIT; Linux uses the same for ARP (mcast_solicit). */
    public static final int DEFAULT_RESOLVE_MAX_ATTEMPTS = 3;
    public static final long DEFAULT_RESOLVE_FAILED_HOLD_NS = TimeUnit.SECONDS.toNanos(1);
    public static final int DEFAULT_RX_BATCH_SIZE = 32;
    public static final int DEFAULT_TX_BATCH_SIZE = 32;
    /** Neighbour entries a lane's relay ring holds before the primary drops updates (four full caches). */
    public static final int DEFAULT_NEIGHBOR_RELAY_CAPACITY = 4 * DEFAULT_NEIGHBOR_CACHE_SIZE;

    private int ipv4Address;
    private boolean ipv4AddressSet;
    private int ipv4PrefixLength = DEFAULT_IPV4_PREFIX_LENGTH;
    private int ipv4Gateway;
    private final List<long[]> ipv6Addresses = new ArrayList<>();
    private boolean ipv6LinkLocal = true;
    private int arpCacheSize = DEFAULT_NEIGHBOR_CACHE_SIZE;
    private int ndCacheSize = DEFAULT_NEIGHBOR_CACHE_SIZE;
    private long neighborTimeoutNs = DEFAULT_NEIGHBOR_TIMEOUT_NS;
    private long resolveRetryIntervalNs = DEFAULT_RESOLVE_RETRY_INTERVAL_NS;
    private int resolveMaxAttempts = DEFAULT_RESOLVE_MAX_ATTEMPTS;
    private long resolveFailedHoldNs = DEFAULT_RESOLVE_FAILED_HOLD_NS;
    private int rxBatchSize = DEFAULT_RX_BATCH_SIZE;
    private int txBatchSize = DEFAULT_TX_BATCH_SIZE;
    private boolean gratuitousArp = true;
    private boolean icmpPortUnreachable;
    private boolean promiscuous;
    private int maxMulticastGroups = DEFAULT_MAX_MULTICAST_GROUPS;
    private int neighborRelayCapacity = DEFAULT_NEIGHBOR_RELAY_CAPACITY;
    private EpochClock epochClock;
    private NanoClock nanoClock;
    private PcapWriter pcapWriter;
    private ErrorHandler errorHandler;

    /**
     * Checks the settings and fills in defaults.
     *
     * @return this
     * @throws IllegalStateException naming the setting to fix
     */
    public NetStackContext conclude()
    {
        if (!ipv4AddressSet)
        {
            throw new IllegalStateException("NetStackContext: set ipv4Address(...) to this host's IPv4 address");
        }
        if (0 == ipv4Address || Ipv4.LIMITED_BROADCAST == ipv4Address || (ipv4Address >>> 28) >= 0xE)
        {
            throw new IllegalStateException("NetStackContext: ipv4Address must be a unicast address: " +
                Ipv4.format(ipv4Address));
        }
        if (ipv4PrefixLength < 1 || ipv4PrefixLength > 32)
        {
            throw new IllegalStateException("NetStackContext: ipv4PrefixLength must be 1 .. 32: " + ipv4PrefixLength);
        }
        requirePositive("arpCacheSize", arpCacheSize);
        requirePositive("ndCacheSize", ndCacheSize);
        requirePositive("neighborTimeoutNs", neighborTimeoutNs);
        requirePositive("resolveRetryIntervalNs", resolveRetryIntervalNs);
        requirePositive("resolveFailedHoldNs", resolveFailedHoldNs);
        if (resolveMaxAttempts < 1 || resolveMaxAttempts > 100)
        {
            throw new IllegalStateException("NetStackContext: resolveMaxAttempts must be 1 .. 100: " +
                resolveMaxAttempts);
        }
        requirePositive("rxBatchSize", rxBatchSize);
        requirePositive("txBatchSize", txBatchSize);
        if (null == epochClock)
        {
            epochClock = SystemEpochClock.INSTANCE;
        }
        if (null == nanoClock)
        {
            nanoClock = SystemNanoClock.INSTANCE;
        }
        if (null == errorHandler)
        {
            errorHandler = Throwable::printStackTrace;
        }
        return this;
    }

    private static void requirePositive(final String name, final long value)
    {
        if (value <= 0)
        {
            throw new IllegalStateException("NetStackContext: " + name + " must be positive: " + value);
        }
    }

    /** Our IPv4 address (required), as an int holding the big-endian value. */
    public NetStackContext ipv4Address(final int address)
    {
        this.ipv4Address = address;
        this.ipv4AddressSet = true;
        return this;
    }

    /** Our IPv4 address in dotted-quad form. */
    public NetStackContext ipv4Address(final String address)
    {
        return ipv4Address(Ipv4.parse(address));
    }

    public int ipv4Address()
    {
        return ipv4Address;
    }

    /** Length of the on-link prefix; sets the subnet broadcast address and which peers need the gateway. */
    public NetStackContext ipv4PrefixLength(final int prefixLength)
    {
        this.ipv4PrefixLength = prefixLength;
        return this;
    }

    public int ipv4PrefixLength()
    {
        return ipv4PrefixLength;
    }

    /**
     * Next hop for destinations outside the prefix; 0 (default) means none, and every destination is resolved
     * directly as if on link.
     */
    public NetStackContext ipv4Gateway(final int gateway)
    {
        this.ipv4Gateway = gateway;
        return this;
    }

    public int ipv4Gateway()
    {
        return ipv4Gateway;
    }

    /** Adds a global (or unique-local) IPv6 address; may be called several times. */
    public NetStackContext addIpv6Address(final long hi, final long lo)
    {
        if (Ipv6.isMulticast(hi) || Ipv6.isUnspecified(hi, lo))
        {
            throw new IllegalArgumentException("IPv6 address must be unicast: " + Ipv6.format(hi, lo));
        }
        ipv6Addresses.add(new long[]{ hi, lo });
        return this;
    }

    public NetStackContext addIpv6Address(final String address)
    {
        final long[] parsed = new long[2];
        Ipv6.parse(address, parsed);
        return addIpv6Address(parsed[0], parsed[1]);
    }

    /** Configured IPv6 addresses as {hi, lo} pairs, without the link-local one. */
    public List<long[]> ipv6Addresses()
    {
        return ipv6Addresses;
    }

    /** Whether to use the EUI-64 link-local address derived from the MAC (default true). */
    public NetStackContext ipv6LinkLocal(final boolean enabled)
    {
        this.ipv6LinkLocal = enabled;
        return this;
    }

    public boolean ipv6LinkLocal()
    {
        return ipv6LinkLocal;
    }

    /** Maximum ARP cache entries. */
    public NetStackContext arpCacheSize(final int size)
    {
        this.arpCacheSize = size;
        return this;
    }

    public int arpCacheSize()
    {
        return arpCacheSize;
    }

    /** Maximum IPv6 neighbor cache entries. */
    public NetStackContext ndCacheSize(final int size)
    {
        this.ndCacheSize = size;
        return this;
    }

    public int ndCacheSize()
    {
        return ndCacheSize;
    }

    /** How long a learned MAC stays usable without being heard again (ARP and ND). */
    public NetStackContext neighborTimeoutNs(final long timeoutNs)
    {
        this.neighborTimeoutNs = timeoutNs;
        return this;
    }

    public long neighborTimeoutNs()
    {
        return neighborTimeoutNs;
    }

    /** Time between solicitations (ARP request, NS) for an unresolved peer. */
    public NetStackContext resolveRetryIntervalNs(final long intervalNs)
    {
        this.resolveRetryIntervalNs = intervalNs;
        return this;
    }

    public long resolveRetryIntervalNs()
    {
        return resolveRetryIntervalNs;
    }

    /** Solicitations sent before a peer is declared unreachable. */
    public NetStackContext resolveMaxAttempts(final int attempts)
    {
        this.resolveMaxAttempts = attempts;
        return this;
    }

    public int resolveMaxAttempts()
    {
        return resolveMaxAttempts;
    }

    /** After failing, how long a peer is left alone before a new send may start resolution again. */
    public NetStackContext resolveFailedHoldNs(final long holdNs)
    {
        this.resolveFailedHoldNs = holdNs;
        return this;
    }

    public long resolveFailedHoldNs()
    {
        return resolveFailedHoldNs;
    }

    /** Frames asked from the device per {@link NetStack#poll()}. */
    public NetStackContext rxBatchSize(final int size)
    {
        this.rxBatchSize = size;
        return this;
    }

    public int rxBatchSize()
    {
        return rxBatchSize;
    }

    /** Frames queued before a txBatch is forced; poll() flushes whatever is queued. */
    public NetStackContext txBatchSize(final int size)
    {
        this.txBatchSize = size;
        return this;
    }

    public int txBatchSize()
    {
        return txBatchSize;
    }

    /** Announce our IPv4 address with a gratuitous ARP on the first poll (RFC 5227 §2.3), default true. */
    public NetStackContext gratuitousArp(final boolean enabled)
    {
        this.gratuitousArp = enabled;
        return this;
    }

    public boolean gratuitousArp()
    {
        return gratuitousArp;
    }

    /** Answer unicast UDP to a port without a handler with ICMP port unreachable (default false). */
    public NetStackContext icmpPortUnreachable(final boolean enabled)
    {
        this.icmpPortUnreachable = enabled;
        return this;
    }

    public boolean icmpPortUnreachable()
    {
        return icmpPortUnreachable;
    }

    /**
     * Keep the NIC promiscuous: every frame on the link reaches the stack (and a pcap capture), for debugging and
     * sniffing. Default false: at its first poll the stack sets the NIC's receive filter to its own MAC, broadcast
     * and the multicast groups it joined, where the NIC has one ({@link io.jrxe.driver.NicDevice#rxFilter}).
     */
    public NetStackContext promiscuous(final boolean promiscuous)
    {
        this.promiscuous = promiscuous;
        return this;
    }

    public boolean promiscuous()
    {
        return promiscuous;
    }

    /**
     * The most multicast groups users may have joined at once ({@link MulticastGroups}); the default is rxe's
     * {@code RXE_MAX_MCAST_GRP} (8192). Beyond the NIC's MAC table the stack asks for all-multicast.
     */
    public NetStackContext maxMulticastGroups(final int value)
    {
        if (value < 1)
        {
            throw new IllegalArgumentException("maxMulticastGroups must be at least 1: " + value);
        }
        this.maxMulticastGroups = value;
        return this;
    }

    public int maxMulticastGroups()
    {
        return maxMulticastGroups;
    }

    /**
     * Neighbour entries each lane's relay ring holds ({@link NetStack#lane(int)}, {@link NeighborRelay}): the
     * primary stack passes every MAC it learns to its lanes through it, and drops (and counts as
     * {@link NetCounter#NEIGHBOR_RELAY_FULL}) what does not fit until the lane polls. Rounded up to fill a
     * power-of-two ring.
     */
    public NetStackContext neighborRelayCapacity(final int records)
    {
        if (records < 1 || records > 1 << 20)
        {
            throw new IllegalArgumentException("neighborRelayCapacity must be 1 .. 2^20: " + records);
        }
        this.neighborRelayCapacity = records;
        return this;
    }

    public int neighborRelayCapacity()
    {
        return neighborRelayCapacity;
    }

    /** Wall clock, used for pcap timestamps. */
    public NetStackContext epochClock(final EpochClock clock)
    {
        this.epochClock = clock;
        return this;
    }

    public EpochClock epochClock()
    {
        return epochClock;
    }

    /** Monotonic clock for neighbor timers; read once per {@link NetStack#poll()}. */
    public NetStackContext nanoClock(final NanoClock clock)
    {
        this.nanoClock = clock;
        return this;
    }

    public NanoClock nanoClock()
    {
        return nanoClock;
    }

    /** Optional capture of every frame received and sent; the caller closes it after the stack is done. */
    public NetStackContext pcapWriter(final PcapWriter writer)
    {
        this.pcapWriter = writer;
        return this;
    }

    public PcapWriter pcapWriter()
    {
        return pcapWriter;
    }

    /** Receives exceptions thrown by {@link UdpHandler}s; default prints the stack trace. */
    public NetStackContext errorHandler(final ErrorHandler handler)
    {
        this.errorHandler = handler;
        return this;
    }

    public ErrorHandler errorHandler()
    {
        return errorHandler;
    }
}
