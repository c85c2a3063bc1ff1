package io.jrxe.ulp.cm.mad;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.jrxe.ulp.cm.CmCounters;
import io.jrxe.ulp.fuzz.GuardedBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.invoke.MethodHandle;

/**
 * Coverage-guided fuzz target (Jazzer) for the CM's wire formats: any 256 bytes read as a MAD header and as the
 * flyweight of its attribute (REQ, MRA, REJ, REP, RTU, DREQ, DREP, SIDR_REQ, SIDR_REP, LAP, APR, ClassPortInfo; an
 * attribute ID of none picks one by its value), the PrivateData of a REQ or a SIDR_REQ as rdma_cm's
 * {@link CmaHeader}, and the codes the CM interprets (attribute names and counter indexes, REJ reasons, SIDR
 * statuses). The stateful side, the same MADs
 * through a {@code CmService}, is {@code CmReceiveFuzzTest}. Without {@code JAZZER_FUZZ=1} the target replays its
 * corpus ({@code src/test/resources/io/jrxe/ulp/cm/mad/MadDecodeFuzzTestInputs/decode/}, seeds written by
 * {@code MadDecodeSeedsTest}). To fuzz:
 * <pre>
 *   JAZZER_FUZZ=1 JAZZER_INSTRUMENT='io.jrxe.ulp.**' mvn -o test -pl ulp -Dtest='MadDecodeFuzzTest#decode'
 * </pre>
 * Invariants, each an {@link AssertionError} when broken:
 * <ul>
 *   <li>no accessor throws, nor reads a byte outside the MAD (a {@link GuardedBuffer} around it);</li>
 *   <li>a field a message does not have reads as 0;</li>
 *   <li>the MAD re-encoded from the values read equals the input with the bits no field defines cleared, and
 *       reads back the same values (no getter reads a bit its setter does not write); see {@link MadLayout}, which
 *       also refuses, once, two fields of a message sharing a bit;</li>
 *   <li>a {@link CmaHeader} is valid exactly when its versions are, re-encodes to its own bytes, and its IPv4
 *       views are the last four bytes of the 16-byte fields;</li>
 *   <li>every code maps to a name or "unknown" without an exception, and a counter index only for REQ..APR.</li>
 * </ul>
 */
class MadDecodeFuzzTest
{
    /** Room before and after the MAD, as the 40-byte network header area of a receive slot and more. */
    private static final int GUARD = 64;

    /** Index of ClassPortInfo's view, after the eleven messages in attribute order. */
    private static final int CLASS_PORT_INFO_VIEW = 11;

    /** Reused across runs: a target is called millions of times on one thread. */
    private static final Target TARGET = new Target();

    @FuzzTest(maxDuration = "10m")
    void decode(final byte[] data)
    {
        TARGET.decode(data);
    }

    /** One view of the MAD: a flyweight and its layout. */
    private static final class View
    {
        final CmMessage<?> message;
        final MadLayout layout;
        final long[] read;
        final byte[][] bytes;
        /** The bits of the header's and this message's fields, eight bytes a long (read as getLong reads). */
        final long[] mask = new long[MadHeader.MAD_SIZE / 8];

        View(final CmMessage<?> message, final MadLayout header)
        {
            this.message = message;
            this.layout = new MadLayout(message, (m, b) -> ((CmMessage<?>)m).wrap(b, 0));
            this.read = new long[layout.scalars().length];
            final UnsafeBuffer bits = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
            for (int i = 0; i < MadHeader.MAD_SIZE; i++)
            {
                bits.putByte(i, (byte)(layout.mask()[i] | header.mask()[i]));
            }
            for (int i = 0; i < mask.length; i++)
            {
                mask[i] = bits.getLong(8 * i);
            }
            this.bytes = new byte[layout.bytes().length][];
            for (int i = 0; i < bytes.length; i++)
            {
                bytes[i] = new byte[layout.bytes()[i].max];
            }
        }
    }

