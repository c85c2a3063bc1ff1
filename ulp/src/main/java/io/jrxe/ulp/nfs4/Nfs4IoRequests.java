package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.sunrpc.RpcCall;

/**
 * The data path's requests, one object per call in flight, reused chunk after chunk: nothing is allocated unless an
 * operation fails.
 * <pre>
 *   Read    SEQUENCE | PUTFH | READ   stateid offset count       data: a DDP payload into the call's read payload
 *   Write   SEQUENCE | PUTFH | WRITE  stateid offset stable data data: a DDP payload from the caller's memory
 *   Commit  SEQUENCE | PUTFH | COMMIT offset 0 (all)
 * </pre>
 * The handle and the stateid are the transfer's, shared by its requests.
 */
final class Nfs4IoRequests
{
    private Nfs4IoRequests()
    {
    }

    private static void ok(final Nfs4CompoundDecoder dec, final int op, final long offset)
    {
        final int status = dec.next(op);
        if (Nfs4Status.OK != status)
        {
            throw new Nfs4StatusException(op, status, "offset " + offset);
        }
    }

    /** PUTFH, READ into {@link #address}. */
    static final class Read extends Nfs4Request
    {
        Nfs4FileHandle fh;
        Nfs4Stateid stateid;
        long offset;
        int count;
        long address;
        int bytes;
        boolean eof;

        @Override
        public String name()
        {
            return "READ";
        }

        @Override
        public void encode(final Nfs4CompoundEncoder enc, final RpcCall call)
        {
            enc.putFh(fh).read(stateid, offset, count);
            call.readPayloadTo(address, count);
        }

        @Override
        public void decode(final Nfs4CompoundDecoder dec, final RpcCall call)
        {
            ok(dec, Nfs4.OP_PUTFH, offset);
            ok(dec, Nfs4.OP_READ, offset);
            bytes = dec.read(call);
            eof = dec.readEof();
        }
    }

    /** PUTFH, WRITE from {@link #address}. */
    static final class Write extends Nfs4Request
    {
        final Nfs4WriteResult result = new Nfs4WriteResult();
        Nfs4FileHandle fh;
        Nfs4Stateid stateid;
        long offset;
        int count;
        long address;
        int stable;

        @Override
        public String name()
        {
            return "WRITE";
        }

        @Override
        public void encode(final Nfs4CompoundEncoder enc, final RpcCall call)
        {
            enc.putFh(fh).write(call, stateid, offset, stable, address, count);
        }

        @Override
        public void decode(final Nfs4CompoundDecoder dec, final RpcCall call)
        {
            ok(dec, Nfs4.OP_PUTFH, offset);
            ok(dec, Nfs4.OP_WRITE, offset);
            dec.write(result);
            if (result.count() < 0 || result.count() > count)
            {
                throw new Nfs4Exception("WRITE of " + count + " bytes at " + offset + ": the server says it wrote " +
                    result.count());
            }
        }
    }

    /** PUTFH, COMMIT of everything. */
    static final class Commit extends Nfs4Request
    {
        Nfs4FileHandle fh;
        long verifier;

        @Override
        public String name()
        {
            return "COMMIT";
        }

        @Override
        public void encode(final Nfs4CompoundEncoder enc, final RpcCall call)
        {
            enc.putFh(fh).commit(0, 0);
        }

        @Override
        public void decode(final Nfs4CompoundDecoder dec, final RpcCall call)
        {
            ok(dec, Nfs4.OP_PUTFH, 0);
            ok(dec, Nfs4.OP_COMMIT, 0);
            verifier = dec.commit();
        }
    }
}
