package io.jrxe.ulp.cmapps;

/**
 * How a {@link Mckey} run ended.
 *
 * @param sender    whether it sent
 * @param group     the group's GID as the C tool prints it ({@code ::ffff:239.1.2.3})
 * @param messages  messages it was to send or receive
 * @param size      bytes per message
 * @param completed sends completed, or receives completed successfully with {@code size} bytes after the GRH
 * @param failed    completions in error, or receives of another length
 */
public record MckeyResult(boolean sender, String group, int messages, int size, int completed, int failed)
{
    /** @return "sender" or "receiver" */
    public String role()
    {
        return sender ? "sender" : "receiver";
    }

    /** @return every message went (or came) and none failed */
    public boolean ok()
    {
        return completed == messages && 0 == failed;
    }
}
