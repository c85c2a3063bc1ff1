package io.jrxe.ulp.cmapps;

/**
 * How an {@link Rping} run went: the pings completed and, on the server, the RDMA READs and WRITEs behind them.
 * {@link #summary()} is the line for scripts:
 * <pre>
 *   JRXE-RPING role=client count=20 size=64 validate=ok seconds=0.03
 * </pre>
 */
public final class RpingResult
{
    /** The client's {@code -V} outcome. */
    public enum Validation
    {
        /** Not checked ({@code -V} not given, or the server, which has nothing to compare). */
        OFF("off"),
        /** Every ping came back equal to what was sent. */
        OK("ok"),
        /** A ping came back different: the run stopped there, as rping's does ("data mismatch!"). */
        FAILED("FAILED");

        private final String text;

        Validation(final String text)
        {
            this.text = text;
        }

        /** @return as in the summary line */
        public String text()
        {
            return text;
        }
    }

    private final String role;
    private final int count;
    private final int size;
    private final Validation validation;
    private final long elapsedNs;
    private final long reads;
    private final long writes;
    private final long bytesRead;
    private final long bytesWritten;

    private RpingResult(final Builder b)
    {
        this.role = b.role;
        this.count = b.count;
        this.size = b.size;
        this.validation = b.validation;
        this.elapsedNs = b.elapsedNs;
        this.reads = b.reads;
        this.writes = b.writes;
        this.bytesRead = b.bytesRead;
        this.bytesWritten = b.bytesWritten;
    }

    /** @return "server" or "client" */
    public String role()
    {
        return role;
    }

    /** @return pings completed */
    public int count()
    {
        return count;
    }

    /** @return {@code -S} */
    public int size()
    {
        return size;
    }

    /** @return the {@code -V} outcome */
    public Validation validation()
    {
        return validation;
    }

    /** @return from accept (server) or the first ping (client) to the end */
    public long elapsedNs()
    {
        return elapsedNs;
    }

    /** @return RDMA READs this side completed (the server's) */
    public long reads()
    {
        return reads;
    }

    /** @return RDMA WRITEs this side completed (the server's) */
    public long writes()
    {
        return writes;
    }

    /** @return bytes this side RDMA READ */
    public long bytesRead()
    {
        return bytesRead;
    }

    /** @return bytes this side RDMA WROTE */
    public long bytesWritten()
    {
        return bytesWritten;
    }

    /** @return false when {@code -V} found a mismatch */
    public boolean ok()
    {
        return Validation.FAILED != validation;
    }

    /** @return {@code JRXE-RPING role=... count=... size=... validate=... seconds=...} */
    public String summary()
    {
        return "JRXE-RPING role=" + role + " count=" + count + " size=" + size + " validate=" + validation.text() +
            " seconds=" + Rping.seconds(elapsedNs);
    }

    @Override
    public String toString()
    {
        return summary() + " reads=" + reads + " writes=" + writes + " bytes_read=" + bytesRead + " bytes_written=" +
            bytesWritten;
    }

    /** Counts as the run goes. */
    static final class Builder
    {
        private final String role;
        private final int size;
        private int count;
        private Validation validation = Validation.OFF;
        private long elapsedNs;
        private long reads;
        private long writes;
        private long bytesRead;
        private long bytesWritten;

        Builder(final String role, final int size)
        {
            this.role = role;
            this.size = size;
        }

        Builder ping()
        {
            count++;
            return this;
        }

        Builder read(final int bytes)
        {
            reads++;
            bytesRead += bytes;
            return this;
        }

        Builder written(final int bytes)
        {
            writes++;
            bytesWritten += bytes;
            return this;
        }

        Builder validation(final Validation value)
        {
            this.validation = value;
            return this;
        }

        Builder elapsedNs(final long value)
        {
            this.elapsedNs = value;
            return this;
        }

        RpingResult build()
        {
            return new RpingResult(this);
        }
    }
}
