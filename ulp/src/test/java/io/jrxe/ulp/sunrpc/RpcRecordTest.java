package io.jrxe.ulp.sunrpc;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** RFC 5531 §11 record marking: fragments written and reassembled. */
class RpcRecordTest
{
    private static byte[] bytes(final int... values)
    {
        final byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++)
        {
            b[i] = (byte)values[i];
        }
        return b;
    }

    @Test
    void writerCutsARecordIntoMarkedFragments() throws IOException
    {
        final RpcRecordWriter writer = new RpcRecordWriter(16, 4);
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        writer.begin(out, 10);
        writer.put(new UnsafeBuffer(bytes(1, 2, 3, 4, 5, 6)), 0, 6);
        writer.putZeros(2);
        writer.put(new UnsafeBuffer(bytes(9, 10)), 0, 2);
        writer.end();
        // 4 + 4 + last 2: marks 0x00000004, 0x00000004, 0x80000002
        assertArrayEquals(bytes(0, 0, 0, 4, 1, 2, 3, 4, 0, 0, 0, 4, 5, 6, 0, 0, 0x80, 0, 0, 2, 9, 10),
            out.toByteArray());
    }

    @Test
    void writerSendsOneFragmentByDefaultAndAnEmptyRecordToo() throws IOException
    {
        final RpcRecordWriter writer = new RpcRecordWriter(8, RpcRecordWriter.MAX_FRAGMENT);
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        writer.begin(out, 12);
        writer.put(new UnsafeBuffer(bytes(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)), 0, 12);
        writer.end();
        writer.begin(out, 0);
        writer.end();
        assertArrayEquals(bytes(0x80, 0, 0, 12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0x80, 0, 0, 0),
            out.toByteArray());
    }

    @Test
    void readerJoinsFragmentsIntoOneRecord() throws IOException
    {
        final byte[] stream = bytes(0, 0, 0, 3, 1, 2, 3, 0, 0, 0, 0, 0x80, 0, 0, 2, 4, 5, 0x80, 0, 0, 1, 6);
        final RpcRecordReader reader = new RpcRecordReader(1, 100);
        final InputStream in = new ByteArrayInputStream(stream);
        assertTrue(reader.read(in));
        assertEquals(5, reader.length());
        assertArrayEquals(bytes(1, 2, 3, 4, 5), java.util.Arrays.copyOf(reader.array(), 5));
        assertTrue(reader.read(in));
        assertEquals(1, reader.length());
        assertEquals(6, reader.array()[0]);
        assertThrows(EOFException.class, () -> reader.read(in));
    }

    @Test
    void readerResumesAfterATimeoutAnywhereInARecord() throws IOException
    {
        final byte[] stream = bytes(0, 0, 0, 2, 7, 8, 0x80, 0, 0, 3, 9, 10, 11);
        final RpcRecordReader reader = new RpcRecordReader(4, 100);
        final TrickleStream in = new TrickleStream(stream);
        int timeouts = 0;
        while (true)
        {
            try
            {
                if (reader.read(in))
                {
                    break;
                }
            }
            catch (final SocketTimeoutException ex)
            {
                timeouts++;
            }
        }
        assertEquals(stream.length, timeouts, "a timeout before every byte");
        assertEquals(5, reader.length());
        assertArrayEquals(bytes(7, 8, 9, 10, 11), java.util.Arrays.copyOf(reader.array(), 5));
    }

    @Test
    void readerRefusesARecordLongerThanAllowed()
    {
        final byte[] stream = bytes(0, 0, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8, 0x80, 0, 0, 8);
        final RpcRecordReader reader = new RpcRecordReader(4, 12);
        final IOException ex = assertThrows(IOException.class, () -> reader.read(new ByteArrayInputStream(stream)));
        assertTrue(ex.getMessage().contains("more than 12"), ex.getMessage());
    }

    @Test
    void readerReportsAConnectionClosedInsideARecord()
    {
        final RpcRecordReader reader = new RpcRecordReader(4, 100);
        final EOFException ex = assertThrows(EOFException.class,
            () -> reader.read(new ByteArrayInputStream(bytes(0x80, 0, 0, 4, 1, 2))));
        assertTrue(ex.getMessage().contains("inside a record"), ex.getMessage());
    }

    @Test
    void exchangeHandsTheRecordOverWithoutCopying() throws IOException
    {
        final RpcRecordReader reader = new RpcRecordReader(4, 100);
        final InputStream in = new ByteArrayInputStream(bytes(0x80, 0, 0, 2, 1, 2, 0x80, 0, 0, 1, 3));
        reader.read(in);
        final byte[] spare = new byte[1];
        final byte[] first = reader.exchange(spare);
        assertEquals(1, first[0]);
        assertEquals(2, first[1]);
        reader.read(in);
        assertEquals(3, reader.array()[0]);
        assertEquals(1, first[0], "the handed-over array is no longer written");
    }

    /** Throws a timeout before each byte, then gives one byte. */
    private static final class TrickleStream extends InputStream
    {
        private final byte[] data;
        private int at;
        private boolean owe = true;

        TrickleStream(final byte[] data)
        {
            this.data = data;
        }

        @Override
        public int read() throws IOException
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public int read(final byte[] b, final int off, final int len) throws IOException
        {
            if (at == data.length)
            {
                return -1;
            }
            if (owe)
            {
                owe = false;
                throw new SocketTimeoutException("tick");
            }
            owe = true;
            b[off] = data[at++];
            return 1;
        }
    }
}
