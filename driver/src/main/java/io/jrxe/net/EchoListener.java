package io.jrxe.net;

/**
 * Told of ICMP echo replies to requests this stack sent ({@link NetStack#sendEchoRequest4}). Called on the
 * stack's thread from inside {@link NetStack#poll()}; must not call {@code poll()}.
 */
@FunctionalInterface
public interface EchoListener
{
    /**
     * @param srcIp         IPv4 address that answered
     * @param identifier    echo identifier from the reply
     * @param sequence      echo sequence number from the reply
     * @param payloadLength bytes of echo data after the 8-byte ICMP header
     * @param dataMatches   whether the echoed data equals the pattern the request carried (RFC 792: the
     *                      data of the request is returned in the reply)
     */
    void onEchoReply(int srcIp, int identifier, int sequence, int payloadLength, boolean dataMatches);
}
