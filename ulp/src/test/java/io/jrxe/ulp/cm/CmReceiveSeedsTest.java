package io.jrxe.ulp.cm;

import io.jrxe.ulp.cm.FuzzConsumer.Event;
import io.jrxe.ulp.cm.mad.CmAttributes;
import io.jrxe.ulp.fuzz.FuzzedDataReader;
import io.jrxe.ulp.fuzz.FuzzedDataWriter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import static io.jrxe.ulp.cm.CmCounters.Drop;
import static io.jrxe.ulp.cm.CmCounters.Group.CM_RX_DUPLICATES;
import static io.jrxe.ulp.cm.CmCounters.Group.CM_RX_MSGS;
import static io.jrxe.ulp.cm.CmCounters.Group.CM_TX_MSGS;
import static io.jrxe.ulp.cm.CmFuzzer.ACTION;
import static io.jrxe.ulp.cm.CmFuzzer.ADVANCE;
import static io.jrxe.ulp.cm.CmFuzzer.CONNECT;
import static io.jrxe.ulp.cm.CmFuzzer.CONNECTION;
import static io.jrxe.ulp.cm.CmFuzzer.OP;
import static io.jrxe.ulp.cm.CmFuzzer.OP_ACT;
import static io.jrxe.ulp.cm.CmFuzzer.OP_ADVANCE;
import static io.jrxe.ulp.cm.CmFuzzer.OP_CONNECT;
import static io.jrxe.ulp.cm.CmFuzzer.OP_REPEAT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The seed corpus of {@code CmReceiveFuzzTest}: scenarios written as the decisions of {@link CmFuzzer} (by name:
 * every decision not named takes its lowest value, the ordinary case), encoded with {@link FuzzedDataWriter} into
 * the bytes Jazzer's provider turns back into them, and run here to check that each does what its name says (the
 * CM's counters and the consumer's events after it). Each must match its file under
 * {@code src/test/resources/io/jrxe/ulp/cm/CmReceiveFuzzTestInputs/receive/}; to write the files again after a
 * change of the decisions: {@code mvn -o test -pl ulp -Dtest=CmReceiveSeedsTest -Djrxe.fuzz.writeSeeds=true}.
 */
class CmReceiveSeedsTest
{
    private static final Path DIR = Paths.get("src/test/resources/io/jrxe/ulp/cm/CmReceiveFuzzTestInputs/receive");
    private static final int REQ = 0;
    private static final int MRA = 1;
    private static final int REJ = 2;
    private static final int REP = 3;
    private static final int RTU = 4;
    private static final int DREQ = 5;
    private static final int DREP = 6;
    private static final int SIDR_REQ = 7;
    private static final int SIDR_REP = 8;
    private static final int LAP = 9;
    private static final int APR = 10;

    private static CmFuzzer fuzzer;

    @BeforeAll
    static void build()
    {
        fuzzer = new CmFuzzer();
    }

    @AfterAll
    static void close()
    {
        fuzzer.close();
    }

    /** A scenario's decisions, and the bytes that make Jazzer's provider give them. */
    static final class Script implements FuzzChoices
    {
        private final List<String> names = new ArrayList<>();
        private final List<Long> values = new ArrayList<>();
        private final FuzzedDataWriter writer = new FuzzedDataWriter();
        private int next;

        Script set(final String what, final long value)
        {
            names.add(what);
            values.add(value);
            return this;
        }

        /** The peer sends a MAD of KINDS[kind] (or KIND_METHOD, KIND_ATTRIBUTE). */
        Script send(final int kind)
        {
            return set(OP, CmFuzzer.OP_SEND).set(MadMaker.KIND, kind);
        }

        Script op(final int op)
        {
            return set(OP, op);
        }

        /** Time runs to the CM's next timer. */
        Script toNextTimer()
        {
            return set(OP, OP_ADVANCE).set(ADVANCE, 0);
        }

        private long take(final String what, final long min)
        {
            if (next < names.size() && names.get(next).equals(what))
            {
                return values.get(next++);
            }
            return min;
        }

