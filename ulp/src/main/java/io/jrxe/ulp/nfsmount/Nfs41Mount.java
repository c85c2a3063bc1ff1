package io.jrxe.ulp.nfsmount;

import io.jrxe.ulp.nfs4.Nfs4;
import io.jrxe.ulp.nfs4.Nfs41Session;
import io.jrxe.ulp.nfs4.Nfs4CallbackProgram;
import io.jrxe.ulp.nfs4.Nfs4DirEntry;
import io.jrxe.ulp.nfs4.Nfs4Exception;
import io.jrxe.ulp.nfs4.Nfs4Status;
import io.jrxe.ulp.nfs4.Nfs4StatusException;
import io.jrxe.ulp.rpcrdma.RpcRdmaClient;
import io.jrxe.ulp.rpcrdma.RpcRdmaTransport;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * NFSv4.1 over RDMA: one connection carrying the fore channel and, for the server's callbacks, the back channel
 * (CREATE_SESSION4_FLAG_CONN_BACK_CHAN; RFC 8881 §2.10.3.1, RFC 8167 for the reverse direction on RDMA).
 */
final class Nfs41Mount implements NfsMount
{
    private final RpcRdmaClient client;
    private final Nfs4CallbackProgram callback;
    private final Nfs41Session session;

    Nfs41Mount(final RpcRdmaClient client, final Nfs4CallbackProgram callback, final Nfs41Session session)
    {
        this.client = client;
        this.callback = callback;
        this.session = session;
    }

    static NfsError error(final Nfs4Exception ex)
    {
        if (ex instanceof Nfs4StatusException)
        {
            final Nfs4StatusException s = (Nfs4StatusException)ex;
            return new NfsError(Nfs4.opName(s.op()), Nfs4Status.name(s.status()), ex.getMessage(), ex);
        }
        return new NfsError("COMPOUND", "RPC", ex.getMessage(), ex);
    }

    /** @return the session (for what this API does not wrap) */
    Nfs41Session session()
    {
        return session;
    }

    @Override
    public String version()
    {
        return "4.1";
    }

    @Override
    public int rsize()
    {
        return session.rsize();
    }

    @Override
    public int wsize()
    {
        return session.wsize();
    }

    @Override
    public RpcRdmaTransport transport()
    {
        return client.transport();
    }

    @Override
    public List<NfsEntry> list(final String dir) throws IOException
    {
        try
        {
            final List<NfsEntry> out = new ArrayList<>();
            for (final Nfs4DirEntry e : session.list(dir))
            {
                out.add(new NfsEntry(e.name(), NfsEntry.letterOf(e.type()), e.size()));
            }
            return out;
        }
        catch (final Nfs4Exception ex)
        {
            throw error(ex);
        }
    }


    @Override
    public long read(final String path, final OutputStream out, final NfsProgress progress) throws IOException
    {
        try
        {
            return session.read(path, out, progress::progress);
        }
        catch (final Nfs4Exception ex)
        {
            throw error(ex);
        }
    }

    @Override
    public long write(final String path, final FileChannel in, final NfsProgress progress) throws IOException
    {
        try
        {
            return session.write(in, path, 0644, progress::progress);
        }
        catch (final Nfs4Exception ex)
        {
            throw error(ex);
        }
    }

    @Override
    public void create(final String path) throws IOException
    {
        try
        {
            session.create(path, 0644, false);
        }
        catch (final Nfs4Exception ex)
        {
            throw error(ex);
        }
    }

    @Override
    public void remove(final String path) throws IOException
    {
        try
        {
            session.remove(path);
        }
        catch (final Nfs4Exception ex)
        {
            throw error(ex);
        }
    }

    @Override
    public String holdDelegation(final String path) throws IOException
    {
        try
        {
            final int type = session.holdDelegation(path);
            if (Nfs4.OPEN_DELEGATE_NONE == type)
            {
                throw new NfsError("OPEN", "NO_DELEGATION", "the server granted no delegation on \"" + path +
                    "\" (why_no_delegation4 " + session.whyNoDelegation() + ")", null);
            }
            return Nfs4.delegationName(type).replace("OPEN_DELEGATE_", "");
        }
        catch (final Nfs4Exception ex)
        {
            throw error(ex);
        }
    }

    @Override
    public boolean awaitRecall(final long timeoutNs) throws IOException
    {
        try
        {
            return session.awaitRecall(timeoutNs);
        }
        catch (final Nfs4Exception ex)
        {
            throw error(ex);
        }
    }

    @Override
    public String backchannel()
    {
        return "calls=" + callback.calls() + " cb_null=" + callback.cbNull() + " cb_sequence=" +
            callback.cbSequence() + " cb_recall=" + callback.cbRecall() + " delegations_returned=" +
            session.delegationsReturned();
    }

    @Override
    public void close() throws IOException
    {
        try
        {
            session.close();
        }
        catch (final Nfs4Exception ex)
        {
            throw error(ex);
        }
        finally
        {
            client.close();
        }
    }
}
