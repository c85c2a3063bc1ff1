package io.jrxe.ulp.oob;

import io.jrxe.rxe.verbs.Mtu;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/** A {@link PerftestBwSession.Peer} that stands in for the verbs layer and records what the session asked. */
class RecordingPeer implements PerftestBwSession.Peer
{
    final List<PerftestDest> locals;
    final BwReport report;
    final AtomicBoolean prepared = new AtomicBoolean();
    final AtomicInteger trafficRuns = new AtomicInteger();
    volatile Mtu mtu;
    volatile PerftestSysData sysData;
    volatile List<PerftestDest> connectedTo;
    final List<Long> preparedSizes = new CopyOnWriteArrayList<>();
    final List<BwReport> remotesReported = new CopyOnWriteArrayList<>();

    RecordingPeer(final List<PerftestDest> locals, final BwReport report)
    {
        this.locals = locals;
        this.report = report;
    }

    public List<PerftestDest> localDests(final Mtu mtu, final PerftestSysData sysData)
    {
        this.mtu = mtu;
        this.sysData = sysData;
        return locals;
    }

    public void connect(final List<PerftestDest> remoteDests)
    {
        connectedTo = remoteDests;
    }

    public void prepareTraffic(final long size)
    {
        prepared.set(true);
        preparedSizes.add(size);
    }

    public BwReport runTraffic(final long size)
    {
        if (!prepared.get())
        {
            throw new IllegalStateException("traffic before prepareTraffic");
        }
        trafficRuns.incrementAndGet();
        return report;
    }

    @Override
    public void reported(final BwReport local, final BwReport remote)
    {
        if (null != remote)
        {
            remotesReported.add(remote);
        }
    }
}