        @Override
        public boolean more()
        {
            return next < names.size();
        }

        @Override
        public int pick(final String what, final int min, final int max)
        {
            final int v = (int)take(what, min);
            writer.consumeInt(min, max, v);
            return v;
        }

        @Override
        public int anyInt(final String what)
        {
            final int v = (int)take(what, 0);
            writer.consumeInt(v);
            return v;
        }

        @Override
        public long anyLong(final String what)
        {
            final long v = take(what, 0);
            writer.consumeLong(v);
            return v;
        }

        @Override
        public boolean flag(final String what)
        {
            final boolean v = 0 != take(what, 0);
            writer.consumeBoolean(v);
            return v;
        }

        byte[] bytes()
        {
            assertEquals(names.size(), next, "decisions the fuzzer never asked for: " +
                names.subList(next, names.size()));
            return writer.toByteArray();
        }
    }

    /** The decisions read from bytes as Jazzer's provider reads them. */
    static final class ReaderChoices implements FuzzChoices
    {
        private final FuzzedDataReader data;

        ReaderChoices(final FuzzedDataReader data)
        {
            this.data = data;
        }

        @Override
        public boolean more()
        {
            return data.remainingBytes() > 0;
        }

        @Override
        public int pick(final String what, final int min, final int max)
        {
            return data.consumeInt(min, max);
        }

        @Override
        public int anyInt(final String what)
        {
            return data.consumeInt();
        }

        @Override
        public long anyLong(final String what)
        {
            return data.consumeLong();
        }

        @Override
        public boolean flag(final String what)
        {
            return data.consumeBoolean();
        }
    }

    /** What a scenario did: counter and event deltas. */
    static final class Outcome
    {
        private final long[] counters = new long[CmCounters.COUNT];
        private final long[] events = new long[Event.values().length];

        Outcome(final long[] counters, final long[] events)
        {
            System.arraycopy(counters, 0, this.counters, 0, counters.length);
            System.arraycopy(events, 0, this.events, 0, events.length);
        }

        long rx(final int attribute)
        {
            return counters[CM_RX_MSGS.ordinal() * CmCounters.TYPES + CmCounters.typeIndex(attribute)];
        }

        long tx(final int attribute)
        {
            return counters[CM_TX_MSGS.ordinal() * CmCounters.TYPES + CmCounters.typeIndex(attribute)];
        }

        long duplicates(final int attribute)
        {
            return counters[CM_RX_DUPLICATES.ordinal() * CmCounters.TYPES + CmCounters.typeIndex(attribute)];
        }

        long drops(final Drop reason)
        {
            return counters[CmCounters.Group.values().length * CmCounters.TYPES + reason.ordinal()];
        }

        long events(final Event event)
        {
            return events[event.ordinal()];
        }
    }

    private static long[] counters()
    {
        final long[] values = new long[CmCounters.COUNT];
        for (int i = 0; i < values.length; i++)
        {
            values[i] = fuzzer.cm().counters().value(i);
        }
        return values;
    }

    private static long[] events()
    {
        final long[] values = new long[Event.values().length];
        for (final Event e : Event.values())
        {
            values[e.ordinal()] = fuzzer.consumer().events(e);
        }
        return values;
    }

