package io.jrxe.rxe.proto;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

/**
 * ICRC cost per packet for the three kinds of packet memory {@link Icrc} handles: a heap array (CRC32 over the
 * array), a direct ByteBuffer (intrinsic over a re-pointed view) and raw off-heap memory without a ByteBuffer
 * (copied through a reusable array). {@code plainCrc32} is the floor: zlib CRC over the same number of bytes in a
 * heap array with no pseudo-header work.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class IcrcBenchmark
{
    /** Packet memory kinds. */
    public enum Memory
    {
        /** UnsafeBuffer over byte[]. */
        HEAP,
        /** UnsafeBuffer over a direct ByteBuffer. */
        DIRECT_BYTE_BUFFER,
        /** UnsafeBuffer over an address only. */
        RAW_ADDRESS
    }

    /** Memory kind under test. */
    @Param({"HEAP", "DIRECT_BYTE_BUFFER", "RAW_ADDRESS"})
    public Memory memory;

    /** RoCE payload bytes after the BTH. */
    @Param({"0", "1024", "4096"})
    public int payload;

    private final Icrc icrc = new Icrc();
    private final CRC32 crc = new CRC32();
    private UnsafeBuffer buffer;
    private ByteBuffer keepAlive;
    private byte[] flat;
    private int ipLength;

    /**
     * Builds one IPv4/UDP/BTH packet with {@link #payload} bytes and a valid ICRC.
     */
    @Setup
    public void setup()
    {
        ipLength = RoceV2.IPV4_HEADER_LENGTH + RoceV2.UDP_HEADER_LENGTH + Bth.LENGTH + payload + Icrc.LENGTH;
        switch (memory)
        {
            case HEAP:
                buffer = new UnsafeBuffer(new byte[ipLength]);
                break;
            case DIRECT_BYTE_BUFFER:
                buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(ipLength));
                break;
            default:
                keepAlive = BufferUtil.allocateDirectAligned(ipLength + 64, 64);
                buffer = new UnsafeBuffer(BufferUtil.address(keepAlive), ipLength);
                break;
        }
        buffer.putByte(0, (byte)0x45);
        buffer.putShort(2, (short)ipLength, RoceV2.NETWORK_ORDER);
        buffer.putByte(8, (byte)64);
        buffer.putByte(9, (byte)RoceV2.IP_PROTO_UDP);
        buffer.putShort(22, (short)RoceV2.UDP_PORT, RoceV2.NETWORK_ORDER);
        new Bth().wrap(buffer, 28).init(Opcode.RC_SEND_ONLY, false, 0, RoceV2.DEFAULT_PKEY, 0x11, true, 1);
        for (int i = 0; i < payload; i++)
        {
            buffer.putByte(40 + i, (byte)i);
        }
        icrc.generate(buffer, 0, ipLength);
        flat = new byte[ipLength];
        buffer.getBytes(0, flat);
    }

    /**
     * Full receive-side check.
     *
     * @return the check result, consumed by JMH
     */
    @Benchmark
    public boolean check()
    {
        return icrc.check(buffer, 0, ipLength);
    }

    /**
     * Plain CRC-32 of the same bytes in a heap array.
     *
     * @return the CRC, consumed by JMH
     */
    @Benchmark
    public long plainCrc32()
    {
        crc.reset();
        crc.update(flat, 0, flat.length);
        return crc.getValue();
    }
}