    /** The state of the target. */
    static final class Target
    {
        private final GuardedBuffer in = new GuardedBuffer(GUARD + MadHeader.MAD_SIZE + GUARD);
        private final UnsafeBuffer out = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
        private final MadHeader header = new MadHeader();
        private final MadLayout headerLayout = new MadLayout(header, (m, b) -> ((MadHeader)m).wrap(b, 0));
        private final long[] headerRead = new long[headerLayout.scalars().length];
        private final View[] views = {new View(new ReqMessage(), headerLayout),
            new View(new MraMessage(), headerLayout), new View(new RejMessage(), headerLayout),
            new View(new RepMessage(), headerLayout), new View(new RtuMessage(), headerLayout),
            new View(new DreqMessage(), headerLayout), new View(new DrepMessage(), headerLayout),
            new View(new SidrReqMessage(), headerLayout), new View(new SidrRepMessage(), headerLayout),
            new View(new LapMessage(), headerLayout), new View(new AprMessage(), headerLayout),
            new View(new ClassPortInfo(), headerLayout)};
        private final CmaHeader cma = new CmaHeader();
        private final UnsafeBuffer cmaCopy = new UnsafeBuffer(new byte[CmaHeader.LENGTH]);

        Target()
        {
            // the fields found by reflection, counted: a change of accessors (or of how reflection sees them, as
            // with the bridges of ReqMessage's inherited fields) must show here, not silently shrink the check
            final int[] expected = {50, 4, 5, 14, 2, 3, 2, 5, 8, 3, 4, 7};
            check(9 == headerLayout.scalars().length, "MadHeader fields: " + headerLayout.scalars().length);
            for (int i = 0; i < views.length; i++)
            {
                check(views[i].layout.attributeId() == (i < CLASS_PORT_INFO_VIEW ? CmAttributes.REQ + i :
                    CmAttributes.CLASS_PORT_INFO), "views are in attribute order");
                check(expected[i] == views[i].layout.scalars().length, views[i].layout.name() + " fields: " +
                    views[i].layout.scalars().length);
                int privateData = -1;
                for (final MadLayout.Bytes b : views[i].layout.bytes())
                {
                    privateData = "PrivateData".equals(b.name) ? b.max : privateData;
                }
                check(views[i].message.privateDataLength() == privateData, views[i].layout.name() +
                    ": PrivateData takes " + privateData + " bytes");
            }
            // the header's own fields are all of its 24 bytes but the reserved 16 bits at offset 18
            for (int i = 0; i < MadHeader.HEADER_LENGTH; i++)
            {
                check((18 == i || 19 == i ? 0 : 0xFF) == (headerLayout.mask()[i] & 0xFF),
                    "MadHeader mask byte " + i);
            }
        }

        void decode(final byte[] data)
        {
            final int n = Math.min(data.length, MadHeader.MAD_SIZE);
            in.guard(0, in.capacity());
            in.setMemory(0, in.capacity(), (byte)0xA5); // guard bytes that would parse as garbage if read
            in.setMemory(GUARD, MadHeader.MAD_SIZE, (byte)0);
            in.putBytes(GUARD, data, 0, n);
            in.guard(GUARD, GUARD + MadHeader.MAD_SIZE);
            try
            {
                header.wrap(in, GUARD);
                read(headerLayout, header, headerRead);
                // one flyweight per input, the attribute's (as the CM picks it): coverage then tells the fuzzer
                // which attribute IDs reach which flyweight; an ID of none picks one by its value
                final int attributeId = header.attributeId();
                final int type = CmCounters.typeIndex(attributeId);
                final View v = views[type >= 0 ? type : CmAttributes.CLASS_PORT_INFO == attributeId ?
                    CLASS_PORT_INFO_VIEW : attributeId % views.length];
                view(v);
                if (CmAttributes.REQ == v.layout.attributeId() || CmAttributes.SIDR_REQ == v.layout.attributeId())
                {
                    cmaHeader(v.message);
                }
                codes();
            }
            catch (final RuntimeException ex)
            {
                throw new AssertionError("a flyweight threw " + ex, ex);
            }
        }