    /**
     * Runs the scenario twice, from the script and from its bytes (as Jazzer will), checks what it did, and that
     * its file holds those bytes (or writes it).
     */
    private static void seed(final String name, final Script script, final Consumer<Outcome> expect) throws IOException
    {
        final long[] c0 = counters();
        final long[] e0 = events();
        fuzzer.run(script);
        final byte[] bytes = script.bytes();
        final long[] c1 = counters();
        final long[] e1 = events();
        final long[] dc = new long[c0.length];
        final long[] de = new long[e0.length];
        for (int i = 0; i < dc.length; i++)
        {
            dc[i] = c1[i] - c0[i];
        }
        for (int i = 0; i < de.length; i++)
        {
            de[i] = e1[i] - e0[i];
        }
        expect.accept(new Outcome(dc, de));

        final FuzzedDataReader reader = new FuzzedDataReader(bytes);
        fuzzer.run(new ReaderChoices(reader));
        final long[] c2 = counters();
        final long[] e2 = events();
        for (int i = 0; i < dc.length; i++)
        {
            assertEquals(dc[i], c2[i] - c1[i], name + ": read back, " + CmCounters.name(i) + " moved otherwise");
        }
        for (int i = 0; i < de.length; i++)
        {
            assertEquals(de[i], e2[i] - e1[i], name + ": read back, " + Event.values()[i] + " came otherwise");
        }
        final Path file = DIR.resolve("seed-" + name);
        if (Boolean.getBoolean("jrxe.fuzz.writeSeeds"))
        {
            Files.createDirectories(DIR);
            Files.write(file, bytes);
        }
        assertTrue(Files.exists(file), file + " missing: run with -Djrxe.fuzz.writeSeeds=true");
        assertArrayEquals(bytes, Files.readAllBytes(file), file + " differs: run with -Djrxe.fuzz.writeSeeds=true");
    }

    private static Script script()
    {
        return new Script();
    }

    @Test
    void passiveConnections() throws IOException
    {
        seed("req-unknown-service", script().send(REQ).set(MadMaker.SERVICE, 2), o ->
        {
            assertEquals(1, o.rx(CmAttributes.REQ));
            assertEquals(0, o.events(Event.REQ));
            assertEquals(1, o.tx(CmAttributes.REJ), "REJ 8");
        });
        seed("req-rep-rtu", script().send(REQ).send(RTU), o -> assertEquals(1, o.events(Event.ESTABLISHED)));
        seed("req-rep-rtu-dreq-drep", script().send(REQ).send(RTU).send(DREQ).toNextTimer(), o ->
        {
            assertEquals(1, o.events(Event.DREQ));
            assertEquals(1, o.tx(CmAttributes.DREP));
            assertEquals(1, o.events(Event.TIMEWAIT_EXIT));
        });
        seed("req-mra-duplicate-rep-rtu", script().send(REQ).set(FuzzConsumer.ON_REQ, 2).toNextTimer()
            .op(OP_REPEAT).op(OP_ACT).set(ACTION, 3).send(RTU), o ->
        {
            assertEquals(2, o.tx(CmAttributes.MRA), "the MRA, then again for the duplicate REQ");
            assertEquals(1, o.duplicates(CmAttributes.REQ));
            assertEquals(1, o.events(Event.ESTABLISHED));
        });
        seed("req-rep-mra-rtu", script().send(REQ).send(MRA).send(RTU), o ->
        {
            assertEquals(1, o.rx(CmAttributes.MRA));
            assertEquals(0, o.drops(Drop.BAD_STATE));
            assertEquals(1, o.events(Event.ESTABLISHED));
        });
        seed("req-rep-rej", script().send(REQ).send(REJ).toNextTimer(), o ->
        {
            assertEquals(1, o.events(Event.REJ));
            assertEquals(1, o.events(Event.TIMEWAIT_EXIT), "time-wait: the REP was out");
        });
        seed("req-rep-timeout", script().send(REQ).toNextTimer().toNextTimer().toNextTimer(), o ->
        {
            assertEquals(3, o.tx(CmAttributes.REP), "the REP and two retries");
            assertEquals(1, o.events(Event.TIMEOUT));
        });
        seed("req-rtu-duplicate-req", script().send(REQ).send(RTU).send(REQ).set(MadMaker.TID, 1)
            .set(MadMaker.PEER_ID, 1).set(MadMaker.PEER_ID, 1), o ->
        {
            assertEquals(1, o.duplicates(CmAttributes.REQ));
            assertEquals(1, o.events(Event.REQ), "no second connection");
        });
        seed("req-rtu-stale-qp", script().send(REQ).send(RTU).send(REQ), o ->
        {
            assertEquals(1, o.events(Event.REQ), "the second REQ, from a connected QP, is refused");
            assertEquals(0, o.duplicates(CmAttributes.REQ));
        });
        seed("req-transport-rd", script().send(REQ).set(MadMaker.TRANSPORT, 2),
            o -> assertEquals(1, o.drops(Drop.INVALID)));
        seed("req-mtu-7", script().send(REQ).set(MadMaker.MTU, 4), o -> assertEquals(1, o.drops(Drop.INVALID)));
        seed("req-rtu-dreq-wrong-qpn", script().send(REQ).send(RTU).send(DREQ).set(MadMaker.CM_QPN, 1),
            o -> assertEquals(1, o.drops(Drop.BAD_QPN)));
        seed("req-rtu-lap", script().send(REQ).send(RTU).send(LAP), o -> assertEquals(1, o.tx(CmAttributes.APR)));
        seed("req-consumer-destroys", script().send(REQ).set(FuzzConsumer.ON_REQ, 4), o ->
        {
            assertEquals(1, o.tx(CmAttributes.REJ));
            assertEquals(0, o.tx(CmAttributes.REP));
        });
        seed("req-no-handler-dreq", script().send(REQ).set(FuzzConsumer.ON_REQ, 3).op(OP_ACT).set(ACTION, 3)
            .send(RTU).send(DREQ), o ->
        {
            assertEquals(0, o.events(Event.DREQ), "nobody to tell: the CM answers");
            assertEquals(1, o.tx(CmAttributes.DREP));
        });
        seed("req-rtu-consumer-disconnects", script().send(REQ).send(RTU).set(FuzzConsumer.ON_ESTABLISHED, 1)
            .send(DREP), o ->
        {
            assertEquals(1, o.events(Event.DREP));
            assertEquals(0, o.duplicates(CmAttributes.DREP));
        });
    }

