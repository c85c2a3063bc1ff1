package io.jrxe.rxe.proto;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32;

/**
 * Invariant CRC of a RoCEv2 packet (IBA Annex A17.3.3, rxe_icrc.c): CRC-32 (the Ethernet/zlib polynomial) over
 * <pre>
 *  +-----------+----------------------------+------------------+------------------+-------------------------+
 *  | 8 x 0xFF  | IP header, variant fields  | UDP header,      | BTH, byte 4      | ext headers, payload,   |
 *  | (stands   | as 1s: IPv4 TOS, TTL,      | checksum = 0xFFFF| (FECN/BECN/resv) | pad                     |
 *  |  for LRH) | checksum; IPv6 traffic     |                  | = 0xFF           |                         |
 *  |           | class, flow label, hop lim |                  |                  |                         |
 *  +-----------+----------------------------+------------------+------------------+-------------------------+
 *  ^ 8 bytes before the IP header (the end of the Ethernet header) stand in for the LRH
 * </pre>
 * The 32-bit result follows the pad little-endian (least significant byte first).
 * <p>
 * In a {@link MutableDirectBuffer} with at least 8 bytes before the IP header (every packet of a packet pool) the
 * variant fields and those 8 bytes are masked in place, the CRC runs in one pass over the contiguous bytes, and
 * everything is restored before returning: one call of the CRC intrinsic instead of two, and no copy, which
 * halves the cost for small packets. The packet must not be read by another thread meanwhile (it is the
 * engine's: not yet handed to the NIC, or already received). Otherwise the pseudo-header is copied into a
 * scratch array, masked there, and the packet is not written.
 * <p>
 * A packet whose payload the NIC gathers from elsewhere (zero-copy transmit: headers in a packet buffer, payload
 * in a registered memory region, pad and ICRC in a trailer) has its ICRC computed by {@link #computeGather} in the
 * same single pass, the CRC continued from the masked headers over the payload where it lies, then the pad:
 * <pre>
 *  packet buffer:  | 8 x 0xFF | IP | UDP | BTH | ext headers |      CRC over these (masked in place),
 *  MR memory:                                                | payload |      then over these, not copied,
 *  (zeros):                                                            | pad |      then the pad: the ICRC
 * </pre>
 * <p>
 * Allocates nothing per packet: the CRC engine, the scratch pseudo-header and, for off-heap memory without a
 * {@link ByteBuffer}, a copy chunk are reused. For a buffer over a direct {@link ByteBuffer} a duplicate view is
 * made once per distinct backing buffer (normally one: the packet pool's region) and then re-pointed, so that
 * {@link CRC32#update(ByteBuffer)} runs the intrinsic straight over packet memory. Not thread safe: one instance
 * per engine thread.
 */
public final class Icrc
{
    /** Length of the ICRC trailer. */
    public static final int LENGTH = 4;
    /** Byte order of the ICRC on the wire. */
    public static final ByteOrder WIRE_ORDER = ByteOrder.LITTLE_ENDIAN;

    private static final int PREFIX_LENGTH = 8;
    private static final int MAX_IP_HEADER_LENGTH = 60;
    private static final int COPY_CHUNK_LENGTH = 2048;
    private static final int MIN_TRANSPORT = RoceV2.UDP_HEADER_LENGTH + Bth.LENGTH + LENGTH;

    private final CRC32 crc = new CRC32();
    private final byte[] pseudoHeader =
        new byte[PREFIX_LENGTH + MAX_IP_HEADER_LENGTH + RoceV2.UDP_HEADER_LENGTH + Bth.LENGTH];
    private final byte[] copyChunk = new byte[COPY_CHUNK_LENGTH];
    private final byte[] zeroPad = new byte[3];
    // what mask() overwrote, for restore(): IPv4 TOS/TTL/checksum (IPv6 class/flow/hop limit), UDP checksum, BTH
    // byte 4 and the 8 bytes before the IP header
    private long savedPrefix;
    private int savedIpWord0;
    private int savedIpWord;
    private short savedUdpChecksum;
    private byte savedBthByte4;
    private ByteBuffer viewSource;
    private ByteBuffer view;