        private void view(final View v)
        {
            final CmMessage<?> m = v.message;
            m.wrap(in, GUARD);
            read(v.layout, m, v.read);
            final MadLayout.Bytes[] byteFields = v.layout.bytes();
            for (int i = 0; i < byteFields.length; i++)
            {
                invoke(byteFields[i].get, m, v.bytes[i], byteFields[i].max);
            }
            if (m.header().transactionId() != header.transactionId())
            {
                throw new AssertionError(v.layout.name() + ": its header");
            }
            if (m.privateDataIndex() + m.privateDataLength() > GUARD + MadHeader.MAD_SIZE ||
                m.privateDataIndex() < GUARD + MadHeader.DATA_OFFSET)
            {
                throw new AssertionError(v.layout.name() + ": PrivateData outside");
            }

            // re-encode: the header, the byte fields (their puts may write a length), then the scalars
            out.setMemory(0, MadHeader.MAD_SIZE, (byte)0);
            header.wrap(out, 0);
            write(headerLayout, header, headerRead);
            m.wrap(out, 0);
            for (int i = 0; i < byteFields.length; i++)
            {
                invoke(byteFields[i].put, m, v.bytes[i], byteFields[i].max);
            }
            write(v.layout, m, v.read);
            final long[] mask = v.mask;
            in.guard(0, in.capacity());
            for (int i = 0; i < mask.length; i++)
            {
                final long expected = in.getLong(GUARD + 8 * i) & mask[i];
                if (expected != out.getLong(8 * i))
                {
                    throw new AssertionError(v.layout.name() + " re-encoded bytes " + 8 * i + ".." + (8 * i + 7) +
                        " are " + Long.toHexString(out.getLong(8 * i)) + ", not " + Long.toHexString(expected));
                }
            }
            in.guard(GUARD, GUARD + MadHeader.MAD_SIZE);
            final MadLayout.Scalar[] scalars = v.layout.scalars();
            for (int i = 0; i < scalars.length; i++)
            {
                if (get(scalars[i], m) != v.read[i])
                {
                    throw new AssertionError(v.layout.name() + "." + scalars[i].name +
                        " reads a bit its setter does not write");
                }
            }
            header.wrap(in, GUARD);
        }

        private static void read(final MadLayout layout, final Object flyweight, final long[] values)
        {
            final MadLayout.Scalar[] scalars = layout.scalars();
            for (int i = 0; i < scalars.length; i++)
            {
                values[i] = get(scalars[i], flyweight);
                if (!scalars[i].present && 0 != values[i])
                {
                    throw new AssertionError(layout.name() + "." + scalars[i].name +
                        " is not in the message but reads " + values[i]);
                }
            }
        }

        private static void write(final MadLayout layout, final Object flyweight, final long[] values)
        {
            final MadLayout.Scalar[] scalars = layout.scalars();
            for (int i = 0; i < scalars.length; i++)
            {
                if (scalars[i].present)
                {
                    try
                    {
                        scalars[i].set.invokeExact(flyweight, values[i]);
                    }
                    catch (final RuntimeException | Error ex)
                    {
                        throw ex;
                    }
                    catch (final Throwable ex)
                    {
                        throw new AssertionError(ex);
                    }
                }
            }
        }

        private static long get(final MadLayout.Scalar scalar, final Object flyweight)
        {
            try
            {
                return (long)scalar.get.invokeExact(flyweight);
            }
            catch (final RuntimeException | Error ex)
            {
                throw ex;
            }
            catch (final Throwable ex)
            {
                throw new AssertionError(ex);
            }
        }

        private static void invoke(final MethodHandle h, final Object m, final byte[] b,
            final int length)
        {
            try
            {
                h.invokeExact(m, b, 0, length);
            }
            catch (final RuntimeException | Error ex)
            {
                throw ex;
            }
            catch (final Throwable ex)
            {
                throw new AssertionError(ex);
            }
        }