    @Test
    void activeConnections() throws IOException
    {
        seed("connect-rep-rtu-dreq", script().op(OP_CONNECT).send(REP).send(DREQ), o ->
        {
            assertEquals(1, o.events(Event.REP));
            assertEquals(1, o.events(Event.ESTABLISHED));
            assertEquals(1, o.events(Event.DREQ));
        });
        seed("connect-mra-rep-duplicate", script().op(OP_CONNECT).send(MRA).send(REP).op(OP_REPEAT), o ->
        {
            assertEquals(1, o.rx(CmAttributes.MRA));
            assertEquals(1, o.duplicates(CmAttributes.REP));
            assertEquals(2, o.tx(CmAttributes.RTU), "the RTU, then again for the duplicate REP");
        });
        seed("connect-rej", script().op(OP_CONNECT).send(REJ), o -> assertEquals(1, o.events(Event.REJ)));
        seed("connect-timeout", script().op(OP_CONNECT).toNextTimer().toNextTimer().toNextTimer(), o ->
        {
            assertEquals(2, o.counters[CmCounters.Group.CM_TX_RETRIES.ordinal() * CmCounters.TYPES]);
            assertEquals(1, o.events(Event.TIMEOUT));
        });
        seed("connect-uc-ipv6", script().op(OP_CONNECT).set(CONNECT, 1).set(CmFuzzer.IPV6, 1).send(REP), o ->
            assertEquals(1, o.events(Event.ESTABLISHED)));
        seed("connect-disconnect-drep", script().op(OP_CONNECT).send(REP).op(OP_ACT).set(CONNECTION, 0)
            .set(ACTION, 1).send(DREP).toNextTimer(), o ->
        {
            assertEquals(1, o.events(Event.DREP));
            assertEquals(1, o.events(Event.TIMEWAIT_EXIT));
        });
        seed("connect-sidr", script().op(OP_CONNECT).set(CONNECT, 2).send(SIDR_REP), o ->
            assertEquals(1, o.events(Event.SIDR_REP)));
        seed("sidr-req-answered", script().send(SIDR_REQ), o -> assertEquals(1, o.tx(CmAttributes.SIDR_REP)));
        seed("sidr-req-duplicate", script().send(SIDR_REQ).set(FuzzConsumer.ON_SIDR_REQ, 2).op(OP_REPEAT), o ->
            assertEquals(1, o.duplicates(CmAttributes.SIDR_REQ)));
        seed("sidr-req-unknown-service", script().send(SIDR_REQ).set(MadMaker.SERVICE, 2), o ->
        {
            assertEquals(0, o.events(Event.SIDR_REQ));
            assertEquals(1, o.tx(CmAttributes.SIDR_REP), "status unsupported");
        });
    }

