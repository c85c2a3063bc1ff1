package io.jrxe.ulp.sunrpc;

import io.jrxe.rxe.verbs.Errno;
import org.agrona.concurrent.IdleStrategy;

/**
 * Several clients of one server used as one (Linux's {@code nconnect}): each call is prepared on the next client
 * in turn that has a free slot, and stays with it ({@link RpcCall#owner()}) until released. Progress and waiting
 * drive every client, so no connection's replies wait for another's.
 */
public final class RoundRobinRpcClient implements RpcClient
{
    private final RpcClient[] clients;
    private final IdleStrategy idle;
    private int next;

    /**
     * @param clients the clients, all to the same server with the same credential (owned from now on)
     * @param idle what waiting does between duty cycles that found nothing to do
     */
    public RoundRobinRpcClient(final RpcClient[] clients, final IdleStrategy idle)
    {
        if (0 == clients.length)
        {
            throw new IllegalArgumentException("no clients");
        }
        this.clients = clients.clone();
        this.idle = idle;
    }

    @Override
    public int prepare(final RpcCall call, final int program, final int version, final int procedure)
    {
        int rc = -Errno.ENOMEM;
        for (int i = 0; i < clients.length; i++)
        {
            final int k = (next + i) % clients.length;
            rc = clients[k].prepare(call, program, version, procedure);
            if (0 == rc)
            {
                next = (k + 1) % clients.length;
                return 0;
            }
        }
        return rc;
    }

    private static RpcClient owner(final RpcCall call)
    {
        if (!(call.owner() instanceof RpcClient))
        {
            throw new IllegalStateException("a call not prepared by these clients: " + call);
        }
        return (RpcClient)call.owner();
    }

    @Override
    public int execute(final RpcCall call)
    {
        submit(call);
        await(call);
        return call.status();
    }

    @Override
    public int submit(final RpcCall call)
    {
        return owner(call).submit(call);
    }

    @Override
    public void await(final RpcCall call)
    {
        idle.reset();
        while (!call.isDone())
        {
            idle.idle(progress());
        }
    }

    @Override
    public int progress()
    {
        int work = 0;
        for (final RpcClient client : clients)
        {
            work += client.progress();
        }
        return work;
    }

    @Override
    public void release(final RpcCall call)
    {
        if (RpcCall.IDLE != call.state())
        {
            owner(call).release(call);
        }
    }

    @Override
    public RpcAuth auth()
    {
        return clients[0].auth();
    }

    /** @return how many clients */
    public int size()
    {
        return clients.length;
    }

    /**
     * @param i 0 .. size - 1
     * @return client i
     */
    public RpcClient client(final int i)
    {
        return clients[i];
    }

    @Override
    public void close()
    {
        for (final RpcClient client : clients)
        {
            client.close();
        }
    }
}