    /**
     * Creates an ICRC engine with its reusable scratch space.
     */
    public Icrc()
    {
        for (int i = 0; i < PREFIX_LENGTH; i++)
        {
            pseudoHeader[i] = (byte)0xFF;
        }
    }

    /**
     * Bytes from the start of the IP header to the end of the ICRC, taken from the IP header's length field, or
     * -1 if the header is not IPv4/IPv6, is too short to hold UDP + BTH + ICRC, or claims more than
     * {@code available} bytes. The Ethernet minimum-frame padding after the IP packet is thereby excluded.
     *
     * @param buffer    holding the packet
     * @param ipOffset  offset of the IP header
     * @param available bytes present from {@code ipOffset} on
     * @return the IP packet length, or -1 if malformed
     */
    public static int ipPacketLength(final DirectBuffer buffer, final int ipOffset, final int available)
    {
        if (available < RoceV2.IPV4_HEADER_LENGTH)
        {
            return -1;
        }
        final int version = (buffer.getByte(ipOffset) & 0xF0) >>> 4;
        final int headerLength;
        final int total;
        if (4 == version)
        {
            headerLength = (buffer.getByte(ipOffset) & 0x0F) * 4;
            total = buffer.getShort(ipOffset + 2, RoceV2.NETWORK_ORDER) & 0xFFFF;
            if (headerLength < RoceV2.IPV4_HEADER_LENGTH)
            {
                return -1;
            }
        }
        else if (6 == version && available >= RoceV2.IPV6_HEADER_LENGTH)
        {
            headerLength = RoceV2.IPV6_HEADER_LENGTH;
            total = RoceV2.IPV6_HEADER_LENGTH + (buffer.getShort(ipOffset + 4, RoceV2.NETWORK_ORDER) & 0xFFFF);
        }
        else
        {
            return -1;
        }
        if (total < headerLength + MIN_TRANSPORT || total > available)
        {
            return -1;
        }
        return total;
    }

    /**
     * Computes the ICRC of the packet whose IP header starts at {@code ipOffset} and which is
     * {@code ipPacketLength} bytes long including its ICRC field (the field's content is not read).
     *
     * @param buffer         holding the packet
     * @param ipOffset       offset of the IPv4 or IPv6 header
     * @param ipPacketLength IP packet length including the 4-byte ICRC, as from {@link #ipPacketLength}
     * @return the CRC value, as zlib's crc32 returns it
     */
    public int compute(final DirectBuffer buffer, final int ipOffset, final int ipPacketLength)
    {
        if (ipOffset >= PREFIX_LENGTH && buffer instanceof MutableDirectBuffer)
        {
            return computeInPlace((MutableDirectBuffer)buffer, ipOffset, ipPacketLength);
        }
        final int ipHeaderLength = 4 == (buffer.getByte(ipOffset) & 0xF0) >>> 4 ?
            (buffer.getByte(ipOffset) & 0x0F) * 4 : RoceV2.IPV6_HEADER_LENGTH;
        final int pseudoLength = ipHeaderLength + RoceV2.UDP_HEADER_LENGTH + Bth.LENGTH;
        final byte[] ph = pseudoHeader;
        buffer.getBytes(ipOffset, ph, PREFIX_LENGTH, pseudoLength);
        maskIpHeader(ph, ipHeaderLength);
        final int udp = PREFIX_LENGTH + ipHeaderLength;
        ph[udp + 6] = (byte)0xFF;
        ph[udp + 7] = (byte)0xFF;
        ph[udp + RoceV2.UDP_HEADER_LENGTH + Bth.FECN_BECN_OFFSET] = (byte)0xFF;

        final CRC32 crc = this.crc;
        crc.reset();
        crc.update(ph, 0, PREFIX_LENGTH + pseudoLength);
        update(buffer, ipOffset + pseudoLength, ipPacketLength - pseudoLength - LENGTH);
        return (int)crc.getValue();
    }

