package io.jrxe.rxe.proto;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32;

/**
 * Not a test: a microbenchmark of the receive side's ICRC check and payload copy into an MR, per packet of
 * {@code payload} bytes taken from 256 MiB of packets (cold, as frames the device wrote from another core), into a
 * target of {@code -DmrBytes} (default 64 MiB; perf's MR is 128 KiB), in the orders the receive path could use:
 * <pre>
 *   crc+copy   ICRC over the packet (Icrc.compute, masked in place), then the payload copied into the MR:
 *              the Receiver -> Responder order, one packet at a time
 *   fused-1k   per 1 KiB chunk: CRC the chunk, copy it (unmasked CRC; places bytes before the ICRC is known)
 *   crc-only, copy-only (cold source)
 * </pre>
 * Run: {@code java -cp rxe-engine/target/test-classes:rxe-engine/target/classes:AGRONA_JAR
 * -DmrBytes=131072 io.jrxe.rxe.proto.RxPassBench 4096}; rounds 3..7 are printed.
 */
public final class RxPassBench
{
    private static final int IP = 22; // 14 Ethernet + 8 so the in-place prefix fits

    private RxPassBench()
    {
    }

    public static void main(final String[] args)
    {
        final int payload = Integer.parseInt(args[0]);
        final int slot = (IP + 20 + 8 + 12 + 16 + payload + 4 + 63) & -64;
        final int packets = (256 << 20) / slot;            // 256 MiB of packets
        final UnsafeBuffer region = new UnsafeBuffer(BufferUtil.allocateDirectAligned(packets * slot, 4096));
        final UnsafeBuffer mr = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64 << 20, 4096)); // 64 MiB target
        final int ipLength = 20 + 8 + 12 + 16 + payload + 4;
        for (int p = 0; p < packets; p++)
        {
            final int at = p * slot + IP;
            region.putByte(at, (byte)0x45);
            region.putShort(at + 2, (short)ipLength, ByteOrder.BIG_ENDIAN);
            region.putByte(at + 9, (byte)17);
            for (int i = 28; i < ipLength; i += 8)
            {
                region.putLong(at + i, p * 31L + i);
            }
        }
        final Icrc icrc = new Icrc();
        final ByteBuffer regionView = region.byteBuffer().duplicate();
        final CRC32 crc = new CRC32();
        final int mrSlots = Integer.getInteger("mrBytes", 64 << 20) / payload;
        long sink = 0;
        for (int round = 0; round < 7; round++)
        {
            for (int mode = 0; mode < 4; mode++)
            {
                final long t0 = System.nanoTime();
                for (int p = 0; p < packets; p++)
                {
                    final int at = p * slot + IP;
                    final int pay = at + 56;
                    final int dst = (p % mrSlots) * payload;
                    switch (mode)
                    {
                        case 0: // crc then copy
                            sink += icrc.compute(region, at, ipLength);
                            mr.putBytes(dst, region, pay, payload);
                            break;
                        case 1: // fused by 1 KiB chunks: headers, then per chunk CRC + copy
                            crc.reset();
                            regionView.clear().position(at).limit(pay);
                            crc.update(regionView);
                            for (int c = 0; c < payload; c += 1024)
                            {
                                final int n = Math.min(1024, payload - c);
                                regionView.clear().position(pay + c).limit(pay + c + n);
                                crc.update(regionView);
                                mr.putBytes(dst + c, region, pay + c, n);
                            }
                            sink += crc.getValue();
                            break;
                        case 2: // crc only
                            sink += icrc.compute(region, at, ipLength);
                            break;
                        default: // copy only, cold source
                            mr.putBytes(dst, region, pay, payload);
                            break;
                    }
                }
                final long ns = System.nanoTime() - t0;
                if (round >= 2)
                {
                    System.out.printf("payload %d %-10s %7.1f ns/packet%n", payload,
                        new String[] {"crc+copy", "fused-1k", "crc-only", "copy-only"}[mode], (double)ns / packets);
                }
            }
        }
        System.out.println("sink " + (sink & 1));
    }
}
