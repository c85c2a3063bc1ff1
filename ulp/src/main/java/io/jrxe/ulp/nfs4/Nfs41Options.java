package io.jrxe.ulp.nfs4;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What an {@link Nfs41Session} asks of the server and how it behaves. A plain settings object: set, then pass to
 * {@link Nfs41Session#connect}; the defaults suit Linux knfsd over RPC-over-RDMA.
 * <pre>
 *   export path       "/"            paths given to the session are relative to it
 *   rsize, wsize      1 MiB          bytes per READ / WRITE (lowered to what the session and the server allow)
 *   outstanding       4              READs or WRITEs in flight at once, each on its own slot
 *   fore channel      16 slots, 16 operations, 2 KiB cached replies; request and reply sizes from rsize/wsize
 *   back channel      1 slot, 4 operations, 4 KiB requests and replies (knfsd needs under 1 KiB, RFC 8881 §18.36)
 *   callback security AUTH_SYS uid 0 gid 0 (what Linux's client offers), or AUTH_NONE
 *   delegations       none: OPENs carry OPEN4_SHARE_ACCESS_WANT_NO_DELEG (or no preference, or want read)
 *   client owner      "jrxe-nfs41/&lt;host&gt;/&lt;pid&gt;/&lt;random&gt;": unique per client instance (RFC 8881 §2.4)
 *   retries           NFS4ERR_DELAY and NFS4ERR_GRACE retried for up to 120 s (knfsd's grace period is one lease,
 *                     90 s by default), waits doubling from 100 ms to 2 s
 * </pre>
 */
public final class Nfs41Options
{
    private String exportPath = "/";
    private byte[] ownerId = defaultOwner();
    private long verifier = System.currentTimeMillis() * 1_000_000L + (System.nanoTime() % 1_000_000L);
    private int rsize = 1 << 20;
    private int wsize = 1 << 20;
    private int outstanding = 4;
    private int foreSlots = 16;
    private int foreMaxOps = 16;
    private int foreMaxResponseCached = 2048;
    private int backSlots = 1;
    private int backMaxOps = 4;
    private int backMaxMessage = 4096;
    private boolean callbackAuthSys = true;
    private String machineName = defaultHost();
    private int readdirMaxCount = 16384;
    private int stableHow = Nfs4.UNSTABLE4;
    private int wantDelegation = Nfs4.SHARE_ACCESS_WANT_NO_DELEG;
    private long retryLimitNs = 120_000_000_000L;
    private long retryInitialNs = 100_000_000L;
    private long retryMaxNs = 2_000_000_000L;
    private NanoClock clock = SystemNanoClock.INSTANCE;
    private IdleStrategy idle = new BackoffIdleStrategy(10, 10, 1_000, 1_000_000);

    private static String defaultHost()
    {
        try
        {
            final String host = InetAddress.getLocalHost().getHostName();
            final StringBuilder ascii = new StringBuilder();
            for (int i = 0; i < host.length() && ascii.length() < 64; i++)
            {
                final char c = host.charAt(i);
                ascii.append(c > 0x20 && c < 0x7F ? c : '_'); // AUTH_SYS machine names go as ASCII
            }
            return ascii.length() > 0 ? ascii.toString() : "localhost";
        }
        catch (final java.io.IOException ex)
        {
            return "localhost";
        }
    }

    private static byte[] defaultOwner()
    {
        final String owner = "jrxe-nfs41/" + defaultHost() + "/" + ProcessHandle.current().pid() + "/" +
            Long.toHexString(ThreadLocalRandom.current().nextLong());
        return owner.getBytes(StandardCharsets.UTF_8);
    }

    /** @return the export's path on the server, under the server's (pseudo) root */
    public String exportPath()
    {
        return exportPath;
    }

    /**
     * @param path the export's path on the server ("/srv/nfs"), "/" for the server's root
     * @return this
     */
    public Nfs41Options exportPath(final String path)
    {
        exportPath = path;
        return this;
    }

    /** @return co_ownerid */
    public byte[] ownerId()
    {
        return ownerId.clone();
    }

    /**
     * @param ownerId co_ownerid, 1..1024 bytes; a fixed one lets a restarted client be recognised (and its old
     *                state dropped) by the server
     * @return this
     */
    public Nfs41Options ownerId(final byte[] ownerId)
    {
        if (ownerId.length < 1 || ownerId.length > Nfs4.OPAQUE_LIMIT)
        {
            throw new IllegalArgumentException("co_ownerid of " + ownerId.length + " bytes");
        }
        this.ownerId = ownerId.clone();
        return this;
    }

    /** @return co_verifier */
    public long verifier()
    {
        return verifier;
    }

    /**
     * @param verifier co_verifier, different for each incarnation of the client
     * @return this
     */
    public Nfs41Options verifier(final long verifier)
    {
        this.verifier = verifier;
        return this;
    }

    /** @return bytes per READ asked for */
    public int rsize()
    {
        return rsize;
    }

    /**
     * @param bytes bytes per READ, 4 KiB .. 16 MiB
     * @return this
     */
    public Nfs41Options rsize(final int bytes)
    {
        rsize = checkIoSize(bytes);
        return this;
    }

    /** @return bytes per WRITE asked for */
    public int wsize()
    {
        return wsize;
    }

    /**
     * @param bytes bytes per WRITE, 4 KiB .. 16 MiB
     * @return this
     */
    public Nfs41Options wsize(final int bytes)
    {
        wsize = checkIoSize(bytes);
        return this;
    }

    private static int checkIoSize(final int bytes)
    {
        if (bytes < 4096 || bytes > (16 << 20))
        {
            throw new IllegalArgumentException("an I/O size of " + bytes + " bytes: 4 KiB .. 16 MiB");
        }
        return bytes;
    }

    /** @return READs or WRITEs in flight at once */
    public int outstanding()
    {
        return outstanding;
    }

    /**
     * @param calls READs or WRITEs in flight at once (each takes a slot and an I/O buffer), 1 .. 256
     * @return this
     */
    public Nfs41Options outstanding(final int calls)
    {
        if (calls < 1 || calls > 256)
        {
            throw new IllegalArgumentException("outstanding " + calls + ": 1 .. 256");
        }
        outstanding = calls;
        return this;
    }

    /** @return fore channel slots asked for */
    public int foreSlots()
    {
        return foreSlots;
    }

    /**
     * @param slots fore channel ca_maxrequests, 1 .. 1024
     * @return this
     */
    public Nfs41Options foreSlots(final int slots)
    {
        if (slots < 1 || slots > Nfs4SlotTable.MAX_SLOTS)
        {
            throw new IllegalArgumentException("fore channel slots " + slots);
        }
        foreSlots = slots;
        return this;
    }

    /** @return fore channel ca_maxoperations asked for */
    public int foreMaxOps()
    {
        return foreMaxOps;
    }

    /**
     * @param ops fore channel ca_maxoperations (a path of more components is walked in several COMPOUNDs), >= 6
     * @return this
     */
    public Nfs41Options foreMaxOps(final int ops)
    {
        if (ops < 6)
        {
            throw new IllegalArgumentException("at least 6 operations per COMPOUND (SEQUENCE, PUTFH, LOOKUP, OPEN, " +
                "GETFH, GETATTR)");
        }
        foreMaxOps = ops;
        return this;
    }

    /** @return fore channel ca_maxresponsesize_cached asked for */
    public int foreMaxResponseCached()
    {
        return foreMaxResponseCached;
    }

    /**
     * @param bytes fore channel ca_maxresponsesize_cached: room for the replies of OPEN, CLOSE and REMOVE
     * @return this
     */
    public Nfs41Options foreMaxResponseCached(final int bytes)
    {
        foreMaxResponseCached = bytes;
        return this;
    }

    /** @return back channel slots offered */
    public int backSlots()
    {
        return backSlots;
    }

    /**
     * @param slots back channel ca_maxrequests, 1 .. 64
     * @return this
     */
    public Nfs41Options backSlots(final int slots)
    {
        if (slots < 1 || slots > 64)
        {
            throw new IllegalArgumentException("back channel slots " + slots + ": 1 .. 64");
        }
        backSlots = slots;
        return this;
    }

    /** @return back channel ca_maxoperations offered */
    public int backMaxOps()
    {
        return backMaxOps;
    }

    /**
     * @param ops back channel ca_maxoperations, >= 2 (CB_SEQUENCE and one more; knfsd refuses fewer)
     * @return this
     */
    public Nfs41Options backMaxOps(final int ops)
    {
        if (ops < 2)
        {
            throw new IllegalArgumentException("back channel operations " + ops + ": at least 2");
        }
        backMaxOps = ops;
        return this;
    }

    /** @return the back channel's largest request and reply */
    public int backMaxMessage()
    {
        return backMaxMessage;
    }

    /**
     * @param bytes the back channel's ca_maxrequestsize and ca_maxresponsesize: what the transport can take inline
     *              for a reverse-direction call, >= 1024
     * @return this
     */
    public Nfs41Options backMaxMessage(final int bytes)
    {
        if (bytes < 1024)
        {
            throw new IllegalArgumentException("back channel messages of " + bytes + " bytes: at least 1024");
        }
        backMaxMessage = bytes;
        return this;
    }

    /** @return true for AUTH_SYS callback security, false for AUTH_NONE */
    public boolean callbackAuthSys()
    {
        return callbackAuthSys;
    }

    /**
     * @param authSys true: the server calls back with AUTH_SYS (uid 0, gid 0); false: AUTH_NONE
     * @return this
     */
    public Nfs41Options callbackAuthSys(final boolean authSys)
    {
        callbackAuthSys = authSys;
        return this;
    }

    /** @return the AUTH_SYS machine name of the callback credential */
    public String machineName()
    {
        return machineName;
    }

    /**
     * @param name the AUTH_SYS machine name of the callback credential (ASCII, at most 255 bytes)
     * @return this
     */
    public Nfs41Options machineName(final String name)
    {
        boolean ascii = name.length() <= 255;
        for (int i = 0; ascii && i < name.length(); i++)
        {
            ascii = name.charAt(i) < 0x80;
        }
        if (!ascii)
        {
            throw new IllegalArgumentException("an AUTH_SYS machine name is up to 255 ASCII characters");
        }
        machineName = name;
        return this;
    }

    /** @return READDIR's maxcount */
    public int readdirMaxCount()
    {
        return readdirMaxCount;
    }

    /**
     * @param bytes READDIR's maxcount (a reply larger than the inline threshold goes to a Reply chunk), >= 1024
     * @return this
     */
    public Nfs41Options readdirMaxCount(final int bytes)
    {
        if (bytes < 1024)
        {
            throw new IllegalArgumentException("READDIR maxcount " + bytes + ": at least 1024");
        }
        readdirMaxCount = bytes;
        return this;
    }

    /** @return stable_how4 of WRITEs */
    public int stableHow()
    {
        return stableHow;
    }

    /**
     * @param how {@link Nfs4#UNSTABLE4} (then one COMMIT at the end) or {@link Nfs4#FILE_SYNC4}
     * @return this
     */
    public Nfs41Options stableHow(final int how)
    {
        if (Nfs4.UNSTABLE4 != how && Nfs4.FILE_SYNC4 != how && Nfs4.DATA_SYNC4 != how)
        {
            throw new IllegalArgumentException("stable_how4 " + how);
        }
        stableHow = how;
        return this;
    }

    /** @return the OPEN4_SHARE_ACCESS_WANT_* bits the session's OPENs carry */
    public int wantDelegation()
    {
        return wantDelegation;
    }

    /**
     * Which delegation OPENs ask for (RFC 8881 §18.16.3, the want bits of share_access). A delegation granted
     * (§10.2) is kept after its CLOSE, as Linux's client keeps it, and returned with DELEGRETURN when the server
     * recalls it or the session closes; without a back channel it is returned with the CLOSE.
     * {@link Nfs41Session#holdDelegation} asks for a read delegation whatever this says.
     *
     * @param want {@link Nfs4#SHARE_ACCESS_WANT_NO_DELEG} (the default: none), {@link
     *             Nfs4#SHARE_ACCESS_WANT_NO_PREFERENCE} (the server decides; what Linux's client sends) or {@link
     *             Nfs4#SHARE_ACCESS_WANT_READ_DELEG}
     * @return this
     */
    public Nfs41Options wantDelegation(final int want)
    {
        if (Nfs4.SHARE_ACCESS_WANT_NO_DELEG != want && Nfs4.SHARE_ACCESS_WANT_NO_PREFERENCE != want &&
            Nfs4.SHARE_ACCESS_WANT_READ_DELEG != want)
        {
            throw new IllegalArgumentException("want 0x" + Integer.toHexString(want) + ": OPEN4_SHARE_ACCESS_WANT_" +
                "NO_DELEG, NO_PREFERENCE or READ_DELEG");
        }
        wantDelegation = want;
        return this;
    }

    /** @return how long NFS4ERR_DELAY and NFS4ERR_GRACE are retried, in nanoseconds */
    public long retryLimitNs()
    {
        return retryLimitNs;
    }

    /** @return the first wait before a retry */
    public long retryInitialNs()
    {
        return retryInitialNs;
    }

    /** @return the longest wait between retries */
    public long retryMaxNs()
    {
        return retryMaxNs;
    }

    /**
     * @param limitNs how long a request is retried after NFS4ERR_DELAY or NFS4ERR_GRACE before its error surfaces
     * @param initialNs the first wait
     * @param maxNs the longest wait (waits double up to it)
     * @return this
     */
    public Nfs41Options retry(final long limitNs, final long initialNs, final long maxNs)
    {
        if (limitNs < 0 || initialNs < 1 || maxNs < initialNs)
        {
            throw new IllegalArgumentException("retry limit " + limitNs + ", waits " + initialNs + ".." + maxNs);
        }
        retryLimitNs = limitNs;
        retryInitialNs = initialNs;
        retryMaxNs = maxNs;
        return this;
    }

    /** @return the clock of retries and lease renewal */
    public NanoClock clock()
    {
        return clock;
    }

    /**
     * @param clock the clock of retries and lease renewal (tests give one that moves as they say)
     * @return this
     */
    public Nfs41Options clock(final NanoClock clock)
    {
        this.clock = clock;
        return this;
    }

    /** @return what the session does between polls of the RPC client while it waits */
    public IdleStrategy idle()
    {
        return idle;
    }

    /**
     * @param idle what the session does between polls of the RPC client while it waits
     * @return this
     */
    public Nfs41Options idle(final IdleStrategy idle)
    {
        this.idle = idle;
        return this;
    }
}