    /** Every input ends with a Get(ClassPortInfo), counted as a non-Send MAD: one UNKNOWN_ATTRIBUTE more. */
    @Test
    void strayAndBrokenMads() throws IOException
    {
        seed("unknown-comm-ids", script().send(REP).set(MadMaker.CM_ID, 3).send(DREQ).set(MadMaker.CM_ID, 3)
            .send(RTU).set(MadMaker.CM_ID, 3).send(MRA).set(MadMaker.CM_ID, 3).send(REJ).set(MadMaker.CM_ID, 3)
            .send(DREP).set(MadMaker.CM_ID, 3).send(SIDR_REP).set(MadMaker.CM_ID, 3).send(LAP)
            .set(MadMaker.CM_ID, 3), o ->
        {
            assertEquals(8, o.drops(Drop.UNKNOWN_COMM_ID));
            assertEquals(1, o.tx(CmAttributes.REJ), "a REP for nobody: REJ 6");
            assertEquals(1, o.tx(CmAttributes.DREP), "a DREQ for nobody: a DREP anyway");
        });
        seed("apr-never-asked", script().send(REQ).send(RTU).send(APR), o -> assertEquals(1, o.drops(Drop.BAD_STATE)));
        seed("get-class-port-info", script().send(MadMaker.KIND_METHOD),
            o -> assertEquals(2, o.drops(Drop.UNKNOWN_ATTRIBUTE), "answered, not received as a CM message"));
        seed("get-req", script().send(MadMaker.KIND_METHOD).set(MadMaker.VALUE, 1),
            o -> assertEquals(2, o.drops(Drop.UNKNOWN_ATTRIBUTE)));
        seed("set", script().send(MadMaker.KIND_METHOD).set(MadMaker.METHOD, 1),
            o -> assertEquals(2, o.drops(Drop.UNKNOWN_ATTRIBUTE)));
        seed("get-class-version-0", script().send(MadMaker.KIND_METHOD).set(MadMaker.HEADER, 10),
            o -> assertEquals(1, o.drops(Drop.BAD_VERSION)));
        seed("attribute-0x33", script().send(MadMaker.KIND_ATTRIBUTE).set(MadMaker.VALUE, 0x33),
            o -> assertEquals(2, o.drops(Drop.UNKNOWN_ATTRIBUTE)));
        seed("short-and-long", script().send(REQ).set(MadMaker.LENGTH, 7).set(MadMaker.LENGTH, 100).send(REQ)
            .set(MadMaker.LENGTH, 7).set(MadMaker.LENGTH, 300).send(RTU).set(MadMaker.LENGTH, 7), o ->
        {
            assertEquals(2, o.drops(Drop.SHORT));
            assertEquals(1, o.drops(Drop.RECV_ERROR));
        });
        seed("req-byte-flips", script().send(REQ).set(MadMaker.MUTATIONS, 7).set(MadMaker.MUTATIONS, 40)
            .set(MadMaker.MUTATIONS, 0x5A).set(MadMaker.MUTATIONS, 100).set(MadMaker.MUTATIONS, 0x7F)
            .set(MadMaker.MUTATIONS, 200).set(MadMaker.MUTATIONS, 1), o ->
            assertEquals(1, o.rx(CmAttributes.REQ)));
        assertTrue(Arrays.stream(new int[]{REQ, MRA, REJ, REP, RTU, DREQ, DREP, SIDR_REQ, SIDR_REP, LAP, APR})
            .allMatch(k -> CmAttributes.REQ + k == MadMaker.KINDS[k]), "KIND values are MadMaker.KINDS indexes");
    }
}
