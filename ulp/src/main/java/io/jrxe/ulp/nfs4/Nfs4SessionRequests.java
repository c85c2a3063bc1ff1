package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.sunrpc.RpcCall;

/**
 * The requests that make and end a client ID and a session (RFC 8881 §18.35 - §18.37, §18.50, §18.51), and the
 * SEQUENCE-only request that renews the lease.
 * <pre>
 *   EXCHANGE_ID                      (alone)   clientid, sequenceid
 *   CREATE_SESSION                   (alone)   sessionid, channels granted
 *   SEQUENCE, RECLAIM_COMPLETE                 the server lets OPENs through (knfsd: NFS4ERR_GRACE before it)
 *   SEQUENCE                                   renews the lease (RFC 8881 §8.3)
 *   DESTROY_SESSION                  (alone)
 *   DESTROY_CLIENTID                 (alone)   after the last session is gone (else NFS4ERR_CLIENTID_BUSY)
 * </pre>
 */
final class Nfs4SessionRequests
{
    private Nfs4SessionRequests()
    {
    }

    /** EXCHANGE_ID with SP4_NONE and EXCHGID4_FLAG_USE_NON_PNFS. */
    static final class ExchangeId extends Nfs4Request
    {
        final Nfs4ExchangeIdResult result = new Nfs4ExchangeIdResult();
        long verifier;
        byte[] ownerId;

        @Override
        public String name()
        {
            return "EXCHANGE_ID";
        }

        @Override
        public void encode(final Nfs4CompoundEncoder enc, final RpcCall call)
        {
            enc.exchangeId(verifier, ownerId, Nfs4.EXCHGID4_FLAG_USE_NON_PNFS, "jrxe.io", "jrxe NFSv4.1 client");
        }

        @Override
        public void decode(final Nfs4CompoundDecoder dec, final RpcCall call)
        {
            dec.ok(Nfs4.OP_EXCHANGE_ID, null);
            dec.exchangeId(result);
            final int pnfs = result.flags() &
                (Nfs4.EXCHGID4_FLAG_USE_NON_PNFS | Nfs4.EXCHGID4_FLAG_USE_PNFS_MDS | Nfs4.EXCHGID4_FLAG_USE_PNFS_DS);
            if (0 == (pnfs & (Nfs4.EXCHGID4_FLAG_USE_NON_PNFS | Nfs4.EXCHGID4_FLAG_USE_PNFS_MDS)))
            {
                // RFC 8881 §18.35.3: a server that is only a pNFS data server cannot serve this client's I/O
                throw new Nfs4Exception("EXCHANGE_ID: the server offers neither non-pNFS nor MDS service (flags 0x" +
                    Integer.toHexString(result.flags()) + ")");
            }
        }
    }

    /** CREATE_SESSION, with CONN_BACK_CHAN when the client serves callbacks on this connection. */
    static final class CreateSession extends Nfs4Request
    {
        final Nfs4CreateSessionResult result = new Nfs4CreateSessionResult();
        final Nfs4ChannelAttrs fore = new Nfs4ChannelAttrs();
        final Nfs4ChannelAttrs back = new Nfs4ChannelAttrs();
        long clientId;
        int sequence;
        int flags = Nfs4.CREATE_SESSION4_FLAG_CONN_BACK_CHAN;
        int cbProgram;
        boolean authSys;
        String machineName;
        int stamp;

        @Override
        public String name()
        {
            return "CREATE_SESSION";
        }

        @Override
        public void encode(final Nfs4CompoundEncoder enc, final RpcCall call)
        {
            enc.createSession(clientId, sequence, flags, fore, back, cbProgram, authSys, stamp, machineName, 0, 0);
        }

        @Override
        public void decode(final Nfs4CompoundDecoder dec, final RpcCall call)
        {
            dec.ok(Nfs4.OP_CREATE_SESSION, null);
            dec.createSession(result);
            if (result.sequence() != sequence)
            {
                throw new Nfs4Exception("CREATE_SESSION: csr_sequence " + result.sequence() + " for csa_sequence " +
                    sequence + " (RFC 8881 §18.36.3)");
            }
            if (result.fore().maxRequests() < 1 || result.fore().maxOperations() < 2)
            {
                throw new Nfs4Exception("CREATE_SESSION: the server granted an unusable fore channel: " +
                    result.fore());
            }
        }
    }

    /** DESTROY_SESSION. */
    static final class DestroySession extends Nfs4Request
    {
        final Nfs4SessionId session = new Nfs4SessionId();

        @Override
        public String name()
        {
            return "DESTROY_SESSION";
        }

        @Override
        public void encode(final Nfs4CompoundEncoder enc, final RpcCall call)
        {
            enc.destroySession(session);
        }

        @Override
        public void decode(final Nfs4CompoundDecoder dec, final RpcCall call)
        {
            dec.ok(Nfs4.OP_DESTROY_SESSION, "session " + session);
        }
    }

    /** DESTROY_CLIENTID. */
    static final class DestroyClientId extends Nfs4Request
    {
        long clientId;

        @Override
        public String name()
        {
            return "DESTROY_CLIENTID";
        }

        @Override
        public void encode(final Nfs4CompoundEncoder enc, final RpcCall call)
        {
            enc.destroyClientId(clientId);
        }

        @Override
        public void decode(final Nfs4CompoundDecoder dec, final RpcCall call)
        {
            dec.ok(Nfs4.OP_DESTROY_CLIENTID, "client " + Long.toHexString(clientId));
        }
    }

    /** SEQUENCE, RECLAIM_COMPLETE(one_fs false); NFS4ERR_COMPLETE_ALREADY counts as done (RFC 8881 §18.51.3). */
    static final class ReclaimComplete extends Nfs4Request
    {
        boolean alreadyComplete;

        @Override
        public String name()
        {
            return "RECLAIM_COMPLETE";
        }

        @Override
        public void encode(final Nfs4CompoundEncoder enc, final RpcCall call)
        {
            enc.reclaimComplete(false);
        }

        @Override
        public void decode(final Nfs4CompoundDecoder dec, final RpcCall call)
        {
            final int status = dec.next(Nfs4.OP_RECLAIM_COMPLETE);
            alreadyComplete = Nfs4Status.COMPLETE_ALREADY == status;
            if (Nfs4Status.OK != status && !alreadyComplete)
            {
                throw new Nfs4StatusException(Nfs4.OP_RECLAIM_COMPLETE, status, null);
            }
        }
    }

    /** SEQUENCE alone: renews the lease and reports sr_status_flags. */
    static final class Renew extends Nfs4Request
    {
        @Override
        public String name()
        {
            return "SEQUENCE";
        }

        @Override
        public void encode(final Nfs4CompoundEncoder enc, final RpcCall call)
        {
        }

        @Override
        public void decode(final Nfs4CompoundDecoder dec, final RpcCall call)
        {
        }
    }
}