    /**
     * Computes the ICRC and writes it little-endian into the last 4 bytes of the IP packet. The IP length field
     * must already be final.
     *
     * @param buffer    holding the packet
     * @param ipOffset  offset of the IP header
     * @param available bytes from {@code ipOffset} to the end of the frame in {@code buffer}
     * @return true if written, false if the IP header is malformed (see {@link #ipPacketLength})
     */
    public boolean generate(final MutableDirectBuffer buffer, final int ipOffset, final int available)
    {
        final int length = ipPacketLength(buffer, ipOffset, available);
        if (length < 0)
        {
            return false;
        }
        buffer.putInt(ipOffset + length - LENGTH, compute(buffer, ipOffset, length), WIRE_ORDER);
        return true;
    }

    /**
     * Checks a received packet's ICRC (rxe_icrc_check).
     *
     * @param buffer    holding the packet
     * @param ipOffset  offset of the IP header
     * @param available bytes received from {@code ipOffset} on (may include Ethernet padding)
     * @return true if the packet is well formed and its ICRC matches
     */
    public boolean check(final DirectBuffer buffer, final int ipOffset, final int available)
    {
        final int length = ipPacketLength(buffer, ipOffset, available);
        if (length < 0)
        {
            return false;
        }
        return buffer.getInt(ipOffset + length - LENGTH, WIRE_ORDER) == compute(buffer, ipOffset, length);
    }

    /**
     * Computes the ICRC of a packet whose headers are in {@code buffer} and whose payload is elsewhere: the CRC runs
     * over the masked pseudo-header and headers in place, then over the payload where it lies, then over
     * {@code pad} zero bytes. The IP and UDP length fields must already count payload, pad and ICRC.
     *
     * @param buffer        holding the IP, UDP, BTH and extension headers, with 8 bytes before the IP header
     * @param ipOffset      offset of the IP header, at least 8
     * @param headLength    bytes from {@code ipOffset} to the end of the last header (the first payload byte)
     * @param payloadView   a direct ByteBuffer over the payload's memory, private to this thread (its position and
     *                      limit are overwritten), or null to read {@code payload} in chunks
     * @param payload       the payload's memory, used when {@code payloadView} is null; its wrap adjustment maps
     *                      {@code payloadIndex} into {@code payloadView}
     * @param payloadIndex  index of the first payload byte in {@code payload}
     * @param payloadLength payload bytes
     * @param pad           pad bytes after the payload, 0..3, zero on the wire
     * @return the CRC value, as {@link #compute} returns it
     */
    public int computeGather(
        final MutableDirectBuffer buffer,
        final int ipOffset,
        final int headLength,
        final ByteBuffer payloadView,
        final DirectBuffer payload,
        final int payloadIndex,
        final int payloadLength,
        final int pad)
    {
        final int start = ipOffset - PREFIX_LENGTH;
        mask(buffer, ipOffset);
        try
        {
            crc.reset();
            update(buffer, start, PREFIX_LENGTH + headLength);
            if (null != payloadView)
            {
                final int at = payload.wrapAdjustment() + payloadIndex;
                payloadView.clear();
                payloadView.position(at);
                payloadView.limit(at + payloadLength);
                crc.update(payloadView);
            }
            else
            {
                updateByCopy(payload, payloadIndex, payloadLength);
            }
            crc.update(zeroPad, 0, pad);
        }
        finally
        {
            restore(buffer, ipOffset);
        }
        return (int)crc.getValue();
    }

    /** Masks the variant fields and the 8 bytes before the IP header in place, saving them in fields. */
    private void mask(final MutableDirectBuffer buffer, final int ipOffset)
    {
        final int first = buffer.getByte(ipOffset);
        final boolean ipv6 = 6 == (first & 0xF0) >>> 4;
        final int ipHeaderLength = ipv6 ? RoceV2.IPV6_HEADER_LENGTH : (first & 0x0F) * 4;
        final int start = ipOffset - PREFIX_LENGTH;
        final int ipWord = ipOffset + (ipv6 ? 4 : 8);
        final int udpChecksum = ipOffset + ipHeaderLength + 6;
        final int bthByte4 = ipOffset + ipHeaderLength + RoceV2.UDP_HEADER_LENGTH + Bth.FECN_BECN_OFFSET;
        savedPrefix = buffer.getLong(start);
        savedIpWord0 = buffer.getInt(ipOffset);
        savedIpWord = buffer.getInt(ipWord);
        savedUdpChecksum = buffer.getShort(udpChecksum);
        savedBthByte4 = buffer.getByte(bthByte4);
        buffer.putLong(start, -1L);
        if (ipv6)
        {
            buffer.putByte(ipOffset, (byte)(first | 0x0F));
            buffer.putByte(ipOffset + 1, (byte)0xFF);
            buffer.putShort(ipOffset + 2, (short)0xFFFF);
            buffer.putByte(ipOffset + 7, (byte)0xFF);
        }
        else
        {
            buffer.putByte(ipOffset + 1, (byte)0xFF);
            buffer.putByte(ipOffset + 8, (byte)0xFF);
            buffer.putShort(ipOffset + 10, (short)0xFFFF);
        }
        buffer.putShort(udpChecksum, (short)0xFFFF);
        buffer.putByte(bthByte4, (byte)0xFF);
    }