        /** rdma_cm's header at the start of the PrivateData of a REQ or SIDR_REQ (cma.c reads it from any). */
        private void cmaHeader(final CmMessage<?> m)
        {
            m.wrap(in, GUARD);
            cma.wrap(in, m.privateDataIndex());
            final int cmaVersion = cma.cmaVersion();
            final int ipVersion = cma.ipVersion();
            final boolean valid = cma.isValid();
            if (valid != (CmaHeader.CMA_VERSION == cmaVersion && (4 == ipVersion || 6 == ipVersion)))
            {
                throw new AssertionError("isValid for versions " + cmaVersion + "/" + ipVersion);
            }
            check(cma.srcIpv4() == (int)cma.srcIpv6Lo() && cma.dstIpv4() == (int)cma.dstIpv6Lo(),
                "an IPv4 address is not the last 4 bytes of its field");
            final int port = cma.port();
            final long srcHi = cma.srcIpv6Hi();
            final long srcLo = cma.srcIpv6Lo();
            final long dstHi = cma.dstIpv6Hi();
            final long dstLo = cma.dstIpv6Lo();
            final int byte1 = in.getByte(m.privateDataIndex() + 1) & 0xFF;
            cma.wrap(cmaCopy, 0);
            cmaCopy.setMemory(0, CmaHeader.LENGTH, (byte)0);
            cmaCopy.putByte(1, (byte)(byte1 & 0x0F)); // the reserved low half of byte 1 stays as it was
            cma.cmaVersion(cmaVersion).port(port).srcIpv6(srcHi, srcLo).dstIpv6(dstHi, dstLo);
            if (4 == ipVersion || 6 == ipVersion)
            {
                cma.ipVersion(ipVersion);
            }
            else
            {
                cmaCopy.putByte(1, (byte)byte1);
                try
                {
                    cma.ipVersion(ipVersion);
                    throw new AssertionError("ipVersion(" + ipVersion + ") was taken");
                }
                catch (final IllegalArgumentException expected)
                {
                    check(byte1 == (cmaCopy.getByte(1) & 0xFF), "a refused ipVersion changed the byte");
                }
            }
            for (int i = 0; i < CmaHeader.LENGTH; i++)
            {
                if (cmaCopy.getByte(i) != in.getByte(m.privateDataIndex() + i))
                {
                    throw new AssertionError("cma_hdr re-encoded byte " + i);
                }
            }
            cma.srcIpv4(cma.srcIpv4()).dstIpv4(cma.dstIpv4());
            check(0 == cma.srcIpv6Hi() && 0 == cma.srcIpv6Lo() >>> 32 && (int)srcLo == cma.srcIpv4() &&
                0 == cma.dstIpv6Hi() && 0 == cma.dstIpv6Lo() >>> 32 && (int)dstLo == cma.dstIpv4(),
                "an IPv4 address written is not ::a.b.c.d");
        }

        /** What the CM makes of the codes: names and counter slots, never an exception. */
        private void codes()
        {
            final int attributeId = header.attributeId();
            final int type = CmCounters.typeIndex(attributeId);
            if (type != (attributeId >= CmAttributes.REQ && attributeId <= CmAttributes.APR ?
                attributeId - CmAttributes.REQ : -1))
            {
                throw new AssertionError("typeIndex of " + attributeId);
            }
            final String name = CmAttributes.name(attributeId);
            if (name.startsWith("0x") != (type < 0 && CmAttributes.CLASS_PORT_INFO != attributeId))
            {
                throw new AssertionError("name of attribute " + attributeId + ": " + name);
            }
            if (type >= 0 && !name.equalsIgnoreCase(CmCounters.typeName(type)))
            {
                throw new AssertionError(name + " counted as " + CmCounters.typeName(type));
            }
            final RejMessage rej = (RejMessage)views[2].message;
            rej.wrap(in, GUARD);
            final int reason = rej.reason();
            final RejReason r = RejReason.of(reason);
            if (null != r && r.code() != reason)
            {
                throw new AssertionError("RejReason.of(" + reason + ")");
            }
            check(null != RejReason.describe(reason), "describe");
            final SidrRepMessage sidrRep = (SidrRepMessage)views[8].message;
            sidrRep.wrap(in, GUARD);
            check(null != SidrStatus.name(sidrRep.status()), "SidrStatus.name");
        }

        private static void check(final boolean ok, final String what)
        {
            if (!ok)
            {
                throw new AssertionError(what);
            }
        }
    }
}
