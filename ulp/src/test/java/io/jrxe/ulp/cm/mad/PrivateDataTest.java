package io.jrxe.ulp.cm.mad;

import java.util.function.Supplier;
import java.util.stream.Stream;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * PrivateData of every CM message: where it is, how much fits, copies both ways, zero fill, bounds.
 */
class PrivateDataTest
{
    private static final int OFF = 32;
    private static final byte DIRT = (byte)0xEE;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[OFF + MadHeader.MAD_SIZE + OFF]);

    static Stream<Arguments> messages()
    {
        return Stream.of(
            message("REQ", ReqMessage::new, 140, 92),
            message("MRA", MraMessage::new, 10, 222),
            message("REJ", RejMessage::new, 84, 148),
            message("REP", RepMessage::new, 36, 196),
            message("RTU", RtuMessage::new, 8, 224),
            message("DREQ", DreqMessage::new, 12, 220),
            message("DREP", DrepMessage::new, 8, 224),
            message("LAP", LapMessage::new, 64, 168),
            message("APR", AprMessage::new, 84, 148),
            message("SIDR_REQ", SidrReqMessage::new, 16, 216),
            message("SIDR_REP", SidrRepMessage::new, 96, 136));
    }

    private static Arguments message(
        final String name, final Supplier<CmMessage<?>> factory, final int offset, final int length)
    {
        return Arguments.of(Named.of(name, factory), offset, length);
    }

    @ParameterizedTest
    @MethodSource("messages")
    void shouldEndAtTheEndOfTheMad(final Supplier<CmMessage<?>> factory, final int offset, final int length)
    {
        final CmMessage<?> msg = factory.get().wrap(buffer, OFF);
        assertEquals(offset, msg.privateDataOffset());
        assertEquals(length, msg.privateDataLength());
        assertEquals(MadHeader.DATA_LENGTH, offset + length);
        assertEquals(OFF + MadHeader.DATA_OFFSET + offset, msg.privateDataIndex());
    }

    @ParameterizedTest
    @MethodSource("messages")
    void shouldCopyInZeroFillAndCopyOut(final Supplier<CmMessage<?>> factory, final int offset, final int length)
    {
        buffer.setMemory(0, buffer.capacity(), DIRT);
        final CmMessage<?> msg = factory.get().wrap(buffer, OFF);
        final byte[] src = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};

        msg.putPrivateData(src, 2, 5);

        final int start = OFF + MadHeader.DATA_OFFSET + offset;
        assertArrayEquals(new byte[] {2, 3, 4, 5, 6}, TestBytes.copy(buffer, start, 5));
        for (int i = 5; i < length; i++)
        {
            assertEquals(0, buffer.getByte(start + i), "zero fill at " + i);
        }
        assertEquals(DIRT, buffer.getByte(start - 1), "the field before PrivateData");
        assertEquals(DIRT, buffer.getByte(OFF + MadHeader.MAD_SIZE), "after the MAD");

        final byte[] dst = new byte[8];
        msg.getPrivateData(dst, 1, 6);
        assertArrayEquals(new byte[] {0, 2, 3, 4, 5, 6, 0, 0}, dst);
    }

    @ParameterizedTest
    @MethodSource("messages")
    void shouldCopyDirectBuffersBothWays(final Supplier<CmMessage<?>> factory, final int offset, final int length)
    {
        buffer.setMemory(0, buffer.capacity(), DIRT);
        final CmMessage<?> msg = factory.get().wrap(buffer, OFF);
        final UnsafeBuffer src = new UnsafeBuffer(new byte[length + 4]);
        for (int i = 0; i < src.capacity(); i++)
        {
            src.putByte(i, (byte)(i + 1));
        }

        msg.putPrivateData(src, 4, length);
        final UnsafeBuffer dst = new UnsafeBuffer(new byte[length]);
        msg.getPrivateData(dst, 0, length);

        assertArrayEquals(TestBytes.copy(src, 4, length), dst.byteArray());
        assertEquals(DIRT, buffer.getByte(OFF + MadHeader.MAD_SIZE), "a full copy stops at the end of the MAD");

        msg.putPrivateData(src, 0, 0);
        msg.getPrivateData(dst, 0, length);
        assertArrayEquals(new byte[length], dst.byteArray(), "length 0 clears the field");
    }

    @ParameterizedTest
    @MethodSource("messages")
    void shouldRefuseLengthsOutsideTheField(final Supplier<CmMessage<?>> factory, final int offset, final int length)
    {
        final CmMessage<?> msg = factory.get().wrap(buffer, OFF);
        final byte[] big = new byte[length + 1];
        final UnsafeBuffer bigBuffer = new UnsafeBuffer(big);

        assertThrows(IllegalArgumentException.class, () -> msg.putPrivateData(big, 0, length + 1));
        assertThrows(IllegalArgumentException.class, () -> msg.getPrivateData(big, 0, length + 1));
        assertThrows(IllegalArgumentException.class, () -> msg.putPrivateData(bigBuffer, 0, length + 1));
        assertThrows(IllegalArgumentException.class, () -> msg.getPrivateData(bigBuffer, 0, length + 1));
        assertThrows(IllegalArgumentException.class, () -> msg.putPrivateData(big, 0, -1));
        assertEquals(0, buffer.getByte(OFF + MadHeader.MAD_SIZE), "nothing written past the MAD");
    }
}
