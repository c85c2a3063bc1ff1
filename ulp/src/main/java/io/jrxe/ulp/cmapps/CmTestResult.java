package io.jrxe.ulp.cmapps;

/**
 * What a {@link Cmatose} or {@link Udaddy} run did: its role, the connections and messages it exchanged, how many
 * received messages were wrong, and how long connecting and the whole run took.
 *
 * @param client      true for the client side
 * @param connections connections made or accepted
 * @param messages    messages per connection and direction ({@code -C})
 * @param size        bytes per message ({@code -S})
 * @param sent        messages sent, all connections
 * @param received    messages received, all connections
 * @param bad         received messages of the wrong length, opcode, immediate or (with verification) content
 * @param connectNs   client: first resolve to last ESTABLISHED; server: first CONNECT_REQUEST to last
 *                    ESTABLISHED (udaddy's server: to the last accept, as it gets no ESTABLISHED)
 * @param totalNs     the whole run
 */
public record CmTestResult(
    boolean client,
    int connections,
    int messages,
    int size,
    long sent,
    long received,
    long bad,
    long connectNs,
    long totalNs)
{
    /** @return "client" or "server" */
    public String role()
    {
        return client ? "client" : "server";
    }

    /** @return true when every expected message arrived and none was wrong */
    public boolean ok()
    {
        return 0 == bad && received == (long)connections * messages && sent == (long)connections * messages;
    }

    /** @return set-up time in seconds */
    public double connectSeconds()
    {
        return connectNs / 1e9;
    }

    /** @return connections set up per second (0 when set-up took no measurable time) */
    public double connectionsPerSecond()
    {
        return connectNs <= 0 ? 0 : connections / connectSeconds();
    }

    /** @return the whole run in seconds */
    public double seconds()
    {
        return totalNs / 1e9;
    }
}
