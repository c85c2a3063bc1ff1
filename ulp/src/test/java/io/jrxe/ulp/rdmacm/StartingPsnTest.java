package io.jrxe.ulp.rdmacm;

import io.jrxe.driver.emu.WireFaults;
import io.jrxe.driver.emu.WireFilter;
import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.ulp.cm.mad.CmAttributes;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Starting PSN of a REQ or REP is the PSN its sender expects to receive, as Linux cm.c uses it (it stores the
 * REQ's as the active side's rq_psn and the passive side's sq_psn): the wrong reading connects jrxe to jrxe but
 * leaves a kernel peer dropping every packet as out of sequence.
 */
class StartingPsnTest
{
    /** Records the Starting PSN of the REQ and the REP on the wire (REQ data offset 44, REP 20; top 24 bits). */
    private static final class PsnTap implements WireFilter
    {
        volatile int reqPsn = -1;
        volatile int repPsn = -1;

        @Override
        public boolean drop(final int source, final int destination, final DirectBuffer frame, final int offset,
            final int length)
        {
            if (length >= 62 + 256)
            {
                final int mad = offset + 62;
                final int attribute = frame.getShort(mad + 16, ByteOrder.BIG_ENDIAN) & 0xFFFF;
                if (CmAttributes.REQ == attribute && 0 == frame.getByte(mad + 1) - 7)
                {
                    reqPsn = frame.getInt(mad + 24 + 44, ByteOrder.BIG_ENDIAN) >>> 8;
                }
                else if (CmAttributes.REP == attribute && 0 == frame.getByte(mad + 1) - 7)
                {
                    repPsn = frame.getInt(mad + 24 + 20, ByteOrder.BIG_ENDIAN) >>> 8;
                }
            }
            return false;
        }
    }

    @Test
    void shouldReceiveFromTheStartingPsnItSentAndSendFromThePeers()
    {
        final PsnTap tap = new PsnTap();
        try (CmPair cm = new CmPair(WireFaults.none().filter(tap)))
        {
            final CmFlows f = new CmFlows(cm);
            f.listen(7174);
            final CmId[] ids = f.establish(7174);
            assertTrue(tap.reqPsn >= 0 && tap.repPsn >= 0, "saw the REQ and the REP");
            final QpAttr client = cm.pair.a().device().queryQp(ids[0].qp(), new QpAttr());
            final QpAttr server = cm.pair.b().device().queryQp(ids[1].qp(), new QpAttr());
            assertEquals(tap.reqPsn, client.rqPsn(), "the active side receives from its REQ's Starting PSN");
            assertEquals(tap.reqPsn, server.sqPsn(), "the passive side sends from the REQ's Starting PSN");
            assertEquals(tap.repPsn, server.rqPsn(), "the passive side receives from its REP's Starting PSN");
            assertEquals(tap.repPsn, client.sqPsn(), "the active side sends from the REP's Starting PSN");
            f.teardown(ids[0], ids[1]);
        }
    }
}