    /** Undoes {@link #mask}: the version nibble and IPv4 IHL are never masked, so the offsets are found again. */
    private void restore(final MutableDirectBuffer buffer, final int ipOffset)
    {
        final boolean ipv6 = 6 == (buffer.getByte(ipOffset) & 0xF0) >>> 4;
        final int ipHeaderLength = ipv6 ? RoceV2.IPV6_HEADER_LENGTH : (buffer.getByte(ipOffset) & 0x0F) * 4;
        buffer.putLong(ipOffset - PREFIX_LENGTH, savedPrefix);
        buffer.putInt(ipOffset, savedIpWord0);
        buffer.putInt(ipOffset + (ipv6 ? 4 : 8), savedIpWord);
        buffer.putShort(ipOffset + ipHeaderLength + 6, savedUdpChecksum);
        buffer.putByte(ipOffset + ipHeaderLength + RoceV2.UDP_HEADER_LENGTH + Bth.FECN_BECN_OFFSET, savedBthByte4);
    }

    private int computeInPlace(final MutableDirectBuffer buffer, final int ipOffset, final int ipPacketLength)
    {
        mask(buffer, ipOffset);
        crc.reset();
        update(buffer, ipOffset - PREFIX_LENGTH, PREFIX_LENGTH + ipPacketLength - LENGTH);
        restore(buffer, ipOffset);
        return (int)crc.getValue();
    }

    private static void maskIpHeader(final byte[] ph, final int ipHeaderLength)
    {
        final int ip = PREFIX_LENGTH;
        if (RoceV2.IPV6_HEADER_LENGTH == ipHeaderLength && 6 == (ph[ip] & 0xF0) >>> 4)
        {
            ph[ip] |= 0x0F;             // traffic class, high nibble
            ph[ip + 1] = (byte)0xFF;    // traffic class low nibble, flow label high nibble
            ph[ip + 2] = (byte)0xFF;    // flow label
            ph[ip + 3] = (byte)0xFF;
            ph[ip + 7] = (byte)0xFF;    // hop limit
        }
        else
        {
            ph[ip + 1] = (byte)0xFF;    // TOS (DSCP + ECN)
            ph[ip + 8] = (byte)0xFF;    // TTL
            ph[ip + 10] = (byte)0xFF;   // header checksum
            ph[ip + 11] = (byte)0xFF;
        }
    }

    private void update(final DirectBuffer buffer, final int index, final int length)
    {
        if (length <= 0)
        {
            return;
        }
        final byte[] array = buffer.byteArray();
        if (null != array)
        {
            crc.update(array, buffer.wrapAdjustment() + index, length);
            return;
        }
        final ByteBuffer source = buffer.byteBuffer();
        if (null != source && source.isDirect())
        {
            if (source != viewSource)
            {
                view = source.duplicate();   // once per backing buffer, not per packet
                viewSource = source;
            }
            final int start = buffer.wrapAdjustment() + index;
            final ByteBuffer v = view;
            v.clear();
            v.position(start);
            v.limit(start + length);
            crc.update(v);
            return;
        }
        updateByCopy(buffer, index, length);
    }

    private void updateByCopy(final DirectBuffer buffer, final int index, final int length)
    {
        final byte[] chunk = copyChunk;
        int done = 0;
        while (done < length)
        {
            final int n = Math.min(chunk.length, length - done);
            buffer.getBytes(index + done, chunk, 0, n);
            crc.update(chunk, 0, n);
            done += n;
        }
    }
}
